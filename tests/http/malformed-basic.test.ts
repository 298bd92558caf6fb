import { expect } from 'chai';
import { request } from 'node:http';
import { startServer, type TestServer } from '../support/http-server.js';

/** POST /api/token/create from a loopback address of the test's choosing: status, code and Retry-After. */
function createFrom(
  server: TestServer,
  localAddress: string,
  authorization: string,
): Promise<{ status: number; code: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const body = '{}';
    const outgoing = request(
      {
        host: '127.0.0.1',
        port: server.port,
        localAddress,
        method: 'POST',
        path: '/api/token/create',
        agent: false,
        headers: { authorization, 'content-type': 'application/json', 'content-length': body.length },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const retryAfter = incoming.headers['retry-after'];
          resolve({
            status: incoming.statusCode!,
            code: (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code: number }).code,
            ...(retryAfter === undefined ? {} : { retryAfter }),
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * A malformed Basic value answers after the same scrypt work as a wrong password (docs/families/users-and-tokens.md, *A token
 * for your password*). The work itself cannot be seen over HTTP without timing it; what can be
 * seen is that it is a login attempt like a wrong password: counted, and throttled after 5.
 */
describe('http: a malformed Basic value is a failed login like a wrong password', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { UTILITY_API_STORAGE: 'memory' } });
  });
  after(async () => server?.close());

  it('answers 401 code 4 five times from one address, then 429 code 25 with Retry-After, as five wrong passwords would', async () => {
    const malformed = [
      'Basic !!!',
      `Basic ${Buffer.from('no colon here').toString('base64')}`,
      'Basic',
      `Basic ${Buffer.from(':no login').toString('base64')}`,
      'Basic !!!',
    ];
    const from = '127.0.9.2';
    for (const authorization of malformed)
      expect(await createFrom(server, from, authorization), authorization).to.deep.equal({ status: 401, code: 4 });
    const throttled = await createFrom(server, from, 'Basic !!!');
    expect(throttled).to.include({ status: 429, code: 25 });
    expect(Number(throttled.retryAfter)).to.be.within(1, 60);
  });

  it('leaves another scheme what it was: no login attempt, 401 code 4 however often', async () => {
    for (let i = 0; i < 7; i++)
      expect(await createFrom(server, '127.0.9.3', 'Digest username="x"')).to.deep.equal({ status: 401, code: 4 });
  });
});
