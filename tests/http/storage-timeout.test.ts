import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { openDatabase } from '../../src/platform/persistence/database.js';
import { cliOn } from '../cli/run-cli.js';
import { freshPostgres, freshSqlite, POSTGRES_URL, sqlDatabases } from '../support/databases.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';
import { eventually, settlesWithin } from '../support/eventually.js';
import { startTcpProxy } from '../support/tcp-proxy.js';

/** What these tests allow the database per call, instead of the default 2 s. */
const TIMEOUT_MS = 400;
const PERSON = { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', password: 'correct horse battery' };

/**
 * The answer to a request that waits on a database which does not answer: it must come, cut by the
 * database's deadline rather than left hanging. Under a generous deadline of the test's own: on a
 * loaded machine, callers that met SQLite's lock take turns for well over a second.
 */
const inTime = (send: () => Promise<Response>): Promise<Response> =>
  settlesWithin(send(), 'an answer cut by the database deadline');

async function expectUnavailableInTime(server: TestServer, send: () => Promise<Response>): Promise<void> {
  const response = await inTime(send);
  expect(response.headers.get('retry-after')).to.equal('5');
  expect(await expectError(response, 503, 29)).to.deep.equal({
    code: 29,
    message: 'The service is unavailable, try again later',
  });
}

/**
 * Sends `count` requests at once, and checks every one as expectUnavailableInTime does. Callers
 * waiting together each wait out the deadline once, not one after the other: all are answered
 * before `count` deadlines in a row could have passed.
 */
async function expectAllUnavailableInTime(
  server: TestServer,
  count: number,
  send: (index: number) => Promise<Response>,
): Promise<void> {
  const answers = await settlesWithin(
    Promise.all(Array.from({ length: count }, (_, index) => send(index))),
    `${count} calls waiting together, answered sooner than ${count} deadlines one after the other`,
    count * TIMEOUT_MS,
  );
  for (const response of answers) {
    expect({
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: await response.json(),
    }).to.deep.equal({
      status: 503,
      retryAfter: '5',
      body: { code: 29, message: 'The service is unavailable, try again later' },
    });
  }
}

describe('http: a database that does not answer in time', function () {
  this.timeout(30_000);

  it('SQLite locked by another writer: a write answers 503/29 with Retry-After in time, stores nothing, and works once the lock is gone', async () => {
    const database = await freshSqlite();
    const server = await startServer({ env: database.env, overrides: { database: { timeoutMs: TIMEOUT_MS } } });
    // Beside it, on the same database, a server left at the default deadline (2 s).
    const byDefault = await startServer({ env: database.env });
    const locker: Knex = openDatabase(database.settings);
    try {
      const admin = await server.userWithToken(['*']);
      const adminByDefault = await byDefault.tokenFor(['*']);
      const notYetSeen = await server.tokenFor(['Cryptography::*']);
      const before = await server.snapshot();
      const locked = await locker.transaction();
      await locked.raw('INSERT INTO access_changes (kind, subject, created_at) VALUES (?, ?, ?)', ['user', 'lock', 0]);
      try {
        await expectUnavailableInTime(server, () =>
          server.send('POST', '/api/user/create', { token: admin.secret, json: PERSON }),
        );
        // Writers waiting together each wait out the deadline once, not one after the other.
        await expectAllUnavailableInTime(server, 12, (index) =>
          server.send('POST', '/api/user/create', {
            token: admin.secret,
            json: { ...PERSON, email: `ada${index}@example.com` },
          }),
        );
        // The deadline is the one configured: the same write sent to both at once is answered by this
        // server first (an order, which no load on the machine changes), by the other 1.6 s later.
        const answered: string[] = [];
        const [configured, atDefault] = await Promise.all(
          [
            [server, admin.secret, 'database.timeoutMs 400'],
            [byDefault, adminByDefault, 'the default 2 s'],
          ].map(async ([to, token, deadline]) => {
            const response = await (to as TestServer).send('POST', '/api/user/create', {
              token: token as string,
              json: { ...PERSON, email: 'both@example.com' },
            });
            answered.push(deadline as string);
            return response;
          }),
        );
        await expectError(configured!, 503, 29);
        await expectError(atDefault!, 503, 29);
        expect(answered).to.deep.equal(['database.timeoutMs 400', 'the default 2 s']);
        // Reading goes on beside a writer (WAL): a token this server has not verified yet still works.
        expect((await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${notYetSeen}` })).status).to.equal(
          200,
        );
      } finally {
        await locked.rollback();
      }
      expect(await server.snapshot()).to.deep.equal(before);
      const created = await server.send('POST', '/api/user/create', { token: admin.secret, json: PERSON });
      expect(created.status).to.equal(201);
    } finally {
      await locker.destroy();
      await server.close();
      await byDefault.close();
      await database.drop();
    }
  });

  (POSTGRES_URL ? it : it.skip)(
    'PostgreSQL hanging: what needs it answers 503/29 in time, a cached token on an offline family keeps working, and it recovers with no restart',
    async () => {
      const database = await freshPostgres();
      const target = new URL(POSTGRES_URL!);
      const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const url = new URL(database.env.DATABASE_URL!);
      url.port = String(proxy.port);
      let server: TestServer | undefined;
      try {
        // Its start migrates within the same 400 ms: made again when a loaded machine misses it (once in CI).
        // The cached token stays verified for the whole test: at the default 5 s, the steps before
        // its use took longer in CI on a loaded machine, and it had to ask the hanging database.
        server = await eventually(() =>
          startServer({
            env: { ...database.env, DATABASE_URL: url.toString() },
            overrides: { database: { timeoutMs: TIMEOUT_MS }, auth: { verifiedTokenTtlMs: 600_000 } },
          }),
        );
        // The set-up goes through the same 400 ms deadline before the database is made to hang; with
        // the checks on both cores one of its writes once missed it (StorageUnavailable in CI). That
        // is not what this test is about, so a set-up write that misses it is made again.
        const settingUp = <A>(make: () => Promise<A>) => eventually(make);
        const admin = await settingUp(() => server!.userWithToken(['*']));
        const cached = await settingUp(() => server!.tokenFor(['Cryptography::*']));
        const uncached = await settingUp(() => server!.tokenFor(['Cryptography::*']));
        const waiter = await settingUp(() => server!.tokenFor(['Cryptography::*']));
        // More (used at once, below) than the pool's connections, none of them verified by the server
        // yet. Made one after another: twelve at once can wait on the pool past the 400 ms deadline
        // on a loaded machine, before the database is even made to hang.
        const neverSeen: string[] = [];
        for (let i = 0; i < 12; i++) neverSeen.push(await settingUp(() => server!.tokenFor(['Cryptography::*'])));
        expect((await server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${cached}` })).status).to.equal(
          200,
        );
        expect(await (await server.get('/metrics', { Authorization: `Bearer ${admin.secret}` })).text()).to.include(
          'mail_outbox_messages{',
        );

        proxy.set('hang');
        // What the instance knows without the database: its metrics, without the mail outbox's depth.
        const metrics = await inTime(() => server!.get('/metrics', { Authorization: `Bearer ${admin.secret}` }));
        expect(metrics.status).to.equal(200);
        expect(await metrics.text())
          .to.include('http_request_duration_seconds')
          .and.not.include('mail_outbox_messages{');
        await expectAllUnavailableInTime(server, neverSeen.length, (index) =>
          server!.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${neverSeen[index]}` }),
        );
        await expectAllUnavailableInTime(server, 12, (index) =>
          server!.send('POST', '/api/user/create', {
            token: admin.secret,
            json: { ...PERSON, email: `ada${index}@example.com` },
          }),
        );
        await expectUnavailableInTime(server, () =>
          server!.send('GET', '/api/mail/status?id=00000000-0000-4000-8000-000000000000', { token: admin.secret }),
        );
        await expectUnavailableInTime(server, () =>
          server!.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${uncached}` }),
        );
        await expectUnavailableInTime(server, () =>
          server!.send('POST', '/api/user/create', { token: admin.secret, json: PERSON }),
        );
        // The cached token asks the database nothing: sent just after a request that waits out the
        // database's deadline, it is answered first (an order, which no load on the machine changes).
        const answered: string[] = [];
        const [waited, fromCache] = await Promise.all([
          server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${waiter}` }).then((response) => {
            answered.push('waited for the database');
            return response;
          }),
          server.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${cached}` }).then((response) => {
            answered.push('cached');
            return response;
          }),
        ]);
        expect(fromCache.status).to.equal(200);
        await expectError(waited, 503, 29);
        expect(answered).to.deep.equal(['cached', 'waited for the database']);

        proxy.set('pass');
        await eventually(async () =>
          expect(
            (await server!.get('/api/crypto/enc?data=x', { Authorization: `Bearer ${uncached}` })).status,
          ).to.equal(200),
        );
        expect((await server.send('POST', '/api/user/create', { token: admin.secret, json: PERSON })).status).to.equal(
          201,
        );
      } finally {
        proxy.set('pass');
        await server?.close();
        await proxy.close();
        await database.drop();
      }
    },
  );
});

