import { expect } from 'chai';
import { KnexUsageHistory } from '../../src/families/usage/adapters/knex-usage-history.js';
import { MemoryUsageHistory } from '../../src/families/usage/adapters/memory-usage-history.js';
import type { UsageHistory } from '../../src/families/usage/domain/ports.js';
import { DAY_MS, HOUR_MS, type UsageCount } from '../../src/families/usage/domain/usage.js';
import { sqlDatabases } from '../support/databases.js';

interface OpenedHistory {
  readonly history: UsageHistory;
  /** Another instance over the same storage, as another process has it (the memory history has only itself). */
  another(): UsageHistory;
  close(): Promise<void>;
}

/** Every adapter of usage history, each opened fresh for one test. */
const adapters: { name: string; open: () => Promise<OpenedHistory> }[] = [
  {
    name: 'memory',
    open: async () => {
      const history = new MemoryUsageHistory();
      return { history, another: () => history, close: async () => {} };
    },
  },
  ...sqlDatabases.map(({ name, open }) => ({
    name: `Knex on ${name}`,
    open: async (): Promise<OpenedHistory> => {
      const database = await open();
      return {
        history: new KnexUsageHistory(database.db),
        another: () => new KnexUsageHistory(database.db),
        close: database.drop,
      };
    },
  })),
];

const DAY0 = Date.UTC(2026, 10, 1);
const TOKEN_A = '00000000-0000-4000-8000-00000000000a';
const TOKEN_B = '00000000-0000-4000-8000-00000000000b';
const TOKEN_C = '00000000-0000-4000-8000-00000000000c';

/** A count of token A (of user 1) for `GET /crypto/enc` answered 2xx, in the first hour of DAY0. */
const aCount = (fields: Partial<UsageCount> = {}): UsageCount => ({
  tokenId: TOKEN_A,
  userId: 'user-1',
  operation: 'GET /crypto/enc',
  status: '2xx',
  hour: DAY0,
  count: 1,
  ...fields,
});

const wholeDay = { from: DAY0, to: DAY0 + DAY_MS };

