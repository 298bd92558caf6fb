import { expect } from 'chai';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { expectError, httpBackends, serverForSuite, type TestServer } from '../support/http-server.js';

interface UserBody {
  id: string;
  uid: string;
  username: string;
  fullName: string | null;
  displayname: string | null;
  email: string | null;
  permissions: string[];
  blocked: boolean;
  createdAt: string;
  updatedAt: string;
}

const USER_KEYS = [
  'id',
  'uid',
  'username',
  'firstname',
  'lastname',
  'fullName',
  'displayname',
  'email',
  'permissions',
  'blocked',
  'quota',
  'createdAt',
  'updatedAt',
];
let emailSequence = 0;
const newPerson = (fields: Record<string, unknown> = {}) => {
  emailSequence += 1;
  return {
    firstname: 'Ada',
    lastname: 'Lovelace',
    email: `ada${emailSequence}@Example.com`,
    password: 'correct horse battery',
    ...fields,
  };
};

for (const backend of httpBackends) {
  describe(`http: users (${backend.name})`, () => {
    const suite = serverForSuite(backend);
    let server: TestServer;
    let admin: string;
    before(async () => {
      server = suite.server;
      admin = await server.tokenFor(['*']);
    });

    const create = async (token: string, person = newPerson()) => {
      const response = await server.send('POST', '/api/user/create', { token, json: person });
      expect(response.status, await response.clone().text()).to.equal(201);
      return (await response.json()) as UserBody;
    };

    it('creates a user: 201, the public fields only, email lower-cased, username derived, no permissions', async () => {
      const person = newPerson({ firstname: 'Zoë', lastname: "O'Brien" });
      const user = await create(admin, person);
      expect(Object.keys(user).sort()).to.deep.equal([...USER_KEYS].sort());
      expect(user).to.include({
        username: 'zoe.obrien',
        firstname: 'Zoë',
        lastname: "O'Brien",
        fullName: "Zoë O'Brien",
        email: person.email.toLowerCase(),
        blocked: false,
        displayname: null,
      });
      expect(user.permissions).to.deep.equal([]);
      expect(JSON.stringify(user)).not.to.include('correct horse').and.not.to.include('scrypt');
      const again = await create(admin, newPerson({ firstname: 'Zoë', lastname: "O'Brien" }));
      expect(again.username).to.equal('zoe.obrien2');
    });

    it('refuses x-uid on user/create with 400/9 rather than ignoring it, and stores nothing', async () => {
      const before = await server.snapshot();
      const someone = await server.send('GET', '/api/user/get', { token: admin });
      const { uid } = (await someone.json()) as UserBody;
      const body = await expectError(
        await server.send('POST', '/api/user/create', { token: admin, headers: { 'x-uid': uid }, json: newPerson() }),
        400,
        9,
      );
      expect(body.details).to.include('x-uid');
      expect(await server.snapshot()).to.deep.equal(before);
    });

    it('needs Users::Create', async () => {
      const token = await server.tokenFor(['Users::Read']);
      await expectError(await server.send('POST', '/api/user/create', { token, json: newPerson() }), 403, 1);
    });

    it('refuses bad bodies with 400/10 or 400/11 naming the fields, and stores nothing', async () => {
      const before = await server.snapshot();
      const cases: [unknown, number, string[]][] = [
        [{}, 10, ['firstname', 'lastname', 'email', 'password']],
        [{ ...newPerson(), password: undefined }, 10, ['password']],
        [{ ...newPerson(), admin: true }, 11, ['admin']],
        [{ ...newPerson(), firstname: 42 }, 11, ['firstname']],
        [{ ...newPerson(), password: 'short' }, 11, ['password']],
        [{ ...newPerson(), email: 'not-an-email' }, 11, ['email']],
        [{ ...newPerson(), username: 'Has Space' }, 11, ['username']],
        [['an', 'array'], 11, []],
        [{ ...newPerson(), firstname: 'a\u0000b' }, 11, ['firstname']],
        [JSON.parse('{"constructor": 1, "__proto__": {"admin": true}}'), 11, ['constructor', '__proto__']],
      ];
      for (const [json, code, names] of cases) {
        const body = await expectError(
          await server.send('POST', '/api/user/create', { token: admin, json }),
          400,
          code,
        );
        for (const name of names) expect(body.details, JSON.stringify(json)).to.include(name);
      }
      await expectError(
        await server.send('POST', '/api/user/create', {
          token: admin,
          raw: { body: '{"firstname":', contentType: 'application/json' },
        }),
        400,
        11,
      );
      await expectError(
        await server.send('POST', '/api/user/create', {
          token: admin,
          raw: { body: 'firstname=Ada', contentType: 'application/x-www-form-urlencoded' },
        }),
        400,
        11,
      );
      const huge = JSON.stringify({ ...newPerson(), firstname: 'x'.repeat(20_000) });
      await expectError(
        await server.send('POST', '/api/user/create', {
          token: admin,
          raw: { body: huge, contentType: 'application/json' },
        }),
        400,
        11,
      );
      expect(await server.snapshot()).to.deep.equal(before);
    });

    it('answers 409/26 for a taken email (any case) or username, and keeps the first user', async () => {
      const first = await create(admin, newPerson({ username: 'taken' }));
      const before = await server.snapshot();
      await expectError(
        await server.send('POST', '/api/user/create', {
          token: admin,
          json: newPerson({ email: first.email!.toUpperCase() }),
        }),
        409,
        26,
      );
      await expectError(
        await server.send('POST', '/api/user/create', { token: admin, json: newPerson({ username: 'taken' }) }),
        409,
        26,
      );
      expect(await server.snapshot()).to.deep.equal(before);
    });

    it('reads yourself with any token, others only with Users::Read', async () => {
      const me = await server.userWithToken([]);
      const self = (await (await server.send('GET', '/api/user/get', { token: me.secret })).json()) as UserBody;
      expect(self.uid).to.equal(me.uid);
      const other = await create(admin);
      await expectError(
        await server.send('GET', '/api/user/get', { token: me.secret, headers: { 'x-uid': other.uid } }),
        403,
        1,
      );
      const reader = await server.tokenFor(['Users::Read']);
      const read = await server.send('GET', '/api/user/get', { token: reader, headers: { 'x-uid': other.uid } });
      expect(read.status).to.equal(200);
      expect(((await read.json()) as UserBody).uid).to.equal(other.uid);
      await expectError(
        await server.send('GET', '/api/user/get', { token: reader, headers: { 'x-uid': 'nobody-has-this-uid' } }),
        404,
        14,
      );
      await expectError(
        await server.send('GET', '/api/user/get', { token: reader, headers: { 'x-uid': 'bad uid!' } }),
        400,
        9,
      );
      await expectError(await server.send('GET', '/api/user/get', { token: reader, headers: { 'x-uid': '' } }), 400, 8);
    });

    it('updates yourself; others need Users::Update; perms always need Users::Permissions and never escalate', async () => {
      const me = await server.userWithToken(['Cryptography::Encrypt', 'Users::Permissions']);
      const response = await server.send('PATCH', '/api/user/update', {
        token: me.secret,
        json: { displayname: 'Countess' },
      });
      expect(response.status).to.equal(200);
      const { updatedUser } = (await response.json()) as { updatedUser: UserBody };
      expect(updatedUser).to.include({ uid: me.uid, displayname: 'Countess' });

      const other = await create(admin);
      const noPermissionsRight = await server.tokenFor(['Users::Update', 'Cryptography::Encrypt']);
      const before = await server.snapshot();
      await expectError(
        await server.send('PATCH', '/api/user/update', {
          token: me.secret,
          headers: { 'x-uid': other.uid },
          json: { displayname: 'x' },
        }),
        403,
        1,
      );
      await expectError(
        await server.send('PATCH', '/api/user/update', { token: me.secret, json: { perms: ['Cryptography::*'] } }),
        403,
        1,
      );
      await expectError(
        await server.send('PATCH', '/api/user/update', { token: me.secret, json: { perms: ['*'] } }),
        403,
        1,
      );
      await expectError(
        await server.send('PATCH', '/api/user/update', { token: me.secret, json: { perms: ['Nope::Nothing'] } }),
        400,
        11,
      );
      await expectError(await server.send('PATCH', '/api/user/update', { token: me.secret, json: {} }), 400, 10);
      await expectError(
        await server.send('PATCH', '/api/user/update', { token: me.secret, json: { email: other.email } }),
        409,
        26,
      );
      await expectError(
        await server.send('PATCH', '/api/user/update', {
          token: noPermissionsRight,
          headers: { 'x-uid': other.uid },
          json: { perms: [] },
        }),
        403,
        1,
      );
      expect(await server.snapshot()).to.deep.equal(before);

      const granter = await server.tokenFor(['Users::Update', 'Users::Permissions', 'Cryptography::Encrypt']);
      const granted = await server.send('PATCH', '/api/user/update', {
        token: granter,
        headers: { 'x-uid': other.uid },
        json: { perms: ['Cryptography::Encrypt'] },
      });
      expect(granted.status).to.equal(200);
      expect(((await granted.json()) as { updatedUser: UserBody }).updatedUser.permissions).to.deep.equal([
        'Cryptography::Encrypt',
      ]);
    });

    it('deleting a user frees their email and refuses their tokens on the very next request', async () => {
      const victim = await server.userWithToken(['Cryptography::Encrypt']);
      const email = `gone${Date.now()}@example.com`;
      await server.send('PATCH', '/api/user/update', {
        token: admin,
        headers: { 'x-uid': victim.uid },
        json: { email },
      });
      expect(
        (await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${victim.secret}` })).status,
      ).to.equal(200);

      const deleter = await server.tokenFor(['Users::Delete', 'Cryptography::Encrypt']);
      const response = await server.send('DELETE', '/api/user/delete', {
        token: deleter,
        headers: { 'x-uid': victim.uid },
      });
      expect(response.status).to.equal(200);
      expect(await response.json()).to.deep.equal({ deleted: true, uid: victim.uid });
      await expectError(
        await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${victim.secret}` }),
        401,
        4,
      );
      await expectError(
        await server.send('GET', '/api/user/get', { token: deleter, headers: { 'x-uid': victim.uid } }),
        403,
        1,
      );
      await expectError(
        await server.send('GET', '/api/user/get', { token: admin, headers: { 'x-uid': victim.uid } }),
        404,
        14,
      );
      await create(admin, newPerson({ email }));
    });

    it('deletes yourself with your own token; others need Users::Delete', async () => {
      const me = await server.userWithToken([]);
      const other = await create(admin);
      await expectError(
        await server.send('DELETE', '/api/user/delete', { token: me.secret, headers: { 'x-uid': other.uid } }),
        403,
        1,
      );
      expect((await server.send('DELETE', '/api/user/delete', { token: me.secret })).status).to.equal(200);
      await expectError(await server.send('GET', '/api/user/get', { token: me.secret }), 401, 4);
    });

    it('acts on nobody who holds more than the caller: perms, email, password and delete need all the target holds', async () => {
      const root = await server.userWithToken(['*']);
      const wide = await server.userWithToken(['Cryptography::*']);
      const manager = await server.tokenFor([
        'Users::Update',
        'Users::Permissions',
        'Users::Delete',
        'Cryptography::Encrypt',
        'Cryptography::Decrypt',
      ]);
      const before = await server.snapshot();
      const attempts: [string, string, unknown, string][] = [
        ['PATCH', root.uid, { perms: [] }, '*'],
        ['PATCH', root.uid, { email: 'taken-over@example.com' }, '*'],
        ['PATCH', root.uid, { password: 'a new password for root' }, '*'],
        ['DELETE', root.uid, undefined, '*'],
        // Holding every permission under a wildcard is not holding the wildcard.
        ['PATCH', wide.uid, { perms: ['Cryptography::Encrypt'] }, 'Cryptography::*'],
        ['PATCH', wide.uid, { password: 'a new password for wide' }, 'Cryptography::*'],
        ['DELETE', wide.uid, undefined, 'Cryptography::*'],
      ];
      for (const [method, uid, json, lacking] of attempts) {
        const body = await expectError(
          await server.send(method, method === 'PATCH' ? '/api/user/update' : '/api/user/delete', {
            token: manager,
            headers: { 'x-uid': uid },
            json,
          }),
          403,
          1,
        );
        expect(body.details, JSON.stringify(json)).to.equal(`Missing permission ${lacking}`);
      }
      expect(await server.snapshot()).to.deep.equal(before);
      // A display name is no takeover: it needs only Users::Update.
      expect(
        (
          await server.send('PATCH', '/api/user/update', {
            token: manager,
            headers: { 'x-uid': root.uid },
            json: { displayname: 'Root' },
          })
        ).status,
      ).to.equal(200);
      // Holding what the target holds is enough, and `*` reaches everybody.
      const peer = await server.userWithToken(['Cryptography::Encrypt']);
      expect(
        (
          await server.send('PATCH', '/api/user/update', {
            token: manager,
            headers: { 'x-uid': peer.uid },
            json: { perms: ['Cryptography::Decrypt'] },
          })
        ).status,
      ).to.equal(200);
      expect(
        (await server.send('DELETE', '/api/user/delete', { token: admin, headers: { 'x-uid': root.uid } })).status,
      ).to.equal(200);
    });

    it('lets a token narrower than its user change neither its password, email, perms nor existence; a full one may', async () => {
      const me = await server.userWithToken(['Cryptography::*', 'Users::Permissions'], {
        scopes: ['Cryptography::Encrypt', 'Users::Permissions'],
      });
      const before = await server.snapshot();
      for (const json of [
        { password: 'mallory knows this now' },
        { email: 'mallory@example.com' },
        { perms: ['Cryptography::Encrypt', 'Users::Permissions'] },
      ]) {
        const body = await expectError(
          await server.send('PATCH', '/api/user/update', { token: me.secret, json }),
          403,
          1,
        );
        expect(body.details).to.equal('Missing permission Cryptography::*');
      }
      await expectError(await server.send('DELETE', '/api/user/delete', { token: me.secret }), 403, 1);
      expect(await server.snapshot()).to.deep.equal(before);
      expect(
        (await server.send('PATCH', '/api/user/update', { token: me.secret, json: { displayname: 'Narrow' } })).status,
      ).to.equal(200);

      const full = await server.userWithToken(['Cryptography::*']);
      const changed = await server.send('PATCH', '/api/user/update', {
        token: full.secret,
        json: { password: 'a long enough password', email: `full${Date.now()}@example.com` },
      });
      expect(changed.status).to.equal(200);
      expect((await server.send('DELETE', '/api/user/delete', { token: full.secret })).status).to.equal(200);
    });

    it("answers a blocked user's token 403/2 on management endpoints too", async () => {
      const blocked = await server.userWithToken(['*']);
      await server.send('PATCH', '/api/user/update', {
        token: admin,
        headers: { 'x-uid': blocked.uid },
        json: { displayname: 'soon blocked' },
      });
      await server.app.useCases.usersAndTokens.updateUser.execute(OPERATOR, { uid: blocked.uid }, { blocked: true });
      await expectError(await server.send('GET', '/api/user/get', { token: blocked.secret }), 403, 2);
      await expectError(await server.send('POST', '/api/token/create', { token: blocked.secret, json: {} }), 403, 2);
      await expectError(await server.send('DELETE', '/api/user/delete', { token: blocked.secret }), 403, 2);
    });
  });
}
