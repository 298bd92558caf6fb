import { expect } from 'chai';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { sqlDatabases } from '../support/databases.js';
import { expectRight } from '../support/either.js';
import {
  expectError,
  httpBackends,
  serverForSuite,
  type TestServer,
  twoInstancesForSuite,
} from '../support/http-server.js';

interface Created {
  token: string;
  id: string;
  issuedBy: { uid: string; username: string } | null;
}
interface Info {
  id: string;
  issuedBy: { uid: string; username: string } | null;
}

const ENC = '/api/crypto/enc?data=x';
/** Answers 400 (x is no ciphertext) once Cryptography::Decrypt is granted, 403/1 when it is not. */
const DEC = '/api/crypto/dec?data=x';
const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });
/** Whoever lends on: may issue tokens for others, and holds what they lend. */
const LENDER = ['Tokens::Create', 'Users::Read', 'Cryptography::*'];
/** Long enough that only an announcement, never the entry lapsing, can explain a refusal in these tests. */
const CACHE_TTL_MS = 60_000;

/** Issues a token with `secret` for the user `uid`. */
async function lend(server: TestServer, secret: string, uid: string): Promise<Created> {
  const response = await server.send('POST', '/api/token/create', { token: secret, json: { firebaseuid: uid } });
  expect(response.status, await response.clone().text()).to.equal(201);
  return (await response.json()) as Created;
}

/**
 * A chain of three links: an administrator A issues T1 for L, L acting through T1 issues T2 for
 * M, M acting through T2 issues T3 for N. Every token has been used once, so each is cached.
 */
async function chainOfThree(server: TestServer) {
  const a = await server.userWithToken(['*']);
  const l = await server.userWithToken(LENDER);
  const m = await server.userWithToken(LENDER);
  const n = await server.userWithToken(['Cryptography::*']);
  const t1 = await lend(server, a.secret, l.uid);
  const t2 = await lend(server, t1.token, m.uid);
  const t3 = await lend(server, t2.token, n.uid);
  for (const token of [t1, t2, t3]) expect((await server.get(DEC, bearer(token.token))).status).to.equal(400);
  return { a, l, m, n, t1, t2, t3 };
}

type Answer = [number, number | undefined];
const OK: Answer = [200, undefined];

/** The status and, for a refusal, the code each secret gets on `path` (400 means allowed, for DEC). */
async function answers(server: TestServer, path: string, ...secrets: string[]): Promise<Answer[]> {
  return Promise.all(
    secrets.map(async (secret): Promise<Answer> => {
      const response = await server.get(path, bearer(secret));
      if (response.status <= 400) return [response.status, undefined];
      return [response.status, ((await response.json()) as { code: number }).code];
    }),
  );
}

