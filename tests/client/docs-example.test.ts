import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { clientExample } from '../support/client-example.js';
import { ROOT } from '../support/program.js';
import { startServer, type TestServer } from '../support/http-server.js';

/**
 * docs/client.md's example, run as a reader would run it, against a live server: what it prints
 * is what its comments say. (tests/package/ type-checks the same text against the shipped
 * declarations.) It imports the client from src/ here, so that it needs no build.
 */
describe('client: the example of docs/client.md runs and prints what its comments say', function () {
  this.timeout(30_000);
  let server: TestServer;
  let folder: string;
  before(async () => {
    server = await startServer({ env: { UTILITY_API_STORAGE: 'memory' } });
    folder = mkdtempSync(join(tmpdir(), 'utility-api-client-example-'));
  });
  after(async () => {
    await server?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('encrypts and decrypts, creates a user, queues a mail and draws a barcode', async () => {
    const example = clientExample()
      .replace("'utility-api/client'", `'${pathToFileURL(join(ROOT, 'src', 'client', 'index.ts')).href}'`)
      .replace("'http://localhost:3000'", `'${server.baseUrl}'`);
    const file = join(folder, 'example.mts');
    writeFileSync(file, example);
    const printed: unknown[][] = [];
    const { log, error } = console;
    const previousToken = process.env.TOKEN;
    process.env.TOKEN = await server.tokenFor(['*']);
    console.log = (...values: unknown[]) => void printed.push(values);
    console.error = (...values: unknown[]) => void printed.push(['error:', ...values]);
    try {
      await import(pathToFileURL(file).href);
    } finally {
      console.log = log;
      console.error = error;
      if (previousToken === undefined) delete process.env.TOKEN;
      else process.env.TOKEN = previousToken;
    }
    expect(printed[0]).to.deep.equal(['hello']);
    expect(printed[1]![0]).to.match(/^\d+ requests left until the window ends$/);
    expect(printed[2]![0]).to.equal(201);
    expect(printed[2]![1]).to.be.a('string');
    expect(printed[3]![0]).to.be.a('string');
    expect(printed[4]![0]).to.be.greaterThan(100);
    expect(printed[4]![1]).to.equal('image/png');
    expect(printed).to.have.length(5);
  });
});
