import { expect } from 'chai';
import { MemoryUsageHistory } from '../../src/families/usage/adapters/memory-usage-history.js';
import type { UsageHistory } from '../../src/families/usage/domain/ports.js';
import { rangeOf } from '../../src/families/usage/domain/read-usage.js';
import { UsageMeter } from '../../src/families/usage/domain/usage-meter.js';
import { DAY_MS, HOUR_MS, statusClassOf } from '../../src/families/usage/domain/usage.js';
import { ManualClock } from '../support/manual-clock.js';

const T0 = Date.UTC(2026, 10, 26, 10);
const TOKEN = '00000000-0000-4000-8000-00000000000a';

/** Memory usage history that refuses to write while `down`, as a database in an outage. */
class FlakyHistory extends MemoryUsageHistory {
  down = false;
  override async record(...args: Parameters<UsageHistory['record']>): Promise<void> {
    if (this.down) throw new Error('database down');
    return super.record(...args);
  }
}

describe('usage history: the meter', () => {
  it('counts by hour, operation and status class, and writes nothing until flushed', async () => {
    const clock = new ManualClock(T0 + 59 * 60_000);
    const history = new MemoryUsageHistory();
    const meter = new UsageMeter(history, clock);
    meter.record(TOKEN, 'user-1', 'GET /api/crypto/enc', 200);
    meter.record(TOKEN, 'user-1', 'GET /api/crypto/enc', 201);
    meter.record(TOKEN, 'user-1', 'GET /api/crypto/enc', 429);
    clock.advance(60_000);
    meter.record(TOKEN, 'user-1', 'GET /api/crypto/enc', 200);
    const query = {
      scope: { tokenId: TOKEN },
      from: T0,
      to: T0 + DAY_MS,
      by: 'hour' as const,
      group: 'status' as const,
    };
    expect(await history.series(query)).to.deep.equal([]);
    await meter.flush();
    expect(meter.unwrittenCounts).to.equal(0);
    expect(await history.series(query)).to.deep.equal([
      { at: T0, status: '2xx', count: 2 },
      { at: T0, status: '4xx', count: 1 },
      { at: T0 + HOUR_MS, status: '2xx', count: 1 },
    ]);
  });

  it('keeps a batch the store refused and adds it to the next one', async () => {
    const history = new FlakyHistory();
    const meter = new UsageMeter(history, new ManualClock(T0));
    meter.record(TOKEN, 'user-1', 'GET /api/crypto/enc', 200);
    history.down = true;
    await meter.flush().then(
      () => expect.fail('the flush should have failed'),
      (error: Error) => expect(error.message).to.equal('database down'),
    );
    meter.record(TOKEN, 'user-1', 'GET /api/crypto/enc', 200);
    expect(meter.unwrittenCounts).to.equal(1);
    history.down = false;
    await meter.flush();
    const query = { scope: { userId: 'user-1' }, from: T0, to: T0 + HOUR_MS, by: 'hour' as const };
    expect(await history.series(query)).to.deep.equal([{ at: T0, count: 2 }]);
  });

  it('writes in batches of the size given, and keeps only what a failed batch and those after it held', async () => {
    const history = new FlakyHistory();
    let writes = 0;
    const counting: UsageHistory = {
      record: async (counts) => {
        writes += 1;
        if (writes === 2) history.down = true;
        await history.record(counts);
      },
      series: (query) => history.series(query),
      compact: (before, limit) => history.compact(before, limit),
    };
    const meter = new UsageMeter(counting, new ManualClock(T0));
    for (const operation of ['GET /a', 'GET /b', 'GET /c', 'GET /d', 'GET /e'])
      meter.record(TOKEN, 'user-1', operation, 200);
    await meter.flush(2).catch(() => {});
    expect(meter.unwrittenCounts).to.equal(3);
    history.down = false;
    await meter.flush(2);
    const query = {
      scope: { tokenId: TOKEN },
      from: T0,
      to: T0 + HOUR_MS,
      by: 'hour' as const,
      group: 'operation' as const,
    };
    expect((await history.series(query)).map(({ operation, count }) => `${operation} ${count}`)).to.deep.equal([
      'GET /a 1',
      'GET /b 1',
      'GET /c 1',
      'GET /d 1',
      'GET /e 1',
    ]);
  });

  it('names status classes 1xx to 5xx, a client gone (499) among the 4xx', () => {
    expect([100, 200, 204, 304, 400, 499, 500, 503].map(statusClassOf)).to.deep.equal([
      '1xx',
      '2xx',
      '2xx',
      '3xx',
      '4xx',
      '4xx',
      '5xx',
      '5xx',
    ]);
  });
});

describe('usage history: the range asked', () => {
  const now = T0 + 30 * 60_000;

  it('defaults to the last 24 hours by hour and 30 days by day, as whole buckets up to the current one', () => {
    expect(rangeOf({}, now)).to.deep.equal({
      _tag: 'Right',
      right: { from: T0 - DAY_MS, to: T0 + HOUR_MS, by: 'hour', group: undefined },
    });
    const today = Date.UTC(2026, 10, 26);
    expect(rangeOf({ by: 'day', group: 'operation' }, now)).to.deep.equal({
      _tag: 'Right',
      right: { from: today - 30 * DAY_MS, to: today + DAY_MS, by: 'day', group: 'operation' },
    });
  });

  it('refuses from after to, and a span over 31 days by hour or 366 by day', () => {
    const refused = (request: Parameters<typeof rangeOf>[0]) => rangeOf(request, now)._tag;
    expect(refused({ from: now, to: now - 1 })).to.equal('Left');
    expect(refused({ from: T0 - 31 * DAY_MS, to: T0 })).to.equal('Right');
    expect(refused({ from: T0 - 31 * DAY_MS, to: T0 + 1 })).to.equal('Left');
    expect(refused({ from: T0 - 366 * DAY_MS, to: T0 - 10 * HOUR_MS, by: 'day' })).to.equal('Right');
    expect(refused({ from: T0 - 367 * DAY_MS, to: T0, by: 'day' })).to.equal('Left');
  });
});