for (const backend of httpBackends) {
  describe(`http: a token keeps every link of the chain that issued it (${backend.name})`, () => {
    const suite = serverForSuite(backend, { overrides: { auth: { verifiedTokenTtlMs: CACHE_TTL_MS } } });
    let server: TestServer;
    let admin: string;
    before(async () => {
      server = suite.server;
      admin = await server.tokenFor(['*']);
    });

    it('names the user whose token minted each link as its issuer: A for L, L for M, M for N', async () => {
      const { a, l, m, n, t1, t2, t3 } = await chainOfThree(server);
      expect([t1.issuedBy, t2.issuedBy, t3.issuedBy]).to.deep.equal([
        { uid: a.uid, username: a.username },
        { uid: l.uid, username: l.username },
        { uid: m.uid, username: m.username },
      ]);
      const info = (await (
        await server.send('GET', `/api/token/info?id=${t3.id}`, { token: n.secret })
      ).json()) as Info;
      expect(info.issuedBy).to.deep.equal({ uid: m.uid, username: m.username });
    });

    it('grants the end of the chain only what every link holds: a middle link demoted is 403/1 down the chain at once', async () => {
      const { a, l, m, t1, t2, t3 } = await chainOfThree(server);
      const demote = (uid: string, perms: string[]) =>
        server.send('PATCH', '/api/user/update', { token: a.secret, headers: { 'x-uid': uid }, json: { perms } });
      for (const middle of [l, m]) {
        expect((await demote(middle.uid, ['Tokens::Create', 'Users::Read', 'Cryptography::Encrypt'])).status).to.equal(
          200,
        );
        const refused = await expectError(await server.get(DEC, bearer(t3.token)), 403, 1);
        expect(refused.details).to.include('Cryptography::Decrypt');
        expect((await server.get(ENC, bearer(t3.token))).status).to.equal(200);
        expect((await demote(middle.uid, LENDER)).status).to.equal(200);
        expect((await server.get(DEC, bearer(t3.token))).status).to.equal(400);
      }
      // M, demoted, narrows its own T2 and N's T3; L's T1, above it, keeps what it had.
      expect((await demote(m.uid, ['Tokens::Create', 'Users::Read'])).status).to.equal(200);
      expect(await answers(server, ENC, t1.token, t2.token, t3.token)).to.deep.equal([OK, [403, 1], [403, 1]]);
    });

    it('answers 403/5 while any link above is blocked; the blocked user’s own token is 403/2', async () => {
      const { l, m, t1, t2, t3 } = await chainOfThree(server);
      const updateUser = server.app.useCases.usersAndTokens.updateUser;
      expectRight(await updateUser.execute(OPERATOR, { uid: l.uid }, { blocked: true }));
      expect(await answers(server, ENC, t1.token, t2.token, t3.token)).to.deep.equal([
        [403, 2],
        [403, 5],
        [403, 5],
      ]);
      expectRight(await updateUser.execute(OPERATOR, { uid: l.uid }, { blocked: false }));
      expectRight(await updateUser.execute(OPERATOR, { uid: m.uid }, { blocked: true }));
      expect(await answers(server, ENC, t1.token, t2.token, t3.token)).to.deep.equal([OK, [403, 2], [403, 5]]);
      expectRight(await updateUser.execute(OPERATOR, { uid: m.uid }, { blocked: false }));
      expect(await answers(server, ENC, t1.token, t2.token, t3.token)).to.deep.equal([OK, OK, OK]);
    });

    it('deletes with a deleted link everything below it: 401/4 all the way down, and gone from the store', async () => {
      const { l, m, n, t1, t2, t3 } = await chainOfThree(server);
      expect(
        (await server.send('DELETE', '/api/user/delete', { token: admin, headers: { 'x-uid': l.uid } })).status,
      ).to.equal(200);
      expect(await answers(server, ENC, t1.token, t2.token, t3.token)).to.deep.equal([
        [401, 4],
        [401, 4],
        [401, 4],
      ]);
      // M and N keep their own tokens, and only them.
      expect(await answers(server, ENC, m.secret, n.secret)).to.deep.equal([OK, OK]);
      for (const [owner, gone] of [
        [m, t2],
        [n, t3],
      ] as const) {
        const list = (await (await server.send('GET', '/api/token/list', { token: owner.secret })).json()) as Info[];
        expect(list.map((token) => token.id)).not.to.include(gone.id);
        expect(list).to.have.length(1);
      }
    });

    it('deletes with the root administrator the whole chain', async () => {
      const { a, t1, t2, t3 } = await chainOfThree(server);
      expect(
        (await server.send('DELETE', '/api/user/delete', { token: admin, headers: { 'x-uid': a.uid } })).status,
      ).to.equal(200);
      expect(await answers(server, ENC, t1.token, t2.token, t3.token)).to.deep.equal([
        [401, 4],
        [401, 4],
        [401, 4],
      ]);
    });

    it('stops what was minted through a revoked token: 401/4 below it, the links above untouched', async () => {
      const { m, n, t1, t2, t3 } = await chainOfThree(server);
      // M revokes T2, its own token though L issued it: N's T3 hangs on it.
      expect((await server.send('DELETE', `/api/token/delete?id=${t2.id}`, { token: m.secret })).status).to.equal(200);
      expect(await answers(server, ENC, t1.token, t2.token, t3.token)).to.deep.equal([OK, [401, 4], [401, 4]]);
      const list = (await (await server.send('GET', '/api/token/list', { token: n.secret })).json()) as Info[];
      expect(list.map((token) => token.id)).not.to.include(t3.id);
    });

    it('stops the whole chain when the administrator’s own token that minted its first link is revoked', async () => {
      const { a, t1, t2, t3 } = await chainOfThree(server);
      const adminOwn = (await (await server.send('GET', '/api/token/info', { token: a.secret })).json()) as Info;
      expect((await server.send('DELETE', `/api/token/delete?id=${adminOwn.id}`, { token: admin })).status).to.equal(
        200,
      );
      expect(await answers(server, ENC, t1.token, t2.token, t3.token)).to.deep.equal([
        [401, 4],
        [401, 4],
        [401, 4],
      ]);
    });

    it('answers 403/5 below a disabled minting token, and serves again once it is enabled', async () => {
      const { a, t1, t2, t3 } = await chainOfThree(server);
      const setDisabled = async (id: string, disabled: boolean) =>
        expect(
          (await server.send('PATCH', `/api/token/update?id=${id}`, { token: admin, json: { disabled } })).status,
        ).to.equal(200);
      await setDisabled(t1.id, true);
      expect(await answers(server, ENC, t1.token, t2.token, t3.token)).to.deep.equal([
        [403, 5],
        [403, 5],
        [403, 5],
      ]);
      await setDisabled(t1.id, false);
      expect(await answers(server, ENC, t1.token, t2.token, t3.token)).to.deep.equal([OK, OK, OK]);
      const adminOwn = (await (await server.send('GET', '/api/token/info', { token: a.secret })).json()) as Info;
      await setDisabled(adminOwn.id, true);
      expect(await answers(server, ENC, t1.token, t2.token, t3.token)).to.deep.equal([
        [403, 5],
        [403, 5],
        [403, 5],
      ]);
      await setDisabled(adminOwn.id, false);
      expect(await answers(server, ENC, t1.token, t2.token, t3.token)).to.deep.equal([OK, OK, OK]);
    });

    it('lets a token minted by its owner through a lent token live only as long as that one; an owner’s own stay independent', async () => {
      const { l, t1 } = await chainOfThree(server);
      const throughLent = await lend(server, t1.token, l.uid);
      expect(throughLent.issuedBy).to.deep.equal({ uid: l.uid, username: l.username });
      const own = (await (
        await server.send('POST', '/api/token/create', { token: l.secret, json: {} })
      ).json()) as Created;
      expect(own.issuedBy).to.equal(null);
      expect((await server.send('DELETE', `/api/token/delete?id=${t1.id}`, { token: l.secret })).status).to.equal(200);
      expect(await answers(server, ENC, throughLent.token, own.token)).to.deep.equal([[401, 4], OK]);
      const lOwn = (await (await server.send('GET', '/api/token/info', { token: l.secret })).json()) as Info;
      expect((await server.send('DELETE', `/api/token/delete?id=${lOwn.id}`, { token: own.token })).status).to.equal(
        200,
      );
      expect(await answers(server, ENC, own.token)).to.deep.equal([OK]);
    });
  });
}

