import { expect } from 'chai';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { expectRight } from '../support/either.js';
import { expectError, httpBackends, serverForSuite, type TestServer } from '../support/http-server.js';
import { ManualClock } from '../support/manual-clock.js';

const LIMIT = 3;
const PASSWORD = 'a long enough password';
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

for (const backend of httpBackends) {
  describe(`http: at most auth.maxTokensPerUser unexpired tokens per user (${backend.name})`, () => {
    const clock = new ManualClock(Date.now());
    const suite = serverForSuite(backend, { clock, overrides: { auth: { maxTokensPerUser: LIMIT } } });
    let server: TestServer;
    let admin: string;
    before(async () => {
      server = suite.server;
      admin = await server.tokenFor(['*']);
    });

    const create = (token: string, json: unknown = {}) => server.send('POST', '/api/token/create', { token, json });
    const listOf = async (token: string) =>
      (await (await server.send('GET', '/api/token/list', { token })).json()) as { id: string }[];

    it('answers 409/26 with the limit beyond it, whoever issues, and stores nothing; a revoked token frees its place', async () => {
      const user = await server.userWithToken(['Tokens::Create', 'Cryptography::*']);
      for (let i = 1; i < LIMIT; i += 1) expect((await create(user.secret)).status).to.equal(201);
      const refused = await expectError(await create(user.secret), 409, 26);
      expect(refused.details).to.equal(`A user may hold at most ${LIMIT} unexpired tokens; revoke one first`);
      // Another user issuing for them counts against the owner too.
      await expectError(await create(admin, { firebaseuid: user.uid }), 409, 26);
      const tokens = await listOf(user.secret);
      expect(tokens).to.have.length(LIMIT);

      const calling = (await (await server.send('GET', '/api/token/info', { token: user.secret })).json()) as {
        id: string;
      };
      const spare = tokens.find((token) => token.id !== calling.id)!;
      expect((await server.send('DELETE', `/api/token/delete?id=${spare.id}`, { token: user.secret })).status).to.equal(
        200,
      );
      expect((await create(admin, { firebaseuid: user.uid })).status).to.equal(201);
      await expectError(await create(user.secret), 409, 26);
    });

    it('counts only tokens that have not expired', async () => {
      const user = await server.userWithToken(['Tokens::Create', 'Cryptography::*']);
      for (let i = 1; i < LIMIT; i += 1) expect((await create(user.secret, { expiresIn: '1h' })).status).to.equal(201);
      await expectError(await create(user.secret), 409, 26);
      clock.advance(3_600_000);
      expect((await create(user.secret)).status).to.equal(201);
    });

    it('counts a rotation’s new token, not the one it replaces, and a replaced token no more once its grace is over', async () => {
      const user = await server.userWithToken(['Tokens::*', 'Cryptography::*']);
      for (let i = 1; i < LIMIT; i += 1) expect((await create(user.secret)).status).to.equal(201);
      const rotate = (json: unknown) => server.send('POST', '/api/token/rotate', { token: user.secret, json });
      // At the limit, a token may still be replaced: the one it replaces is ending.
      const first = await rotate({ graceSeconds: 60 });
      expect(first.status).to.equal(201);
      const { token: replacement } = (await first.json()) as { token: string };
      // But the one replaced counts while its grace lasts: rotating again would hold one more.
      const refused = await expectError(
        await server.send('POST', '/api/token/rotate', { token: replacement, json: { graceSeconds: 60 } }),
        409,
        26,
      );
      expect(refused.details).to.include(`at most ${LIMIT}`);
      await expectError(await create(replacement), 409, 26);
      // Once the first grace is over, the token it replaced is no longer live (though stored, refused).
      clock.advance(61_000);
      expect((await server.send('POST', '/api/token/rotate', { token: replacement, json: {} })).status).to.equal(201);
    });

    it('applies to a password login', async () => {
      const user = expectRight(
        await server.app.useCases.usersAndTokens.createUser.execute({
          actor: OPERATOR,
          username: `capped${backend.name.toLowerCase()}`,
          password: PASSWORD,
          permissions: ['Cryptography::*'],
        }),
      );
      const login = () =>
        server.send('POST', '/api/token/create', {
          headers: { authorization: basic(user.username, PASSWORD) },
          json: {},
        });
      for (let i = 0; i < LIMIT; i += 1) expect((await login()).status).to.equal(201);
      const refused = await expectError(await login(), 409, 26);
      expect(refused.details).to.include(`at most ${LIMIT}`);
    });

    it('lets only as many concurrent requests through as there are places left', async () => {
      const user = await server.userWithToken(['Tokens::Create', 'Cryptography::*']);
      const statuses = await Promise.all(Array.from({ length: 12 }, async () => (await create(user.secret)).status));
      expect(statuses.filter((status) => status === 201)).to.have.length(LIMIT - 1);
      expect(statuses.filter((status) => status === 409)).to.have.length(12 - (LIMIT - 1));
      expect(await listOf(user.secret)).to.have.length(LIMIT);
    });
  });
}
