import { expect } from 'chai';
import { sqlDatabases } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import {
  expectError,
  httpBackends,
  serverForSuite,
  type TestServer,
  twoInstancesForSuite,
} from '../support/http-server.js';

interface UserBody {
  uid: string;
  username: string;
  fullName: string | null;
  email: string | null;
  blocked: boolean;
}

const ENCRYPT = '/api/crypto/enc?data=x';

for (const backend of httpBackends) {
  describe(`http: naming, renaming and blocking users (${backend.name})`, () => {
    const suite = serverForSuite(backend);
    let server: TestServer;
    let admin: string;
    before(async () => {
      server = suite.server;
      admin = await server.tokenFor(['*']);
    });

    let sequence = 0;
    const create = async (fields: Record<string, unknown> = {}) => {
      sequence += 1;
      const response = await server.send('POST', '/api/user/create', {
        token: admin,
        json: {
          firstname: 'Named',
          lastname: `Person${sequence}`,
          email: `named${sequence}.${Date.now()}@Example.com`,
          password: 'correct horse battery',
          ...fields,
        },
      });
      expect(response.status, await response.clone().text()).to.equal(201);
      return (await response.json()) as UserBody;
    };
    const encryptsWith = async (secret: string) =>
      (await server.get(ENCRYPT, { Authorization: `Bearer ${secret}` })).status;

    it('gets, updates and deletes a user named by username or by email (any case) instead of x-uid', async () => {
      const user = await create();
      const byName = await server.send('GET', `/api/user/get?username=${user.username}`, { token: admin });
      expect(((await byName.json()) as UserBody).uid).to.equal(user.uid);
      const byEmail = await server.send('GET', `/api/user/get?email=${encodeURIComponent(user.email!.toUpperCase())}`, {
        token: admin,
      });
      expect(((await byEmail.json()) as UserBody).uid).to.equal(user.uid);
      const updated = await server.send('PATCH', `/api/user/update?email=${encodeURIComponent(user.email!)}`, {
        token: admin,
        json: { displayname: 'By email' },
      });
      expect(updated.status).to.equal(200);
      const deleted = await server.send('DELETE', `/api/user/delete?username=${user.username}`, { token: admin });
      expect(await deleted.json()).to.deep.equal({ deleted: true, uid: user.uid });
      await expectError(await server.send('GET', `/api/user/get?username=${user.username}`, { token: admin }), 404, 14);
      await expectError(
        await server.send('GET', '/api/user/get?email=nobody%40example.com', { token: admin }),
        404,
        14,
      );
    });

    it('lets anyone name themself by username or email, as by their own uid, with no permission', async () => {
      const me = await server.userWithToken([]);
      const email = `me${Date.now()}@example.com`;
      const set = await server.send('PATCH', `/api/user/update?username=${me.username.toUpperCase()}`, {
        token: me.secret,
        json: { email },
      });
      expect(set.status, await set.clone().text()).to.equal(200);
      const byEmail = await server.send('GET', `/api/user/get?email=${encodeURIComponent(email.toUpperCase())}`, {
        token: me.secret,
      });
      expect(((await byEmail.json()) as UserBody).uid).to.equal(me.uid);
      const deleted = await server.send('DELETE', `/api/user/delete?email=${encodeURIComponent(email)}`, {
        token: me.secret,
      });
      expect(await deleted.json()).to.deep.equal({ deleted: true, uid: me.uid });
    });

    it('refuses a user named two ways with 400/7, and others without the permission with 403/1', async () => {
      const user = await create();
      const stranger = await server.tokenFor([]);
      const before = await server.snapshot();
      const twice: [string, string, Record<string, string>][] = [
        ['GET', `/api/user/get?username=${user.username}&email=${encodeURIComponent(user.email!)}`, {}],
        ['GET', `/api/user/get?username=${user.username}`, { 'x-uid': user.uid }],
        ['PATCH', `/api/user/update?email=${encodeURIComponent(user.email!)}`, { 'x-uid': user.uid }],
        ['DELETE', `/api/user/delete?username=${user.username}`, { 'x-uid': user.uid }],
      ];
      for (const [method, path, headers] of twice) {
        const body = await expectError(
          await server.send(method, path, {
            token: admin,
            headers,
            json: method === 'PATCH' ? { email: 'else@example.com' } : undefined,
          }),
          400,
          7,
        );
        expect(body.details).to.equal('name the user by one of x-uid, username or email');
      }
      await expectError(await server.send('GET', '/api/user/get?username=has%20space', { token: admin }), 400, 7);
      await expectError(await server.send('GET', '/api/user/get?email=x', { token: admin }), 400, 7);
      await expectError(
        await server.send('GET', `/api/user/get?username=${user.username}`, { token: stranger }),
        403,
        1,
      );
      expect(await server.snapshot()).to.deep.equal(before);
    });

    it('changes first and last names, and fullName follows', async () => {
      const user = await create({ firstname: 'Ada', lastname: 'Byron' });
      expect(user.fullName).to.equal('Ada Byron');
      const response = await server.send('PATCH', `/api/user/update?username=${user.username}`, {
        token: admin,
        json: { lastname: 'Lovelace' },
      });
      expect(((await response.json()) as { updatedUser: UserBody }).updatedUser).to.include({
        firstname: 'Ada',
        lastname: 'Lovelace',
        fullName: 'Ada Lovelace',
        username: user.username,
      });
      const both = await server.send('PATCH', `/api/user/update?username=${user.username}`, {
        token: admin,
        json: { firstname: ' Augusta ', lastname: 'King' },
      });
      expect(((await both.json()) as { updatedUser: UserBody }).updatedUser.fullName).to.equal('Augusta King');
      for (const json of [{ firstname: '' }, { lastname: 'x'.repeat(101) }, { firstname: 7 }, { lastname: 'a\u202Eb' }])
        await expectError(
          await server.send('PATCH', `/api/user/update?username=${user.username}`, { token: admin, json }),
          400,
          11,
        );
    });

    it('blocks with Users::Block: the tokens answer 403/2 until unblocked; Users::Update alone cannot', async () => {
      const target = await server.userWithToken(['Cryptography::Encrypt']);
      const moderator = await server.tokenFor(['Users::Block', 'Cryptography::Encrypt']);
      const updater = await server.tokenFor(['Users::Update', 'Cryptography::Encrypt']);
      expect(await encryptsWith(target.secret)).to.equal(200);

      const before = await server.snapshot();
      const refused = await expectError(
        await server.send('PATCH', '/api/user/update', {
          token: updater,
          headers: { 'x-uid': target.uid },
          json: { blocked: true },
        }),
        403,
        1,
      );
      expect(refused.details).to.equal('Missing permission Users::Block');
      // Blocking alone needs no Users::Update; anything beside it does.
      await expectError(
        await server.send('PATCH', '/api/user/update', {
          token: moderator,
          headers: { 'x-uid': target.uid },
          json: { blocked: true, displayname: 'x' },
        }),
        403,
        1,
      );
      for (const blocked of ['true', 1, null, 'yes'])
        await expectError(
          await server.send('PATCH', '/api/user/update', {
            token: moderator,
            headers: { 'x-uid': target.uid },
            json: { blocked },
          }),
          400,
          11,
        );
      expect(await server.snapshot()).to.deep.equal(before);

      const blocked = await server.send('PATCH', `/api/user/update?username=${target.username}`, {
        token: moderator,
        json: { blocked: true },
      });
      expect(blocked.status).to.equal(200);
      expect(((await blocked.json()) as { updatedUser: UserBody }).updatedUser.blocked).to.equal(true);
      await expectError(await server.get(ENCRYPT, { Authorization: `Bearer ${target.secret}` }), 403, 2);
      await expectError(await server.send('GET', '/api/user/get', { token: target.secret }), 403, 2);

      const unblocked = await server.send('PATCH', `/api/user/update?username=${target.username}`, {
        token: moderator,
        json: { blocked: false },
      });
      expect(unblocked.status).to.equal(200);
      expect(await encryptsWith(target.secret)).to.equal(200);
    });

    it('blocks nobody who holds more than the blocker, and the block lifts for nobody lesser either', async () => {
      const root = await server.userWithToken(['*']);
      const wide = await server.userWithToken(['Cryptography::*']);
      const moderator = await server.tokenFor(['Users::Block', 'Cryptography::Encrypt', 'Cryptography::Decrypt']);
      const before = await server.snapshot();
      for (const [uid, lacking] of [
        [root.uid, '*'],
        [wide.uid, 'Cryptography::*'],
      ] as const) {
        const body = await expectError(
          await server.send('PATCH', '/api/user/update', {
            token: moderator,
            headers: { 'x-uid': uid },
            json: { blocked: true },
          }),
          403,
          1,
        );
        expect(body.details).to.equal(`Missing permission ${lacking}`);
      }
      expect(await server.snapshot()).to.deep.equal(before);
      expect(await encryptsWith(root.secret)).to.equal(200);
    });
  });
}

for (const database of sqlDatabases) {
  describe(`http: a user blocked on one instance is refused on another (${database.name})`, () => {
    // A token cache longer than the test: only the access-change announcement tells the other instance.
    const instances = twoInstancesForSuite(database, { verifiedTokenTtlMs: 600_000 });

    it('refuses the blocked user’s token on the other instance soon after, and serves it again once unblocked', async () => {
      const target = await instances.one.userWithToken(['Cryptography::Encrypt']);
      const moderator = await instances.one.tokenFor(['Users::Block', 'Cryptography::Encrypt']);
      const statusOnOther = async () =>
        (await instances.other.get(ENCRYPT, { Authorization: `Bearer ${target.secret}` })).status;
      expect(await statusOnOther()).to.equal(200);
      const block = (blocked: boolean) =>
        instances.one.send('PATCH', `/api/user/update?username=${target.username}`, {
          token: moderator,
          json: { blocked },
        });
      expect((await block(true)).status).to.equal(200);
      await eventually(async () => expect(await statusOnOther()).to.equal(403));
      expect((await block(false)).status).to.equal(200);
      await eventually(async () => expect(await statusOnOther()).to.equal(200));
    });
  });
}
