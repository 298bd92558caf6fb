import { expect } from 'chai';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { sqlDatabases } from '../support/databases.js';
import { expectRight } from '../support/either.js';
import { eventually } from '../support/eventually.js';
import {
  expectError,
  httpBackends,
  serverForSuite,
  type TestServer,
  twoInstancesForSuite,
} from '../support/http-server.js';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'another horse, stapled';
const ENC = '/api/crypto/enc?data=hello';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

let userSequence = 0;

/** A user with a password, and a token of each origin: a password login's, one issued with that token, and the CLI's. */
async function userWithEveryOrigin(server: TestServer) {
  userSequence += 1;
  const username = `session${userSequence}`;
  const { usersAndTokens } = server.app.useCases;
  expectRight(
    await usersAndTokens.createUser.execute({
      actor: OPERATOR,
      username,
      password: PASSWORD,
      permissions: ['Cryptography::*', 'Tokens::Create'],
    }),
  );
  const login = await server.send('POST', '/api/token/create', {
    headers: { authorization: basic(username, PASSWORD) },
  });
  expect(login.status, await login.clone().text()).to.equal(201);
  const session = ((await login.json()) as { token: string }).token;
  const issued = await server.send('POST', '/api/token/create', { token: session, json: {} });
  expect(issued.status).to.equal(201);
  const withToken = ((await issued.json()) as { token: string }).token;
  const { secret: fromCli } = expectRight(
    await usersAndTokens.issueToken.execute({ actor: OPERATOR, owner: { username } }),
  );
  return { username, session, withToken, fromCli };
}

const originOf = async (server: TestServer, secret: string) =>
  ((await (await server.send('GET', '/api/token/info', { token: secret })).json()) as { origin: string }).origin;

const changePassword = (server: TestServer, secret: string, json: unknown) =>
  server.send('PATCH', '/api/user/update', { token: secret, json });

for (const backend of httpBackends) {
  describe(`http: a change of password ends the password's sessions (${backend.name})`, () => {
    const suite = serverForSuite(backend);

    it('says in token/info how each token was issued', async () => {
      const { session, withToken, fromCli } = await userWithEveryOrigin(suite.server);
      expect(await originOf(suite.server, session)).to.equal('password');
      expect(await originOf(suite.server, withToken)).to.equal('token');
      expect(await originOf(suite.server, fromCli)).to.equal('cli');
    });

    it("revokes the user's password-login tokens on a new password, keeping the rest and everybody else's", async () => {
      const server = suite.server;
      const me = await userWithEveryOrigin(server);
      const somebodyElse = await userWithEveryOrigin(server);
      for (const secret of [me.session, me.withToken, me.fromCli])
        expect((await server.get(ENC, bearer(secret))).status).to.equal(200);
      const changed = await changePassword(server, me.withToken, { password: NEW_PASSWORD });
      expect(changed.status, await changed.clone().text()).to.equal(200);
      await expectError(await server.get(ENC, bearer(me.session)), 401, 4);
      expect((await server.get(ENC, bearer(me.withToken))).status).to.equal(200);
      expect((await server.get(ENC, bearer(me.fromCli))).status).to.equal(200);
      expect((await server.get(ENC, bearer(somebodyElse.session))).status).to.equal(200);
      // The new password starts a new session; the old one starts none.
      const again = await server.send('POST', '/api/token/create', {
        headers: { authorization: basic(me.username, NEW_PASSWORD) },
      });
      expect(again.status).to.equal(201);
    });

    it('keeps the sessions when anything but the password changes', async () => {
      const me = await userWithEveryOrigin(suite.server);
      expect((await changePassword(suite.server, me.withToken, { displayname: 'Ada' })).status).to.equal(200);
      expect((await suite.server.get(ENC, bearer(me.session))).status).to.equal(200);
    });

    it('refuses a password it does not take without ending any session', async () => {
      const me = await userWithEveryOrigin(suite.server);
      await expectError(await changePassword(suite.server, me.withToken, { password: 'short' }), 400, 11);
      expect((await suite.server.get(ENC, bearer(me.session))).status).to.equal(200);
    });
  });
}

for (const database of sqlDatabases) {
  describe(`http: a change of password reaches another instance's cached sessions (${database.name})`, () => {
    // A token cache longer than the test: only the access-change announcement tells the other instance.
    const instances = twoInstancesForSuite(database, { verifiedTokenTtlMs: 600_000 });

    it('refuses the session on the other instance once the password changed on this one', async () => {
      const me = await userWithEveryOrigin(instances.one);
      expect((await instances.other.get(ENC, bearer(me.session))).status).to.equal(200);
      expect((await changePassword(instances.one, me.withToken, { password: NEW_PASSWORD })).status).to.equal(200);
      await eventually(async () => expect((await instances.other.get(ENC, bearer(me.session))).status).to.equal(401));
      expect((await instances.other.get(ENC, bearer(me.withToken))).status).to.equal(200);
    });
  });
}