for (const database of sqlDatabases) {
  describe(`http: a change to any link reaches another instance’s cached tokens down the chain (${database.name})`, () => {
    // A token cache longer than the test: only the access-change announcement tells the other instance.
    const instances = twoInstancesForSuite(database, { verifiedTokenTtlMs: CACHE_TTL_MS });

    /** Asks `other` until the secret gets the answer, well within the cache TTL: only the announcement can change it. */
    const eventually = async (secret: string, expected: Answer) => {
      const deadline = Date.now() + 10_000;
      let [last] = await answers(instances.other, ENC, secret);
      while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        [last] = await answers(instances.other, ENC, secret);
      }
      expect(last).to.deep.equal(expected);
    };

    it('refuses T3 on the other instance once L is blocked, T1 disabled, L demoted, or T1 revoked on this one', async () => {
      const { a, l, t1, t3 } = await chainOfThree(instances.one);
      expect(await answers(instances.other, ENC, t3.token)).to.deep.equal([OK]);
      const updateUser = instances.one.app.useCases.usersAndTokens.updateUser;

      expectRight(await updateUser.execute(OPERATOR, { uid: l.uid }, { blocked: true }));
      await eventually(t3.token, [403, 5]);
      expectRight(await updateUser.execute(OPERATOR, { uid: l.uid }, { blocked: false }));
      await eventually(t3.token, OK);

      const setDisabled = (disabled: boolean) =>
        instances.one.send('PATCH', `/api/token/update?id=${t1.id}`, { token: a.secret, json: { disabled } });
      expect((await setDisabled(true)).status).to.equal(200);
      await eventually(t3.token, [403, 5]);
      expect((await setDisabled(false)).status).to.equal(200);
      await eventually(t3.token, OK);

      const demote = (perms: string[]) =>
        instances.one.send('PATCH', '/api/user/update', {
          token: a.secret,
          headers: { 'x-uid': l.uid },
          json: { perms },
        });
      expect((await demote(['Tokens::Create', 'Users::Read', 'Cryptography::Decrypt'])).status).to.equal(200);
      await eventually(t3.token, [403, 1]);
      expect((await demote(LENDER)).status).to.equal(200);
      await eventually(t3.token, OK);

      expect(
        (await instances.one.send('DELETE', `/api/token/delete?id=${t1.id}`, { token: a.secret })).status,
      ).to.equal(200);
      await eventually(t3.token, [401, 4]);
    });
  });
}
