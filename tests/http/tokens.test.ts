import { expect } from 'chai';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { freshSqlite } from '../support/databases.js';
import { expectRight } from '../support/either.js';
import { expectError, httpBackends, serverForSuite, startServer, type TestServer } from '../support/http-server.js';
import { SteppedClock } from '../support/manual-clock.js';
import type { CreatedToken } from '../support/token-answers.js';

interface Info {
  id: string;
  prefix: string;
  license: string;
  username: string;
  associatedFirebaseUID: string;
  permissions: string[];
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  uses: number;
  disabled: boolean;
  issuedBy: { uid: string; username: string } | null;
}

const INFO_KEYS = [
  'id',
  'prefix',
  'license',
  'name',
  'username',
  'associatedFirebaseUID',
  'permissions',
  'createdAt',
  'lastUsedAt',
  'expiresAt',
  'uses',
  'disabled',
  'issuedBy',
  'rateLimit',
  'quota',
  'origin',
  'allowedAddresses',
  'rotatedTo',
  'rotationEndsAt',
  'rotatedFrom',
];

for (const backend of httpBackends) {
  describe(`http: tokens (${backend.name})`, () => {
    // The system's time, which a test moves forward instead of waiting for it to pass.
    const clock = new SteppedClock();
    const suite = serverForSuite(backend, { clock });
    let server: TestServer;
    before(async () => {
      server = suite.server;
    });

    const createToken = async (token: string, json: unknown) => {
      const response = await server.send('POST', '/api/token/create', { token, json });
      expect(response.status, await response.clone().text()).to.equal(201);
      return (await response.json()) as CreatedToken;
    };

    it('issues a token for yourself: 201 with the secret once, narrowed and expiring as asked', async () => {
      const me = await server.userWithToken(['Tokens::Create', 'Cryptography::*']);
      const created = await createToken(me.secret, {
        permissions: ['Cryptography::Encrypt'],
        expiresIn: '30d',
        name: 'ci',
      });
      expect(Object.keys(created).sort()).to.deep.equal(
        [
          'allowedAddresses',
          'expiresAt',
          'firebaseuid',
          'id',
          'issuedBy',
          'license',
          'permissions',
          'prefix',
          'rateLimit',
          'quota',
          'token',
          'username',
        ].sort(),
      );
      expect(created).to.include({ username: me.username, firebaseuid: me.uid, issuedBy: null });
      expect(created.token).to.match(/^uapi_[0-9A-Za-z]{49}$/);
      expect(created.token.startsWith(created.prefix)).to.equal(true);
      expect(created.license).to.match(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/);
      expect(created.permissions).to.deep.equal(['Cryptography::Encrypt']);
      expect(Math.abs(Date.parse(created.expiresAt!) - Date.now() - 30 * 86_400_000)).to.be.below(60_000);
      expect(
        (await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${created.token}` })).status,
      ).to.equal(200);
      await expectError(
        await server.get('/api/crypto/dec?data=x', { Authorization: `Bearer ${created.token}` }),
        403,
        1,
      );

      const info = (await (
        await server.send('GET', `/api/token/info?id=${created.id}`, { token: me.secret })
      ).json()) as Info;
      expect(Object.keys(info).sort()).to.deep.equal([...INFO_KEYS].sort());
      expect(info.issuedBy).to.equal(null);
      expect(JSON.stringify(info)).not.to.include(created.token.slice(created.prefix.length));
    });

    it('takes a lifetime in seconds too, and never lets a token outlive the token that issued it', async () => {
      const me = await server.userWithToken(['Tokens::Create', 'Cryptography::Encrypt'], { expiresInMs: 3_600_000 });
      const inSeconds = await createToken(me.secret, { expiresIn: 1_800 });
      expect(Math.abs(Date.parse(inSeconds.expiresAt!) - Date.now() - 1_800_000)).to.be.below(60_000);
      const unbounded = await createToken(me.secret, {});
      expect(Date.parse(unbounded.expiresAt!) - Date.now()).to.be.at.most(3_600_000);
      const longer = await createToken(me.secret, { expiresIn: '30d' });
      expect(Date.parse(longer.expiresAt!) - Date.now()).to.be.at.most(3_600_000);
    });

    it('narrows an owner’s wildcard to what the caller holds when no permissions are asked for', async () => {
      const me = await server.userWithToken(['*'], { scopes: ['Tokens::Create', 'Cryptography::Encrypt'] });
      const created = await createToken(me.secret, {});
      expect(created.permissions).to.deep.equal(['Cryptography::Encrypt', 'Tokens::Create']);
    });

    it('needs Tokens::Create, and never gives a token more than its creator or its owner holds', async () => {
      const without = await server.tokenFor(['Cryptography::*']);
      await expectError(await server.send('POST', '/api/token/create', { token: without, json: {} }), 403, 1);
      const me = await server.userWithToken(['Tokens::Create', 'Cryptography::Encrypt']);
      const before = await server.snapshot();
      for (const permissions of [
        ['Cryptography::*'],
        ['*'],
        ['Cryptography::Decrypt'],
        ['Tokens::Create', 'Users::Read'],
      ]) {
        await expectError(
          await server.send('POST', '/api/token/create', { token: me.secret, json: { permissions } }),
          403,
          1,
        );
      }
      await expectError(
        await server.send('POST', '/api/token/create', { token: me.secret, json: { permissions: ['Bogus::Thing'] } }),
        400,
        11,
      );
      await expectError(
        await server.send('POST', '/api/token/create', { token: me.secret, json: { expiresIn: 'soon' } }),
        400,
        11,
      );
      await expectError(
        await server.send('POST', '/api/token/create', { token: me.secret, json: { extra: 1 } }),
        400,
        11,
      );
      expect(await server.snapshot()).to.deep.equal(before);
    });

    it('issues for another user only with Users::Read as well, within what the owner holds, and only to an owner it outranks', async () => {
      const other = await server.userWithToken(['Cryptography::Encrypt']);
      const creatorOnly = await server.tokenFor(['Tokens::Create', 'Cryptography::*']);
      await expectError(
        await server.send('POST', '/api/token/create', { token: creatorOnly, json: { firebaseuid: other.uid } }),
        403,
        1,
      );
      const admin = await server.tokenFor(['Tokens::Create', 'Users::Read', 'Cryptography::*']);
      const created = await createToken(admin, { firebaseuid: other.uid });
      expect(created.firebaseuid).to.equal(other.uid);
      expect(created.permissions).to.deep.equal(['Cryptography::Encrypt']);
      const empty = await createToken(admin, { firebaseuid: other.uid, permissions: [] });
      expect(empty.permissions).to.deep.equal([]);
      const wider = await server.userWithToken(['Cryptography::*', 'Phone::Details']);
      const narrower = await server.tokenFor([
        'Tokens::Create',
        'Users::Read',
        'Cryptography::Encrypt',
        'Cryptography::Decrypt',
        'Phone::Details',
      ]);
      const root = await server.userWithToken(['*']);
      const before = await server.snapshot();
      await expectError(
        await server.send('POST', '/api/token/create', {
          token: admin,
          json: { firebaseuid: other.uid, permissions: ['Cryptography::Decrypt'] },
        }),
        403,
        1,
      );
      await expectError(
        await server.send('POST', '/api/token/create', { token: admin, json: { firebaseuid: 'no-such-user' } }),
        404,
        14,
      );
      // An owner holding a wildcard, or anything else the caller lacks, is out of reach.
      const refused = await expectError(
        await server.send('POST', '/api/token/create', {
          token: narrower,
          json: { firebaseuid: wider.uid, permissions: ['Phone::Details'] },
        }),
        403,
        1,
      );
      expect(refused.details).to.equal('Missing permission Cryptography::*');
      const refusedRoot = await expectError(
        await server.send('POST', '/api/token/create', {
          token: admin,
          json: { firebaseuid: root.uid, permissions: [] },
        }),
        403,
        1,
      );
      expect(refusedRoot.details).to.equal('Missing permission *');
      expect(await server.snapshot()).to.deep.equal(before);
    });

    it('takes the owner from x-uid as from firebaseuid, refusing the two naming different users', async () => {
      const other = await server.userWithToken(['Cryptography::Encrypt']);
      const admin = await server.tokenFor(['Tokens::Create', 'Users::Read', 'Cryptography::*']);
      const byHeader = await server.send('POST', '/api/token/create', {
        token: admin,
        headers: { 'x-uid': other.uid },
        json: {},
      });
      expect(byHeader.status).to.equal(201);
      expect(((await byHeader.json()) as CreatedToken).firebaseuid).to.equal(other.uid);
      const both = await server.send('POST', '/api/token/create', {
        token: admin,
        headers: { 'x-uid': other.uid },
        json: { firebaseuid: other.uid },
      });
      expect(both.status).to.equal(201);
      expect(((await both.json()) as CreatedToken).firebaseuid).to.equal(other.uid);

      const adminUser = await server.userWithToken(['Tokens::Create', 'Cryptography::*']);
      const before = await server.snapshot();
      const differ = await expectError(
        await server.send('POST', '/api/token/create', {
          token: admin,
          headers: { 'x-uid': other.uid },
          json: { firebaseuid: adminUser.uid },
        }),
        400,
        9,
      );
      expect(differ.details).to.equal('x-uid and firebaseuid name different users');
      // Without Users::Read, x-uid naming someone else is refused, never read as "yourself".
      await expectError(
        await server.send('POST', '/api/token/create', {
          token: adminUser.secret,
          headers: { 'x-uid': other.uid },
          json: {},
        }),
        403,
        1,
      );
      await expectError(
        await server.send('POST', '/api/token/create', { token: admin, headers: { 'x-uid': 'bad uid!' }, json: {} }),
        400,
        9,
      );
      expect(await server.snapshot()).to.deep.equal(before);
    });

    it('refuses x-uid with 400/9 where no user is named by uid: token/info and token/delete', async () => {
      const me = await server.userWithToken(['Tokens::Read', 'Tokens::Delete']);
      const mine = (await (await server.send('GET', '/api/token/info', { token: me.secret })).json()) as Info;
      const before = await server.snapshot();
      for (const [method, path] of [
        ['GET', '/api/token/info'],
        ['GET', `/api/token/info?id=${mine.id}`],
        ['DELETE', `/api/token/delete?id=${mine.id}`],
      ] as const) {
        const body = await expectError(
          await server.send(method, path, { token: me.secret, headers: { 'x-uid': me.uid } }),
          400,
          9,
        );
        expect(body.details).to.include('x-uid');
      }
      expect(await server.snapshot()).to.deep.equal(before);
    });

    it('shows the calling token by default, counts its uses, and hides other users’ tokens without Tokens::Read', async () => {
      const me = await server.userWithToken(['Cryptography::Encrypt']);
      for (let i = 0; i < 3; i++) await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${me.secret}` });
      const info = (await (await server.send('GET', '/api/token/info', { token: me.secret })).json()) as Info;
      expect(info).to.include({ username: me.username, associatedFirebaseUID: me.uid, disabled: false });
      expect(info.uses).to.equal(4);
      expect(Date.parse(info.lastUsedAt!)).to.be.closeTo(Date.now(), 60_000);

      const stranger = await server.userWithToken([]);
      const theirs = (await (await server.send('GET', '/api/token/info', { token: stranger.secret })).json()) as Info;
      // Someone else's token is answered as an unknown one: the same status, code and body.
      const hidden = await server.send('GET', `/api/token/info?id=${theirs.id}`, { token: me.secret });
      const unknownId = '00000000-0000-4000-8000-000000000000';
      const unknown = await server.send('GET', `/api/token/info?id=${unknownId}`, { token: me.secret });
      const hiddenBody = await expectError(hidden, 404, 18);
      const unknownBody = await expectError(unknown, 404, 18);
      expect(hiddenBody).to.deep.equal({ ...unknownBody, details: unknownBody.details!.replace(unknownId, theirs.id) });
      const reader = await server.tokenFor(['Tokens::Read']);
      expect((await server.send('GET', `/api/token/info?id=${theirs.id}`, { token: reader })).status).to.equal(200);
      await expectError(
        await server.send('GET', '/api/token/info?id=00000000-0000-4000-8000-000000000000', { token: reader }),
        404,
        18,
      );
      await expectError(await server.send('GET', '/api/token/info?id=not-an-id', { token: reader }), 400, 7);
    });

    it("lists a user's tokens newest first; other users' need Tokens::Read", async () => {
      const me = await server.userWithToken(['Tokens::Create', 'Cryptography::Encrypt']);
      const second = await createToken(me.secret, {});
      clock.advance(1_000);
      const third = await createToken(me.secret, {});
      const list = (await (await server.send('GET', '/api/token/list', { token: me.secret })).json()) as Info[];
      expect(list).to.have.length(3);
      expect(list.map((t) => t.id)).to.include.members([second.id, third.id]);
      // Newest first, ties by id, judged on the times the server wrote: this VM's wall clock can be
      // stepped back between two requests, so the order of asking does not fix the order of times.
      const newestFirst = [...list].sort(
        (a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
      );
      expect(list.map((t) => t.id)).to.deep.equal(newestFirst.map((t) => t.id));
      const stranger = await server.tokenFor([]);
      await expectError(
        await server.send('GET', '/api/token/list', { token: stranger, headers: { 'x-uid': me.uid } }),
        403,
        1,
      );
      const reader = await server.tokenFor(['Tokens::Read']);
      expect(
        (
          (await (
            await server.send('GET', '/api/token/list', { token: reader, headers: { 'x-uid': me.uid } })
          ).json()) as Info[]
        ).length,
      ).to.equal(3);
    });

    describe('a token issued for someone else lives by its issuer', () => {
      const ENC = '/api/crypto/enc?data=x';
      const DEC = '/api/crypto/dec?data=x';
      const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });
      let admin: string;
      before(async () => {
        admin = await server.tokenFor(['*']);
      });

      /** An issuer holding more than the owner, a token it issued for the owner, and the owner's own token. */
      const lending = async () => {
        const issuer = await server.userWithToken(['Tokens::Create', 'Users::Read', 'Cryptography::*']);
        const owner = await server.userWithToken(['Cryptography::*']);
        const lent = await createToken(issuer.secret, { firebaseuid: owner.uid });
        return { issuer, owner, lent };
      };

      it('shows its issuer in the answer, in token/info and in token/list; the owner’s own tokens show null', async () => {
        const { issuer, owner, lent } = await lending();
        const byIssuer = { uid: issuer.uid, username: issuer.username };
        expect(lent).to.deep.include({ firebaseuid: owner.uid, issuedBy: byIssuer });
        const info = (await (
          await server.send('GET', `/api/token/info?id=${lent.id}`, { token: owner.secret })
        ).json()) as Info;
        expect(info).to.deep.include({ id: lent.id, issuedBy: byIssuer });
        // The lent token sees itself too, though it may read nothing else of its owner's.
        const itself = (await (await server.send('GET', '/api/token/info', { token: lent.token })).json()) as Info;
        expect(itself).to.deep.include({ id: lent.id, issuedBy: byIssuer, associatedFirebaseUID: owner.uid });
        const list = (await (await server.send('GET', '/api/token/list', { token: owner.secret })).json()) as Info[];
        expect(list.map((t) => [t.id === lent.id, t.issuedBy])).to.have.deep.members([
          [true, byIssuer],
          [false, null],
        ]);
        // The owner sees it and may revoke it.
        expect(
          (await server.send('DELETE', `/api/token/delete?id=${lent.id}`, { token: owner.secret })).status,
        ).to.equal(200);
        await expectError(await server.get(ENC, bearer(lent.token)), 401, 4);
      });

      it('loses a permission its issuer loses, and gets it back with the issuer', async () => {
        const { issuer, lent } = await lending();
        expect((await server.get(DEC, bearer(lent.token))).status).to.equal(400);
        const demote = (perms: string[]) =>
          server.send('PATCH', '/api/user/update', { token: admin, headers: { 'x-uid': issuer.uid }, json: { perms } });
        expect((await demote(['Tokens::Create', 'Users::Read', 'Cryptography::Encrypt'])).status).to.equal(200);
        const body = await expectError(await server.get(DEC, bearer(lent.token)), 403, 1);
        expect(body.details).to.include('Cryptography::Decrypt');
        expect((await server.get(ENC, bearer(lent.token))).status).to.equal(200);
        expect((await demote(['Tokens::Create', 'Users::Read', 'Cryptography::*'])).status).to.equal(200);
        expect((await server.get(DEC, bearer(lent.token))).status).to.equal(400);
      });

      it('answers 403/5 while its issuer is blocked; the owner’s own token is untouched', async () => {
        const { issuer, owner, lent } = await lending();
        expect((await server.get(ENC, bearer(lent.token))).status).to.equal(200);
        const updateUser = server.app.useCases.usersAndTokens.updateUser;
        expectRight(await updateUser.execute(OPERATOR, { uid: issuer.uid }, { blocked: true }));
        await expectError(await server.get(ENC, bearer(lent.token)), 403, 5);
        await expectError(await server.send('GET', '/api/token/list', { token: lent.token }), 403, 5);
        expect((await server.get(ENC, bearer(owner.secret))).status).to.equal(200);
        expectRight(await updateUser.execute(OPERATOR, { uid: issuer.uid }, { blocked: false }));
        expect((await server.get(ENC, bearer(lent.token))).status).to.equal(200);
      });

      it('is deleted with its issuer: 401/4 on its next request, and gone from the store', async () => {
        const { issuer, owner, lent } = await lending();
        expect((await server.get(ENC, bearer(lent.token))).status).to.equal(200);
        expect(
          (await server.send('DELETE', '/api/user/delete', { token: admin, headers: { 'x-uid': issuer.uid } })).status,
        ).to.equal(200);
        await expectError(await server.get(ENC, bearer(lent.token)), 401, 4);
        const list = (await (await server.send('GET', '/api/token/list', { token: owner.secret })).json()) as Info[];
        expect(list.map((t) => t.id)).not.to.include(lent.id);
        expect(list).to.have.length(1);
        expect((await server.get(ENC, bearer(owner.secret))).status).to.equal(200);
      });
    });

    it('deletes a token: it answers 401/4 on its very next use; others’ tokens need Tokens::Delete', async () => {
      const me = await server.userWithToken(['Tokens::Create', 'Cryptography::Encrypt']);
      const spare = await createToken(me.secret, {});
      expect((await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${spare.token}` })).status).to.equal(
        200,
      );
      const stranger = await server.tokenFor([]);
      const before = await server.snapshot();
      const hidden = await expectError(
        await server.send('DELETE', `/api/token/delete?id=${spare.id}`, { token: stranger }),
        404,
        18,
      );
      const unknownId = '00000000-0000-4000-8000-000000000000';
      const unknown = await expectError(
        await server.send('DELETE', `/api/token/delete?id=${unknownId}`, { token: stranger }),
        404,
        18,
      );
      expect(hidden).to.deep.equal({ ...unknown, details: unknown.details!.replace(unknownId, spare.id) });
      expect(await server.snapshot()).to.deep.equal(before);
      const response = await server.send('DELETE', `/api/token/delete?id=${spare.id}`, { token: me.secret });
      expect(response.status).to.equal(200);
      expect(await response.json()).to.deep.equal({ deleted: true, id: spare.id });
      await expectError(await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${spare.token}` }), 401, 4);
      await expectError(await server.send('DELETE', `/api/token/delete?id=${spare.id}`, { token: me.secret }), 404, 18);
      await expectError(await server.send('DELETE', '/api/token/delete', { token: me.secret }), 400, 6);
      const deleter = await server.tokenFor(['Tokens::Delete']);
      const mine = (await (await server.send('GET', '/api/token/info', { token: me.secret })).json()) as Info;
      expect((await server.send('DELETE', `/api/token/delete?id=${mine.id}`, { token: deleter })).status).to.equal(200);
      await expectError(await server.send('GET', '/api/token/info', { token: me.secret }), 401, 4);
    });
  });
}

