import { expect } from 'chai';
import type { Knex } from 'knex';
import { openDatabase } from '../../src/platform/persistence/database.js';
import { databaseSettingsOf } from '../../src/container.js';
import { loadConfig } from '../../src/config/load-config.js';
import { expectRight } from '../support/either.js';
import { freshSqlite, type TestDatabase } from '../support/databases.js';
import { cliOn } from '../cli/run-cli.js';
import { eventually } from '../support/eventually.js';
import { ManualClock } from '../support/manual-clock.js';
import { expectError, httpBackends, serverForSuite, startServer, type TestServer } from '../support/http-server.js';

interface Entry {
  id: string;
  at: string;
  action: string;
  actor: { uid: string | null; username: string | null; tokenId: string | null; via: string };
  target: { type: string; id: string | null; label: string | null };
  changes: Record<string, unknown>;
  address: string | null;
  requestId: string | null;
  outcome: string;
}
interface Page {
  entries: Entry[];
  nextCursor: string | null;
}

const ADMIN = ['Users::*', 'Tokens::*', 'Audit::Read', 'Cryptography::*'];

const audit = async (server: TestServer, token: string, query = ''): Promise<Page> => {
  const response = await server.send('GET', `/api/audit${query}`, { token });
  expect(response.status, await response.clone().text()).to.equal(200);
  return (await response.json()) as Page;
};
const latest = async (server: TestServer, token: string, action: string): Promise<Entry> =>
  (await audit(server, token, `?action=${action}&limit=1`)).entries[0]!;

const tokenIdOf = async (server: TestServer, secret: string): Promise<string> =>
  ((await (await server.send('GET', '/api/token/info', { token: secret })).json()) as { id: string }).id;

