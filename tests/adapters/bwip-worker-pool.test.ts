import { expect } from 'chai';
import { BwipWorkerPool } from '../../src/families/barcode/adapters/bwip-worker-pool.js';
import type { BwipDrawn } from '../../src/families/barcode/adapters/bwip-engine.js';

const SCRIPTED = new URL('../support/scripted-draw-worker.js', import.meta.url);
const task = (text: string) => ({ format: 'svg' as const, options: { text } });
const outcome = (drawing: Promise<BwipDrawn>) =>
  drawing.then(
    (drawn) => (drawn.kind === 'svg' ? drawn.markup : drawn.kind),
    (error: Error) => `failed: ${error.message}`,
  );

describe('adapter: the barcode drawing pool', () => {
  let pool: BwipWorkerPool;
  afterEach(() => pool.stop());

  it('starts no worker before the first task, then `workers` of them, which stay', async () => {
    pool = new BwipWorkerPool({ workers: 2, queue: 4 }, SCRIPTED);
    expect(pool.size).to.deep.equal({ workers: 0, busy: 0, waiting: 0 });
    expect(await outcome(pool.draw(task('one')))).to.equal('one');
    expect(pool.size).to.deep.equal({ workers: 2, busy: 0, waiting: 0 });
  });

  it('answers busy at once when every worker is drawing and the queue is full, and draws the rest in order', async () => {
    pool = new BwipWorkerPool({ workers: 1, queue: 4 }, SCRIPTED);
    await pool.symbols();
    const finished: string[] = [];
    const texts = ['wait 200', 'wait 10 a', 'wait 10 b', 'wait 10 c', 'wait 10 d', 'refused'];
    const results = await Promise.all(
      texts.map((text) =>
        outcome(pool.draw(task(text))).then((result) => {
          finished.push(result);
          return result;
        }),
      ),
    );
    expect(results).to.deep.equal([...texts.slice(0, 5), 'busy']);
    // First come, first drawn: piscina's default order would have drawn a, c, b, d.
    expect(finished).to.deep.equal(['busy', ...texts.slice(0, 5)]);
  });

  it('fails only the task of a worker that dies, and draws those waiting behind it with a new worker', async () => {
    pool = new BwipWorkerPool({ workers: 1, queue: 4 }, SCRIPTED);
    await pool.symbols();
    const results = await Promise.all([
      outcome(pool.draw(task('exit'))),
      outcome(pool.draw(task('after'))),
      outcome(pool.draw(task('and after'))),
    ]);
    expect(results[0]).to.match(/^failed: .*exited with code: 7/);
    expect(results.slice(1)).to.deep.equal(['after', 'and after']);
  });

  it('limits a worker’s heap: one that runs out fails its drawing, and the next is drawn', async () => {
    pool = new BwipWorkerPool({ workers: 1, queue: 4 }, SCRIPTED);
    await pool.symbols();
    const results = await Promise.all([outcome(pool.draw(task('oom'))), outcome(pool.draw(task('next')))]);
    expect(results[0]).to.match(/^failed: .*memory limit/);
    expect(results[1]).to.equal('next');
  });

  it('fails what is waiting or drawn when stopped', async () => {
    pool = new BwipWorkerPool({ workers: 1, queue: 4 }, SCRIPTED);
    await pool.symbols();
    const drawings = [outcome(pool.draw(task('wait 5000'))), outcome(pool.draw(task('waiting')))];
    await new Promise((resolve) => setTimeout(resolve, 50));
    await pool.stop();
    for (const result of await Promise.all(drawings)) expect(result).to.match(/^failed: /);
  });
});
