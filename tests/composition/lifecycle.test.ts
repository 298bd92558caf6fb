import { expect } from 'chai';
import { Lifecycle, type LifecycleComponent } from '../../src/platform/lifecycle.js';

/** A component that writes what happens to it into a shared journal, and fails when told to. */
function component(
  name: string,
  journal: string[],
  fails: { start?: boolean; stop?: boolean } = {},
): LifecycleComponent {
  return {
    name,
    async start() {
      journal.push(`start ${name}`);
      if (fails.start) throw new Error(`${name} cannot start`);
    },
    async stop() {
      journal.push(`stop ${name}`);
      if (fails.stop) throw new Error(`${name} lost its work`);
    },
  };
}

describe('composition: lifecycle of background work', () => {
  it('starts components in the order given and stops them in reverse', async () => {
    const journal: string[] = [];
    const lifecycle = new Lifecycle(
      [component('flush', journal), component('worker', journal), component('listener', journal)],
      () => {},
    );
    await lifecycle.start();
    expect(await lifecycle.stop()).to.deep.equal({ failed: [] });
    expect(journal).to.deep.equal([
      'start flush',
      'start worker',
      'start listener',
      'stop listener',
      'stop worker',
      'stop flush',
    ]);
  });

  it('tells the started components that a stop has begun, before stopping any', async () => {
    const journal: string[] = [];
    const draining = { ...component('worker', journal), drain: () => void journal.push('drain worker') };
    const lifecycle = new Lifecycle([component('flush', journal), draining], () => {});
    lifecycle.drain();
    expect(journal, 'nothing started yet').to.deep.equal([]);
    await lifecycle.start();
    lifecycle.drain();
    await lifecycle.stop();
    expect(journal).to.deep.equal(['start flush', 'start worker', 'drain worker', 'stop worker', 'stop flush']);
  });

  it('stops the others when one stop fails, reports that failure and names it', async () => {
    const journal: string[] = [];
    const reported: string[] = [];
    const lifecycle = new Lifecycle(
      [
        component('flush', journal, { stop: true }),
        component('worker', journal, { stop: true }),
        component('listener', journal),
      ],
      (name, error) => reported.push(`${name}: ${(error as Error).message}`),
    );
    await lifecycle.start();
    expect(await lifecycle.stop()).to.deep.equal({ failed: ['worker', 'flush'] });
    expect(journal.filter((entry) => entry.startsWith('stop'))).to.deep.equal([
      'stop listener',
      'stop worker',
      'stop flush',
    ]);
    expect(reported).to.deep.equal(['worker: worker lost its work', 'flush: flush lost its work']);
  });

  it('when a start fails, stops what it had started, last first, starts nothing after it, and throws', async () => {
    const journal: string[] = [];
    const lifecycle = new Lifecycle(
      [
        component('flush', journal),
        component('worker', journal),
        component('broken', journal, { start: true }),
        component('never', journal),
      ],
      () => {},
    );
    let thrown: unknown;
    await lifecycle.start().catch((error: unknown) => (thrown = error));
    expect((thrown as Error).message).to.equal('broken cannot start');
    expect(journal).to.deep.equal(['start flush', 'start worker', 'start broken', 'stop worker', 'stop flush']);
  });

  it('stops each component once, however often it is asked', async () => {
    const journal: string[] = [];
    const lifecycle = new Lifecycle([component('flush', journal)], () => {});
    await lifecycle.start();
    await lifecycle.stop();
    expect(await lifecycle.stop()).to.deep.equal({ failed: [] });
    expect(journal).to.deep.equal(['start flush', 'stop flush']);
  });
});
