import { request } from 'node:http';
import { expect } from 'chai';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { expectRight } from '../support/either.js';
import { expectError, httpBackends, serverForSuite, startServer, type TestServer } from '../support/http-server.js';

const ENC = '/api/crypto/enc?data=hello';

/** GET `path` from the given local address (127.0.0.0/8 is all loopback), answered as a fetch Response. */
function getFrom(server: TestServer, from: string, path: string, headers: Record<string, string>): Promise<Response> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port: server.port, localAddress: from, method: 'GET', path, headers },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve(
            new Response(Buffer.concat(chunks), {
              status: incoming.statusCode!,
              headers: { 'content-type': String(incoming.headers['content-type'] ?? '') },
            }),
          ),
        );
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

for (const backend of httpBackends) {
  describe(`http: tokens bound to client addresses (${backend.name})`, () => {
    const suite = serverForSuite(backend);

    const create = (secret: string, json: unknown) =>
      suite.server.send('POST', '/api/token/create', { token: secret, json });
    const update = (secret: string, json: unknown, id?: string) =>
      suite.server.send('PATCH', `/api/token/update${id ? `?id=${id}` : ''}`, { token: secret, json });

    it('serves a bound token from its networks only, and answers 403/1 saying the address is not allowed from elsewhere', async () => {
      const me = await suite.server.userWithToken(['Tokens::Create', 'Cryptography::*']);
      const response = await create(me.secret, { allowedAddresses: ['127.0.5.0/24', '2001:db8::/32'] });
      expect(response.status, await response.clone().text()).to.equal(201);
      const bound = (await response.json()) as { token: string; allowedAddresses: string[] };
      expect(bound.allowedAddresses).to.deep.equal(['127.0.5.0/24', '2001:db8::/32']);
      expect((await getFrom(suite.server, '127.0.5.9', ENC, bearer(bound.token))).status).to.equal(200);
      const refused = await getFrom(suite.server, '127.0.6.9', ENC, bearer(bound.token));
      const body = await expectError(refused, 403, 1);
      expect(body.details).to.equal('The address 127.0.6.9 is not allowed to use this token');
      await expectError(await suite.server.get(ENC, bearer(bound.token)), 403, 1);
      expect((await suite.server.get(ENC, bearer(me.secret))).status).to.equal(200);
    });

    it('binds, rebinds and frees a token with token/update, effective on its next request', async () => {
      const me = await suite.server.userWithToken(['Cryptography::*']);
      const { id } = (await (await suite.server.send('GET', '/api/token/info', { token: me.secret })).json()) as {
        id: string;
      };
      const elsewhere = await update(me.secret, { allowedAddresses: ['203.0.113.0/24'] });
      expect(elsewhere.status).to.equal(200);
      expect(((await elsewhere.json()) as { allowedAddresses: string[] }).allowedAddresses).to.deep.equal([
        '203.0.113.0/24',
      ]);
      await expectError(await suite.server.get(ENC, bearer(me.secret)), 403, 1);
      // Its owner rebinds and frees it with another token of theirs.
      const { issueToken } = suite.server.app.useCases.usersAndTokens;
      const { secret: other } = expectRight(
        await issueToken.execute({ actor: OPERATOR, owner: { username: me.username } }),
      );
      expect((await update(other, { allowedAddresses: ['127.0.0.1/32'] }, id)).status).to.equal(200);
      expect((await suite.server.get(ENC, bearer(me.secret))).status).to.equal(200);
      await expectError(await getFrom(suite.server, '127.0.9.9', ENC, bearer(me.secret)), 403, 1);
      expect((await update(other, { allowedAddresses: null }, id)).status).to.equal(200);
      expect((await getFrom(suite.server, '127.0.9.9', ENC, bearer(me.secret))).status).to.equal(200);
    });

    it('binds what a bound token issues to its networks, and lets it give no wider ones nor free itself', async () => {
      const me = await suite.server.userWithToken(['Tokens::Create', 'Cryptography::*'], {
        allowedAddresses: ['127.0.0.0/16'],
      });
      const inherited = (await (await create(me.secret, {})).json()) as { allowedAddresses: string[] };
      expect(inherited.allowedAddresses).to.deep.equal(['127.0.0.0/16']);
      expect((await create(me.secret, { allowedAddresses: ['127.0.3.0/24'] })).status).to.equal(201);
      for (const wider of [['127.0.0.0/8'], ['10.0.0.0/8'], ['2001:db8::/32']]) {
        const body = await expectError(await create(me.secret, { allowedAddresses: wider }), 400, 11);
        expect(body.details).to.include('127.0.0.0/16');
      }
      await expectError(await update(me.secret, { allowedAddresses: null }), 400, 11);
      await expectError(await update(me.secret, { allowedAddresses: ['0.0.0.0/0'] }), 400, 11);
      expect((await update(me.secret, { allowedAddresses: ['127.0.0.0/24'] })).status).to.equal(200);
    });

    it('refuses malformed networks with 400/11 on create and update, changing nothing', async () => {
      const me = await suite.server.userWithToken(['Tokens::Create', 'Cryptography::*']);
      const before = await suite.server.snapshot();
      const malformed: unknown[] = [
        [],
        ['203.0.113.7/24'],
        ['203.0.113.0'],
        ['203.0.113.0/33'],
        ['2001:db8::/129'],
        ['example.com/24'],
        ['203.0.113.0/24', 7],
        '203.0.113.0/24',
        { network: '203.0.113.0/24' },
        Array.from({ length: 51 }, (_, i) => `10.${i}.0.0/16`),
      ];
      for (const allowedAddresses of malformed) {
        await expectError(await create(me.secret, { allowedAddresses }), 400, 11);
        await expectError(await update(me.secret, { allowedAddresses }), 400, 11);
      }
      await expectError(await create(me.secret, { allowedAddresses: null }), 400, 11);
      expect(await suite.server.snapshot()).to.deep.equal(before);
    });
  });
}