for (const adapter of adapters) {
  describe(`contract: UsageHistory (${adapter.name})`, () => {
    let opened: OpenedHistory;
    let history: UsageHistory;
    beforeEach(async () => {
      opened = await adapter.open();
      history = opened.history;
    });
    afterEach(async () => opened.close());

    it('adds what it records to what it holds, from any number of instances, and answers hours in order', async () => {
      await history.record([aCount({ count: 3 }), aCount({ hour: DAY0 + HOUR_MS, count: 2 })]);
      await opened.another().record([aCount({ count: 4 })]);
      await history.record([]);
      expect(await history.series({ scope: { tokenId: TOKEN_A }, ...wholeDay, by: 'hour' })).to.deep.equal([
        { at: DAY0, count: 7 },
        { at: DAY0 + HOUR_MS, count: 2 },
      ]);
    });

    it('groups by operation or by status class, ordered by bucket then group', async () => {
      await history.record([
        aCount({ operation: 'POST /crypto/dec', count: 1 }),
        aCount({ count: 2 }),
        aCount({ status: '4xx', count: 5 }),
        aCount({ hour: DAY0 + 2 * HOUR_MS, status: '5xx', count: 1 }),
      ]);
      const scope = { tokenId: TOKEN_A };
      expect(await history.series({ scope, ...wholeDay, by: 'hour', group: 'operation' })).to.deep.equal([
        { at: DAY0, operation: 'GET /crypto/enc', count: 7 },
        { at: DAY0, operation: 'POST /crypto/dec', count: 1 },
        { at: DAY0 + 2 * HOUR_MS, operation: 'GET /crypto/enc', count: 1 },
      ]);
      expect(await history.series({ scope, ...wholeDay, by: 'hour', group: 'status' })).to.deep.equal([
        { at: DAY0, status: '2xx', count: 3 },
        { at: DAY0, status: '4xx', count: 5 },
        { at: DAY0 + 2 * HOUR_MS, status: '5xx', count: 1 },
      ]);
    });

    it('answers one token, or every token of one user, from `from` up to `to` excluded', async () => {
      await history.record([
        aCount({ count: 1 }),
        aCount({ tokenId: TOKEN_B, count: 10 }),
        aCount({ tokenId: TOKEN_C, userId: 'user-2', count: 100 }),
        aCount({ hour: DAY0 + DAY_MS, count: 1000 }),
        aCount({ hour: DAY0 - HOUR_MS, count: 10000 }),
      ]);
      expect(await history.series({ scope: { tokenId: TOKEN_B }, ...wholeDay, by: 'hour' })).to.deep.equal([
        { at: DAY0, count: 10 },
      ]);
      expect(await history.series({ scope: { userId: 'user-1' }, ...wholeDay, by: 'hour' })).to.deep.equal([
        { at: DAY0, count: 11 },
      ]);
      expect(await history.series({ scope: { userId: 'nobody' }, ...wholeDay, by: 'hour' })).to.deep.equal([]);
    });

    it('sums hours into UTC days by day', async () => {
      await history.record([
        aCount({ count: 1 }),
        aCount({ hour: DAY0 + 23 * HOUR_MS, count: 2 }),
        aCount({ hour: DAY0 + 24 * HOUR_MS, count: 4 }),
      ]);
      const series = await history.series({
        scope: { tokenId: TOKEN_A },
        from: DAY0,
        to: DAY0 + 3 * DAY_MS,
        by: 'day',
      });
      expect(series).to.deep.equal([
        { at: DAY0, count: 3 },
        { at: DAY0 + DAY_MS, count: 4 },
      ]);
    });

    it('compacts the hours before a day into days: by day nothing changes, by hour they are gone; twice counts once', async () => {
      await history.record([
        aCount({ count: 1 }),
        aCount({ hour: DAY0 + 5 * HOUR_MS, count: 2 }),
        aCount({ hour: DAY0 + 5 * HOUR_MS, status: '4xx', count: 3 }),
        aCount({ hour: DAY0 + DAY_MS, count: 4 }),
      ]);
      const scope = { tokenId: TOKEN_A };
      const twoDays = { from: DAY0, to: DAY0 + 2 * DAY_MS };
      const byDay = await history.series({ scope, ...twoDays, by: 'day', group: 'status' });
      expect(await history.compact(DAY0 + DAY_MS, 100)).to.equal(3);
      expect(await opened.another().compact(DAY0 + DAY_MS, 100)).to.equal(0);
      expect(await history.series({ scope, ...twoDays, by: 'day', group: 'status' })).to.deep.equal(byDay);
      expect(await history.series({ scope: { userId: 'user-1' }, ...twoDays, by: 'day' })).to.deep.equal([
        { at: DAY0, count: 6 },
        { at: DAY0 + DAY_MS, count: 4 },
      ]);
      expect(await history.series({ scope, ...twoDays, by: 'hour' })).to.deep.equal([{ at: DAY0 + DAY_MS, count: 4 }]);
      // A late count of a compacted day joins its day at the next compaction.
      await history.record([aCount({ hour: DAY0 + HOUR_MS, count: 10 })]);
      expect(await history.compact(DAY0 + DAY_MS, 100)).to.equal(1);
      expect(await history.series({ scope, ...twoDays, by: 'day' })).to.deep.equal([
        { at: DAY0, count: 16 },
        { at: DAY0 + DAY_MS, count: 4 },
      ]);
    });

    it('compacts at most `limit` hours a step, the day summed whole once every step is done', async () => {
      const operations = Array.from({ length: 25 }, (_, i) => `GET /op/${i}`);
      await history.record(operations.map((operation, i) => aCount({ operation, hour: DAY0 + (i % 24) * HOUR_MS })));
      const steps: number[] = [];
      for (let removed = -1; removed !== 0;) steps.push((removed = await history.compact(DAY0 + DAY_MS, 10)));
      expect(steps).to.deep.equal([10, 10, 5, 0]);
      expect(await history.series({ scope: { tokenId: TOKEN_A }, ...wholeDay, by: 'day' })).to.deep.equal([
        { at: DAY0, count: 25 },
      ]);
    });

    it('keeps large batches and counts past 2^31 whole', async () => {
      const operations = Array.from({ length: 1200 }, (_, i) => `GET /op/${i}`);
      await history.record(operations.map((operation) => aCount({ operation })));
      await history.record([aCount({ operation: 'GET /op/0', count: 3_000_000_000 })]);
      const series = await history.series({ scope: { tokenId: TOKEN_A }, ...wholeDay, by: 'hour', group: 'operation' });
      expect(series).to.have.length(1200);
      expect(series.reduce((sum, { count }) => sum + count, 0)).to.equal(3_000_001_200);
    });
  });
}