describe('cli: a database that keeps answering is not given up on', function () {
  this.timeout(60_000);

  for (const { name, open } of sqlDatabases) {
    it(`imports 40,000 facts in one call (160 statements) that takes far longer than database.timeoutMs, and says so truly (${name})`, async () => {
      const database = await open();
      const dir = mkdtempSync(join(tmpdir(), 'utility-api-import-'));
      try {
        const file = join(dir, 'many.csv');
        writeFileSync(
          file,
          ['text', ...Array.from({ length: 40_000 }, (_, index) => `Fact number ${index} of a long list`)].join('\n'),
        );
        const cli = cliOn({
          ...database.env,
          // Each statement answers well within it even on a loaded machine (a new PostgreSQL
          // connection can take over 100 ms there); the whole import takes many times longer.
          // 1 s, not the 400 ms of the other tests: a statement of 250 rows once took longer on
          // PostgreSQL in CI, on a machine twice as slow as usual.
          UTILITY_API_DATABASE_TIMEOUT_MS: '1000',
          UTILITY_API_KANYE_URL: 'off',
          UTILITY_API_CHUCKNORRIS_URL: 'off',
          UTILITY_API_RON_SWANSON_URL: 'off',
        });
        const runImport = () => cli('content', 'import', file, '--kind', 'fact', '--category', 'many');
        let imported = await runImport();
        // Starting connects within the same 400 ms; with the checks on both cores that once failed
        // ("cannot start") in CI, before anything was imported. The import is what is tested.
        for (let attempt = 1; attempt < 3 && imported.stderr.includes('cannot start'); attempt++)
          imported = await runImport();
        expect(imported.stdout, imported.stderr).to.include(
          'Imported into fact/many: 40000 added, 0 skipped, 0 refused',
        );
        expect(imported.status).to.equal(0);
        expect(await database.db('content_entries').where({ category: 'many' }).count({ n: '*' })).to.deep.equal([
          { n: name === 'SQLite' ? 40_000 : '40000' },
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await database.drop();
      }
    });
  }
});