describe('http: the client address behind trusted proxies', () => {
  let behindProxy: TestServer;
  before(async () => {
    behindProxy = await startServer({
      env: { UTILITY_API_STORAGE: 'memory' },
      overrides: { http: { trustedProxies: ['127.0.0.1/32'] } },
    });
  });
  after(async () => behindProxy?.close());

  it('reads X-Forwarded-For from a trusted proxy only, for a bound token', async () => {
    const secret = await behindProxy.tokenFor(['*'], { allowedAddresses: ['203.0.113.0/24'] });
    const forwarded = { ...bearer(secret), 'X-Forwarded-For': '198.51.100.1, 203.0.113.9' };
    expect((await getFrom(behindProxy, '127.0.0.1', ENC, forwarded)).status).to.equal(200);
    // What a client wrote left of the first untrusted address is never read.
    const spoofed = { ...bearer(secret), 'X-Forwarded-For': '203.0.113.9, 198.51.100.1' };
    const body = await expectError(await getFrom(behindProxy, '127.0.0.1', ENC, spoofed), 403, 1);
    expect(body.details).to.include('198.51.100.1');
    // A peer that is no trusted proxy is the client, whatever it forwards.
    await expectError(await getFrom(behindProxy, '127.0.0.2', ENC, forwarded), 403, 1);
  });

  it('ignores X-Forwarded-For where no proxy is trusted', async () => {
    const plain = await startServer({ env: { UTILITY_API_STORAGE: 'memory' } });
    try {
      const secret = await plain.tokenFor(['*'], { allowedAddresses: ['203.0.113.0/24'] });
      const forwarded = { ...bearer(secret), 'X-Forwarded-For': '203.0.113.9' };
      await expectError(await getFrom(plain, '127.0.0.1', ENC, forwarded), 403, 1);
    } finally {
      await plain.close();
    }
  });
});