for (const backend of httpBackends) {
  describe(`http: the audit trail (${backend.name})`, () => {
    const suite = serverForSuite(backend);

    it('writes who created a user, from where, under which request, with what was set and never the password', async () => {
      const server = suite.server;
      const admin = await server.userWithToken(ADMIN);
      const response = await server.send('POST', '/api/user/create', {
        token: admin.secret,
        headers: { 'x-request-id': 'audit-create-1' },
        json: {
          username: 'grace',
          firstname: 'Grace',
          lastname: 'Hopper',
          email: 'Grace@Example.com',
          password: 'a long enough passphrase',
        },
      });
      expect(response.status).to.equal(201);
      const createdUser = (await response.json()) as { uid: string };
      const entry = await latest(server, admin.secret, 'user.create');
      expect(entry).to.deep.include({
        action: 'user.create',
        actor: {
          uid: admin.uid,
          username: admin.username,
          tokenId: await tokenIdOf(server, admin.secret),
          via: 'http',
        },
        target: { type: 'user', id: createdUser.uid, label: 'grace' },
        address: '127.0.0.1',
        requestId: 'audit-create-1',
        outcome: 'success',
      });
      expect(entry.changes).to.deep.equal({
        username: { old: null, new: 'grace' },
        firstname: { old: null, new: 'Grace' },
        lastname: { old: null, new: 'Hopper' },
        email: { old: null, new: 'grace@example.com' },
        permissions: { old: null, new: [] },
        blocked: { old: null, new: false },
        password: { changed: true },
      });
      expect(Date.now() - Date.parse(entry.at)).to.be.within(0, 60_000);
      expect(JSON.stringify(entry)).not.to.include('passphrase').and.not.to.include('scrypt');
    });

    it('writes a user’s update with each field’s old and new values: blocks, permissions, quota, password', async () => {
      const server = suite.server;
      const admin = await server.userWithToken(ADMIN);
      const other = await server.userWithToken(['Cryptography::*']);
      const update = (json: unknown) =>
        server.send('PATCH', `/api/user/update?username=${other.username}`, { token: admin.secret, json });
      expect((await update({ blocked: true, perms: ['Cryptography::Encrypt'] })).status).to.equal(200);
      const blocked = await latest(server, admin.secret, 'user.update');
      expect(blocked.target).to.deep.equal({ type: 'user', id: other.uid, label: other.username });
      expect(blocked.changes).to.deep.equal({
        blocked: { old: false, new: true },
        permissions: { old: ['Cryptography::*'], new: ['Cryptography::Encrypt'] },
      });
      expect((await update({ quota: { requests: 100, per: 'day' }, password: 'another passphrase' })).status).to.equal(
        200,
      );
      expect((await latest(server, admin.secret, 'user.update')).changes).to.deep.equal({
        quota: { old: null, new: { requests: 100, per: 'day' } },
        password: { changed: true },
      });
    });

    it('writes each step of a token’s life: create, update, rotate, delete', async () => {
      const server = suite.server;
      const admin = await server.userWithToken(ADMIN);
      const created = (await (
        await server.send('POST', '/api/token/create', {
          token: admin.secret,
          json: { name: 'ci', permissions: ['Cryptography::Encrypt'] },
        })
      ).json()) as { id: string; token: string; prefix: string };
      const create = await latest(server, admin.secret, 'token.create');
      expect(create.target).to.deep.equal({ type: 'token', id: created.id, label: 'ci' });
      expect(create.changes).to.deep.include({
        name: { old: null, new: 'ci' },
        permissions: { old: null, new: ['Cryptography::Encrypt'] },
        origin: { old: null, new: 'token' },
      });
      expect(JSON.stringify(create)).not.to.include(created.token);

      const updated = await server.send('PATCH', `/api/token/update?id=${created.id}`, {
        token: admin.secret,
        json: { disabled: true, allowedAddresses: ['127.0.0.0/8'] },
      });
      expect(updated.status).to.equal(200);
      expect((await latest(server, admin.secret, 'token.update')).changes).to.deep.equal({
        disabled: { old: false, new: true },
        allowedAddresses: { old: null, new: ['127.0.0.0/8'] },
      });

      const rotated = await server.send('POST', `/api/token/rotate?id=${created.id}`, {
        token: admin.secret,
        json: { graceSeconds: 60 },
      });
      expect(rotated.status).to.equal(201);
      const { id: replacementId } = (await rotated.json()) as { id: string };
      const rotation = await latest(server, admin.secret, 'token.rotate');
      expect(rotation.target.id).to.equal(created.id);
      expect(rotation.changes).to.have.keys('rotatedTo', 'rotationEndsAt');
      expect(rotation.changes.rotatedTo).to.deep.equal({ old: null, new: replacementId });

      expect(
        (await server.send('DELETE', `/api/token/delete?id=${replacementId}`, { token: admin.secret })).status,
      ).to.equal(200);
      const deletion = await latest(server, admin.secret, 'token.delete');
      expect(deletion.target).to.deep.equal({ type: 'token', id: replacementId, label: 'ci' });
      const ofToken = await audit(server, admin.secret, `?target=${created.id}`);
      expect(ofToken.entries.map((entry) => entry.action)).to.deep.equal([
        'token.rotate',
        'token.update',
        'token.create',
      ]);
    });

    it('writes every password login checked, success or failure, and nothing of the password', async () => {
      const server = suite.server;
      const admin = await server.userWithToken(ADMIN);
      const created = await server.send('POST', '/api/user/create', {
        token: admin.secret,
        json: {
          username: 'lin',
          firstname: 'Lin',
          lastname: 'Yu',
          email: 'lin@example.com',
          password: 'lin has a passphrase',
        },
      });
      const createdUser = (await created.json()) as { uid: string };
      const basic = (login: string, password: string) =>
        server.send('POST', '/api/token/create', {
          headers: {
            authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
            'x-request-id': `login-${login}`,
          },
        });
      expect((await basic('lin', 'lin has a passphrase')).status).to.equal(201);
      await expectError(await basic('LIN', 'not the passphrase'), 401, 4);
      await expectError(await basic('nobody.here', 'whatever it is'), 401, 4);
      const logins = (await audit(server, admin.secret, '?action=login.password&limit=3')).entries;
      expect(
        logins.map(({ outcome, actor, target, requestId }) => ({ outcome, actor, target, requestId })),
      ).to.deep.equal([
        {
          outcome: 'failure',
          actor: { uid: null, username: null, tokenId: null, via: 'http' },
          target: { type: 'user', id: null, label: 'nobody.here' },
          requestId: 'login-nobody.here',
        },
        {
          outcome: 'failure',
          actor: { uid: null, username: null, tokenId: null, via: 'http' },
          target: { type: 'user', id: createdUser.uid, label: 'lin' },
          requestId: 'login-LIN',
        },
        {
          outcome: 'success',
          actor: { uid: createdUser.uid, username: 'lin', tokenId: null, via: 'http' },
          target: { type: 'user', id: createdUser.uid, label: 'lin' },
          requestId: 'login-lin',
        },
      ]);
      const session = await latest(server, admin.secret, 'token.create');
      expect(session.actor).to.deep.equal({ uid: createdUser.uid, username: 'lin', tokenId: null, via: 'http' });
      expect(session.changes).to.deep.include({ origin: { old: null, new: 'password' } });
      expect(JSON.stringify(logins)).not.to.include('passphrase');
    });

    it('shows a user without Audit::Read what they did and what was done to them, and nobody else’s', async () => {
      const server = suite.server;
      const admin = await server.userWithToken(ADMIN);
      const me = await server.userWithToken(['Tokens::*']);
      const stranger = await server.userWithToken(['Tokens::*']);
      await server.send('PATCH', `/api/user/update?username=${me.username}`, {
        token: admin.secret,
        json: { displayname: 'Me' },
      });
      await server.send('PATCH', `/api/user/update?username=${stranger.username}`, {
        token: admin.secret,
        json: { displayname: 'Them' },
      });
      await server.send('POST', '/api/token/create', { token: me.secret, json: { name: 'mine' } });
      const mine = await audit(server, me.secret, '?limit=100');
      // userWithToken made the user and its token at the command line, as the operator.
      expect(mine.entries.map((entry) => [entry.action, entry.target.label, entry.actor.via])).to.deep.equal([
        ['token.create', 'mine', 'http'],
        ['user.update', me.username, 'http'],
        ['token.create', mine.entries[2]!.target.label, 'cli'],
        ['user.create', me.username, 'cli'],
      ]);
      expect(mine.entries[2]!.target.id).to.equal(await tokenIdOf(server, me.secret));
      expect((await audit(server, me.secret, '?action=token.create')).entries).to.have.length(2);
      expect((await audit(server, me.secret, `?actor=${admin.uid}`)).entries.map((e) => e.target.label)).to.deep.equal([
        me.username,
      ]);
      expect((await audit(server, me.secret, `?target=${stranger.uid}`)).entries).to.deep.equal([]);
    });

    it('pages newest first through every entry once, the cursor keeping the filters', async () => {
      const server = suite.server;
      const admin = await server.userWithToken(ADMIN);
      const subject = await server.userWithToken([]);
      for (let index = 0; index < 5; index++)
        await server.send('PATCH', `/api/user/update?username=${subject.username}`, {
          token: admin.secret,
          json: { displayname: `name ${index}` },
        });
      const seen: string[] = [];
      let cursor: string | null = '';
      do {
        const page: Page = await audit(
          server,
          admin.secret,
          `?target=${subject.uid}&action=user.update&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(page.entries.length).to.be.at.most(2);
        seen.push(...page.entries.map((entry) => JSON.stringify(entry.changes)));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(
        seen.map((changes) => (JSON.parse(changes) as { displayname: { new: string } }).displayname.new),
      ).to.deep.equal(['name 4', 'name 3', 'name 2', 'name 1', 'name 0']);
    });

    it('refuses a filter it cannot read with 400 code 7, and changes nothing when a change is refused', async () => {
      const server = suite.server;
      const admin = await server.userWithToken(ADMIN);
      for (const query of [
        '?from=2026-11-27&to=2026-11-26',
        '?from=2026-11-26&to=2026-11-26',
        '?from=yesterday',
        '?action=user.renamed',
        '?limit=0',
        '?limit=101',
        '?cursor=abc',
        '?cursor=0',
        '?actor=',
        '?page=2',
      ])
        await expectError(await server.send('GET', `/api/audit${query}`, { token: admin.secret }), 400, 7);
      const weak = await server.userWithToken(['Tokens::Read']);
      const before = await server.snapshot();
      await expectError(
        await server.send('PATCH', `/api/user/update?username=${admin.username}`, {
          token: weak.secret,
          json: { blocked: true },
        }),
        403,
        1,
      );
      expect(await server.snapshot()).to.deep.equal(before);
    });
  });
}

/** The test's own connection to a SQL backend's database, for making the trail unwritable. */
const connectionTo = (env: Record<string, string>): Knex => {
  const config = expectRight(loadConfig({ env: { NODE_ENV: 'test', ...env } }));
  return openDatabase(databaseSettingsOf(config)!);
};

for (const backend of httpBackends.filter((candidate) => candidate.name !== 'memory')) {
  describe(`http: a change whose audit entry cannot be written is not made (${backend.name})`, () => {
    let server: TestServer;
    let env: Record<string, string>;
    let drop: () => Promise<void>;
    before(async () => {
      const database = await backend.open();
      ({ env, drop } = database);
      server = await startServer({ env });
    });
    after(async () => {
      await server?.close();
      await drop?.();
    });

    it('fails the change and keeps what was stored when the trail refuses the entry', async () => {
      const admin = await server.userWithToken(ADMIN);
      const other = await server.userWithToken(['Cryptography::*']);
      const db = connectionTo(env);
      const before = await server.snapshot();
      try {
        await db.schema.renameTable('audit_entries', 'audit_entries_away');
        const update = await server.send('PATCH', `/api/user/update?username=${other.username}`, {
          token: admin.secret,
          json: { blocked: true, perms: [] },
        });
        await expectError(update, 500, 16);
        const revoke = await server.send('DELETE', `/api/token/delete?id=${await tokenIdOf(server, other.secret)}`, {
          token: admin.secret,
        });
        await expectError(revoke, 500, 21);
      } finally {
        await db.schema.renameTable('audit_entries_away', 'audit_entries');
        await db.destroy();
      }
      expect(await server.snapshot()).to.deep.equal(before);
      expect((await server.get('/api/crypto/enc?data=x', { authorization: `Bearer ${other.secret}` })).status).to.equal(
        200,
      );
    });
  });
}

describe('http: a change of feature switches is in the audit trail, written by the first server to start with it', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await freshSqlite();
  });
  afterEach(() => database.drop());

  const startWith = (disabled: string) =>
    startServer({ env: { ...database.env, UTILITY_API_DISABLED_FAMILIES: disabled } });
  const switchesIn = async (server: TestServer) => {
    const admin = await server.tokenFor(['Audit::Read']);
    return (await audit(server, admin, '?action=features.update')).entries.map(({ actor, target, changes }) => ({
      actor,
      target,
      changes,
    }));
  };
  const change = (old: string[], next: string[]) => ({
    actor: { uid: null, username: null, tokenId: null, via: 'config' },
    target: { type: 'features', id: null, label: 'features.disabled' },
    changes: { disabled: { old, new: next } },
  });

  it('records nothing while nothing is switched off, then each change of the set once, the CLI never', async () => {
    for (const disabled of ['', 'Weather,Game', 'Game,Weather']) {
      const server = await startWith(disabled);
      await server.close();
    }
    // The CLI, started from a shell without the servers' setting, writes nothing.
    expect((await cliOn(database.env)('audit', 'list', '--action', 'features.update')).status).to.equal(0);
    const server = await startWith('Game');
    try {
      expect(await switchesIn(server)).to.deep.equal([
        change(['Weather', 'Game'], ['Game']),
        change([], ['Weather', 'Game']),
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('http: audit entries older than audit.retentionDays are removed by the servers', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await freshSqlite();
  });
  afterEach(() => database.drop());

  it('removes them at a server’s start, keeping the newer ones; a server with audit.pruning false leaves them', async () => {
    const DAY_MS = 86_400_000;
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const first = await startServer({ env: database.env, clock });
    const admin = await first.tokenFor(['Audit::Read']);
    await first.close();
    clock.advance(2 * DAY_MS);
    const env = { ...database.env, UTILITY_API_AUDIT_RETENTION_DAYS: '1' };
    const keeping = await startServer({ env: { ...env, UTILITY_API_AUDIT_PRUNING: 'false' }, clock });
    try {
      await keeping.tokenFor([]);
      expect((await audit(keeping, admin, '?limit=100')).entries.map((entry) => entry.at)).to.have.length(4);
    } finally {
      await keeping.close();
    }
    const pruning = await startServer({ env, clock });
    try {
      await eventually(async () => {
        const left = (await audit(pruning, admin, '?limit=100')).entries;
        expect(left.map((entry) => entry.action)).to.deep.equal(['token.create', 'user.create']);
        expect(left.every((entry) => Date.parse(entry.at) === clock.now())).to.equal(true);
      });
    } finally {
      await pruning.close();
    }
  });
});
