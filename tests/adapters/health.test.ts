import { expect } from 'chai';
import { Health } from '../../src/platform/http/health.js';
import { settlesWithin } from '../support/eventually.js';

describe('adapter: Health, readiness', () => {
  const check = (probe: () => Promise<void>, whenDown: 'fail' | 'warn' = 'fail') => ({
    component: 'thing',
    componentType: 'component' as const,
    whenDown,
    probe,
  });

  it('counts a dependency that does not answer within the deadline as down', async () => {
    // A probe that never answers: the document comes all the same, cut by the deadline.
    const document = await settlesWithin(
      new Health([check(() => new Promise(() => {}))], 50).ready(),
      'readiness with a dependency that never answers',
    );
    expect(document.status).to.equal('fail');
    expect(document.checks!['thing:responseTime']![0]).to.include({ status: 'fail', output: 'no answer within 50 ms' });
  });

  it('warns, without failing, for a dependency it can serve without, saying how it serves meanwhile', async () => {
    const health = new Health([
      { ...check(async () => Promise.reject(new Error('connection refused')), 'warn'), degraded: 'counting alone' },
    ]);
    const document = await health.ready();
    expect(document.status).to.equal('warn');
    expect(document.checks!['thing:responseTime']![0]!.output).to.equal('does not answer; counting alone');
  });

  it('tells the log, not the asker, why a dependency does not answer: once when it goes, once when it is back', async () => {
    const logged: { level: string; fields: Record<string, unknown>; message: string }[] = [];
    const logger = {
      warn: (fields: Record<string, unknown>, message: string) => void logged.push({ level: 'warn', fields, message }),
      info: (fields: Record<string, unknown>, message: string) => void logged.push({ level: 'info', fields, message }),
    };
    let answering = false;
    const health = new Health(
      [check(async () => (answering ? undefined : Promise.reject(new Error('connect ECONNREFUSED 10.1.2.3:5432'))))],
      1_000,
      logger as never,
    );
    const answers = [JSON.stringify(await health.ready()), JSON.stringify(await health.ready())];
    answering = true;
    await health.ready();
    for (const answer of answers) expect(answer).to.not.include('10.1.2.3').and.not.include('ECONNREFUSED');
    expect(
      logged.map(({ level, fields, message }) => [
        level,
        fields.component,
        (fields.err as Error | undefined)?.message,
        message,
      ]),
    ).to.deep.equal([
      ['warn', 'thing', 'connect ECONNREFUSED 10.1.2.3:5432', 'readiness: a dependency does not answer'],
      ['info', 'thing', undefined, 'readiness: the dependency answers again'],
    ]);
  });

  it('asks each dependency once for questions asked together', async () => {
    let probes = 0;
    const health = new Health([check(async () => void (probes += 1))]);
    await Promise.all([health.ready(), health.ready(), health.ready()]);
    expect(probes).to.equal(1);
  });
});
