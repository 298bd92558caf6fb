import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProgram } from '../support/program.js';

describe('e2e: a stop fails readiness first', function () {
  this.timeout(60_000);
  let cwd: string;
  before(() => {
    cwd = mkdtempSync(join(tmpdir(), 'utility-api-readiness-'));
  });
  after(() => rmSync(cwd, { recursive: true, force: true }));

  it('on SIGTERM, /readyz answers 503 while new connections are still served for the readiness grace, then the process drains and exits 0', async () => {
    const running = await startProgram({
      cwd,
      env: { UTILITY_API_DATA_DIR: join(cwd, 'data'), UTILITY_API_READINESS_GRACE_MS: '3000' },
    });
    expect((await fetch(`${running.baseUrl}/readyz`)).status).to.equal(200);

    running.child.kill('SIGTERM');
    await until(() =>
      running.log.some((entry) => entry.msg === 'stopping: readiness fails; still serving for the grace'),
    );
    const ready = await fetch(`${running.baseUrl}/readyz`);
    expect(ready.status).to.equal(503);
    expect(((await ready.json()) as { status: string }).status).to.equal('fail');
    // Still taking new connections: the load balancer is given the grace to notice.
    expect((await fetch(`${running.baseUrl}/livez`)).status).to.equal(200);

    expect(await running.exited).to.deep.equal({ code: 0, signal: null });
    const messages = running.log.map((entry) => entry.msg);
    expect(messages.indexOf('stopping: readiness fails; still serving for the grace')).to.be.below(
      messages.indexOf('stopping: finishing the requests received'),
    );
  });
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((done) => setTimeout(done, 10));
}
