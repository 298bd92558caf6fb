import { expect } from 'chai';
import { sqlDatabases } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { startServer, type TestServer } from '../support/http-server.js';
import { SteppedClock } from '../support/manual-clock.js';
import { usageOf } from '../support/usage.js';

/** A flush interval no test waits for: counts reach the database only at the stop. */
const NEVER_MS = 3_600_000;

const DAY_MS = 86_400_000;

const encrypt = async (server: TestServer, secret: string, times: number) => {
  for (let i = 0; i < times; i++)
    expect((await server.send('GET', '/api/crypto/enc?data=x', { token: secret })).status).to.equal(200);
};

for (const { name, open } of sqlDatabases) {
  describe(`http: usage history on several instances and across a stop (${name})`, () => {
    it('sums what every instance counts on one database', async () => {
      const database = await open();
      const overrides = { usage: { flushIntervalMs: 100 } };
      const servers = [
        await startServer({ env: database.env, overrides }),
        await startServer({ env: database.env, overrides }),
      ];
      try {
        const [first, second] = servers as [TestServer, TestServer];
        const user = await first.userWithToken(['Cryptography::Encrypt']);
        await encrypt(first, user.secret, 3);
        await encrypt(second, user.secret, 4);
        await eventually(async () => {
          const usage = await usageOf(
            second,
            '/api/user/usage?group=operation',
            await first.tokenFor(['Users::Read']),
            {
              'x-uid': user.uid,
            },
          );
          expect(usage.series.map(({ operation, count }) => ({ operation, count }))).to.deep.equal([
            { operation: 'GET /api/crypto/enc', count: 7 },
          ]);
        });
      } finally {
        for (const server of servers) await server.close();
        await database.drop();
      }
    });

    it('costs a request no database write, and loses no count at a clean stop', async () => {
      const database = await open();
      const overrides = { usage: { flushIntervalMs: NEVER_MS } };
      const first = await startServer({ env: database.env, overrides });
      let user: { uid: string; secret: string };
      try {
        user = await first.userWithToken(['Cryptography::Encrypt']);
        await encrypt(first, user.secret, 5);
        const [{ rows }] = (await database.db('usage_hours').count({ rows: '*' })) as [{ rows: string | number }];
        expect(Number(rows)).to.equal(0);
      } finally {
        await first.close();
      }
      const [{ total }] = (await database.db('usage_hours').sum({ total: 'count' })) as [{ total: string | number }];
      expect(Number(total)).to.equal(5);
      const second = await startServer({ env: database.env, overrides });
      try {
        const usage = await usageOf(second, '/api/token/usage?group=status', user.secret);
        expect(usage.series.map(({ status, count }) => ({ status, count }))).to.deep.equal([
          { status: '2xx', count: 5 },
        ]);
      } finally {
        await second.close();
        await database.drop();
      }
    });

    it('sums the hours older than usage.retentionDays into days: by day they still count, by hour they are gone', async () => {
      const database = await open();
      const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
      const day = `from=${new Date(today).toISOString()}&to=${new Date(today + DAY_MS).toISOString()}`;
      const first = await startServer({ env: database.env, overrides: { usage: { flushIntervalMs: NEVER_MS } } });
      let user: { uid: string; secret: string };
      try {
        user = await first.userWithToken(['Cryptography::Encrypt']);
        await encrypt(first, user.secret, 3);
      } finally {
        await first.close();
      }
      // Three days on, at a retention of one day: the start compacts, as every hour after does.
      const clock = new SteppedClock();
      clock.advance(3 * DAY_MS);
      const later = await startServer({ env: { ...database.env, UTILITY_API_USAGE_RETENTION_DAYS: '1' }, clock });
      try {
        const admin = await later.tokenFor(['Users::Read']);
        const headers = { 'x-uid': user.uid };
        await eventually(async () =>
          expect((await usageOf(later, `/api/user/usage?${day}&by=hour`, admin, headers)).series).to.deep.equal([]),
        );
        const byDay = await usageOf(later, `/api/user/usage?${day}&by=day&group=status`, admin, headers);
        expect(byDay.series).to.deep.equal([{ at: new Date(today).toISOString(), status: '2xx', count: 3 }]);
      } finally {
        await later.close();
        await database.drop();
      }
    });
  });
}