for (const backend of httpBackends) {
  describe(`http: disabling and enabling a token (${backend.name})`, () => {
    const suite = serverForSuite(backend);
    const enc = (server: TestServer, token: string) =>
      server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${token}` });

    it('disables your own token: 403/5 from its next use; enabling it again serves it; the answer is the token as token/info shows it', async () => {
      const server = suite.server;
      const me = await server.userWithToken(['Cryptography::Encrypt']);
      const admin = await server.tokenFor(['Tokens::Update', 'Tokens::Read']);
      const mine = (await (await server.send('GET', '/api/token/info', { token: me.secret })).json()) as Info;
      expect((await enc(server, me.secret)).status).to.equal(200);

      const disabled = await server.send('PATCH', '/api/token/update', {
        token: me.secret,
        json: { disabled: true, name: 'laptop' },
      });
      expect(disabled.status).to.equal(200);
      const view = (await disabled.json()) as Info & { name: string };
      expect(Object.keys(view)).to.deep.equal(INFO_KEYS);
      expect(view).to.deep.include({ id: mine.id, disabled: true, name: 'laptop' });
      await expectError(await enc(server, me.secret), 403, 5);

      const enabled = await server.send('PATCH', `/api/token/update?id=${mine.id}`, {
        token: admin,
        json: { disabled: false },
      });
      expect(enabled.status).to.equal(200);
      expect(await enabled.json()).to.deep.include({ id: mine.id, disabled: false, name: 'laptop' });
      expect((await enc(server, me.secret)).status).to.equal(200);
    });

    it("needs Tokens::Update for somebody else's token, answering 404/18 as for an unknown id; refuses bad changes with 400; changes nothing then", async () => {
      const server = suite.server;
      const owner = await server.userWithToken(['Cryptography::Encrypt']);
      const mine = (await (await server.send('GET', '/api/token/info', { token: owner.secret })).json()) as Info;
      const stranger = await server.tokenFor(['Tokens::Read']);
      const before = await server.snapshot();
      await expectError(
        await server.send('PATCH', `/api/token/update?id=${mine.id}`, { token: stranger, json: { disabled: true } }),
        404,
        18,
      );
      await expectError(
        await server.send('PATCH', '/api/token/update?id=00000000-0000-4000-8000-000000000000', {
          token: stranger,
          json: { disabled: true },
        }),
        404,
        18,
      );
      await expectError(await server.send('PATCH', '/api/token/update', { token: owner.secret, json: {} }), 400, 10);
      await expectError(
        await server.send('PATCH', '/api/token/update', { token: owner.secret, json: { disabled: 'true' } }),
        400,
        11,
      );
      await expectError(
        await server.send('PATCH', '/api/token/update', { token: owner.secret, json: { name: 'x'.repeat(101) } }),
        400,
        11,
      );
      await expectError(
        await server.send('PATCH', '/api/token/update', { token: owner.secret, json: { name: 'tab\there' } }),
        400,
        11,
      );
      await expectError(
        await server.send('PATCH', '/api/token/update?id=not-an-id', { token: owner.secret, json: { disabled: true } }),
        400,
        7,
      );
      expect(await server.snapshot()).to.deep.equal(before);
      expect((await enc(server, owner.secret)).status).to.equal(200);
    });
  });
}

describe('http: token usage counts', () => {
  it('are written in batches and survive a clean shutdown', async () => {
    const database = await freshSqlite();
    let tokenId: string;
    let secret: string;
    const first = await startServer({ env: database.env });
    try {
      secret = await first.tokenFor(['Cryptography::Encrypt']);
      for (let i = 0; i < 5; i++) await first.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${secret}` });
      tokenId = ((await (await first.send('GET', '/api/token/info', { token: secret })).json()) as Info).id;
      const stored = await database.db('tokens').where({ id: tokenId }).first();
      // Not yet written: the requests above cost no database write.
      expect(Number(stored.uses)).to.equal(0);
    } finally {
      await first.close();
    }
    const stored = await database.db('tokens').where({ id: tokenId }).first();
    expect(Number(stored.uses)).to.equal(6);
    const second = await startServer({ env: database.env });
    try {
      const info = (await (await second.send('GET', '/api/token/info', { token: secret })).json()) as Info;
      expect(info.uses).to.equal(7);
    } finally {
      await second.close();
      await database.drop();
    }
  });
});

