import { expect } from 'chai';
import { sqlDatabases } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { startServer, type TestServer } from '../support/http-server.js';
import { usageOf } from '../support/usage.js';

/** A flush interval no test waits for: counts reach the database only at the stop. */
const NEVER_MS = 3_600_000;

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
  });
}
