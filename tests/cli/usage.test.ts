import { expect } from 'chai';
import { KnexUsageHistory } from '../../src/families/usage/adapters/knex-usage-history.js';
import { freshSqlite } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { startServer } from '../support/http-server.js';
import { cliOn } from './run-cli.js';

const LONG_AGO = Date.UTC(2020, 0, 1);

describe('cli: usage history', () => {
  it('leaves compaction to the servers: a command sums no old hours, a server’s start does', async () => {
    const database = await freshSqlite();
    const hoursLeft = async () =>
      Number(((await database.db('usage_hours').count({ n: '*' })) as [{ n: number }])[0].n);
    try {
      await new KnexUsageHistory(database.db).record([
        {
          tokenId: '00000000-0000-4000-8000-00000000000a',
          userId: 'user-1',
          operation: 'GET /api/crypto/enc',
          status: '2xx',
          hour: LONG_AGO,
          count: 3,
        },
      ]);
      const listed = await cliOn(database.env)('user', 'list');
      expect(listed.status, listed.stderr).to.equal(0);
      expect(await hoursLeft()).to.equal(1);
      const server = await startServer({ env: database.env });
      try {
        await eventually(async () => expect(await hoursLeft()).to.equal(0));
        const [day] = (await database.db('usage_days').select('day', 'count')) as { day: number; count: number }[];
        expect({ day: Number(day!.day), count: Number(day!.count) }).to.deep.equal({ day: LONG_AGO, count: 3 });
      } finally {
        await server.close();
      }
    } finally {
      await database.drop();
    }
  });
});
