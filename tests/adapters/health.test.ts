import { expect } from 'chai';
import { Health } from '../../src/adapters/http/health.js';

describe('adapter: Health, readiness', () => {
  const check = (probe: () => Promise<void>, whenDown: 'fail' | 'warn' = 'fail') => ({ component: 'thing', componentType: 'component' as const, whenDown, probe });

  it('counts a dependency that does not answer within the deadline as down', async () => {
    const started = performance.now();
    const document = await new Health([check(() => new Promise(() => {}))], 50).ready();
    expect(performance.now() - started).to.be.below(1_000);
    expect(document.status).to.equal('fail');
    expect(document.checks!['thing:responseTime']![0]).to.include({ status: 'fail', output: 'no answer within 50 ms' });
  });

  it('warns, without failing, for a dependency it can serve without, saying how it serves meanwhile', async () => {
    const health = new Health([{ ...check(async () => Promise.reject(new Error('connection refused')), 'warn'), degraded: 'counting alone' }]);
    const document = await health.ready();
    expect(document.status).to.equal('warn');
    expect(document.checks!['thing:responseTime']![0]!.output).to.equal('connection refused; counting alone');
  });

  it('asks each dependency once for questions asked together', async () => {
    let probes = 0;
    const health = new Health([check(async () => void (probes += 1))]);
    await Promise.all([health.ready(), health.ready(), health.ready()]);
    expect(probes).to.equal(1);
  });
});