describe('http: a token issued for someone else is no master key', () => {
  const suite = serverForSuite();

  it('acts on its owner only within its permissions, and cannot mint its owner a token of more than itself', async () => {
    const server = suite.server;
    const admin = await server.userWithToken(['*']);
    const adminToken = (await (await server.send('GET', '/api/token/info', { token: admin.secret })).json()) as Info;
    const lender = await server.tokenFor(['*']);
    const issued = await server.send('POST', '/api/token/create', {
      token: lender,
      json: { firebaseuid: admin.uid, permissions: [] },
    });
    expect(issued.status).to.equal(201);
    const borrowed = ((await issued.json()) as CreatedToken).token;
    const before = await server.snapshot();

    await expectError(await server.send('DELETE', '/api/user/delete', { token: borrowed }), 403, 1);
    await expectError(
      await server.send('PATCH', '/api/user/update', { token: borrowed, json: { email: 'mallory@example.com' } }),
      403,
      1,
    );
    await expectError(await server.send('GET', '/api/token/list', { token: borrowed }), 403, 1);
    await expectError(
      await server.send('DELETE', `/api/token/delete?id=${adminToken.id}`, { token: borrowed }),
      404,
      18,
    );
    await expectError(await server.send('GET', '/api/user/get', { token: borrowed }), 403, 1);

    // Lent Tokens::Create and Users::Read, it still acts on its `*` owner as on anyone it does not outrank.
    const lent = (
      (await (
        await server.send('POST', '/api/token/create', {
          token: lender,
          json: { firebaseuid: admin.uid, permissions: ['Tokens::Create', 'Users::Read'] },
        })
      ).json()) as CreatedToken
    ).token;
    const snapshotWithLent = await server.snapshot();
    const refused = await expectError(
      await server.send('POST', '/api/token/create', { token: lent, json: { permissions: [] } }),
      403,
      1,
    );
    expect(refused.details).to.equal('Missing permission *');
    expect(await server.snapshot()).to.deep.equal(snapshotWithLent);
    expect(before).not.to.deep.equal(snapshotWithLent);
    expect((await server.send('GET', '/api/user/get', { token: admin.secret })).status).to.equal(200);
  });
});
