import { expect } from 'chai';
import type { AuditEntry } from '../../src/domain/audit.js';
import type { EventLog, NewDomainEvent } from '../../src/domain/events.js';
import { appendAuditEntry } from '../../src/platform/audit/knex-audit-trail.js';
import { MemoryAuditTrail } from '../../src/platform/audit/memory-audit-trail.js';
import { KnexEventLog } from '../../src/platform/events/knex-event-log.js';
import { sqlDatabases } from '../support/databases.js';

interface OpenedLog {
  readonly log: EventLog;
  /** Writes an audit entry with its events, as a store does in its transaction (or its step, in memory). */
  writeEntry(entry: AuditEntry): Promise<void>;
  /** Writes an entry and fails in the same transaction, as a store's change refused at its last step. */
  writeEntryAndFail(entry: AuditEntry): Promise<void>;
  close(): Promise<void>;
}

const adapters: { name: string; open: () => Promise<OpenedLog> }[] = [
  {
    name: 'memory',
    open: async () => {
      const trail = new MemoryAuditTrail();
      return {
        log: trail.events,
        writeEntry: async (entry) => trail.append(entry),
        // Memory's step is synchronous: a change refused makes no entry at all.
        writeEntryAndFail: async () => {},
        close: async () => {},
      };
    },
  },
  ...sqlDatabases.map(({ name, open }) => ({
    name: `Knex on ${name}`,
    open: async (): Promise<OpenedLog> => {
      const database = await open();
      return {
        log: new KnexEventLog(database.db),
        writeEntry: (entry) => database.db.transaction((trx) => appendAuditEntry(trx, entry)),
        writeEntryAndFail: (entry) =>
          database.db
            .transaction(async (trx) => {
              await appendAuditEntry(trx, entry);
              throw new Error('the change failed');
            })
            .catch(() => {}),
        close: database.drop,
      };
    },
  })),
];

const T0 = Date.UTC(2026, 10, 27, 2, 0, 0);
const event = (n: number, overrides: Partial<NewDomainEvent> = {}): NewDomainEvent => ({
  type: 'token.created',
  at: T0 + n,
  concerns: `user-${n}`,
  data: { id: `token-${n}`, name: 'Zoë ☕', permissions: ['Cryptography::*'], quota: null },
  ...overrides,
});
const entryWith = (events: readonly NewDomainEvent[]): AuditEntry => ({
  at: T0,
  action: 'token.create',
  actor: { uid: null, username: null, tokenId: null, via: 'cli' },
  target: { type: 'token', id: 'token-1', label: 'ci' },
  changes: {},
  address: null,
  requestId: null,
  outcome: 'success',
  concerns: 'user-1',
  events,
});
const withoutIds = (events: readonly NewDomainEvent[]) =>
  events.map(({ id: _, ...event }: NewDomainEvent & { id?: string }) => event);

for (const adapter of adapters) {
  describe(`contract: the event log (${adapter.name})`, () => {
    let opened: OpenedLog;
    beforeEach(async () => {
      opened = await adapter.open();
    });
    afterEach(() => opened.close());

    it("keeps an entry's events, field by field, oldest first, until they are marked handled", async () => {
      const [a, b, c] = [event(1), event(2, { type: 'user.blocked', concerns: null }), event(3)];
      await opened.writeEntry(entryWith([a, b]));
      await opened.log.append([c]);
      const unhandled = await opened.log.unhandled(10);
      expect(withoutIds(unhandled)).to.deep.equal([a, b, c]);
      expect(new Set(unhandled.map((one) => one.id)).size).to.equal(3);
      expect(withoutIds(await opened.log.unhandled(2))).to.deep.equal([a, b]);
      await opened.log.markHandled([unhandled[0]!.id, unhandled[2]!.id]);
      expect(withoutIds(await opened.log.unhandled(10))).to.deep.equal([b]);
      await opened.log.markHandled([]);
      expect(await opened.log.unhandled(10)).to.have.length(1);
    });

    it('writes an event of a key once, whoever appends it again and however often, handled or not', async () => {
      const notice = event(1, { type: 'token.expiring', key: 'token.expiring:7d:token-1' });
      await opened.log.append([notice, event(2)]);
      await opened.log.append([{ ...notice, at: T0 + 9 }]);
      expect(withoutIds(await opened.log.unhandled(10))).to.deep.equal([notice, event(2)]);
      await opened.log.markHandled((await opened.log.unhandled(10)).map((one) => one.id));
      await opened.log.append([notice, event(3, { key: 'token.expiring:1d:token-1' })]);
      expect(withoutIds(await opened.log.unhandled(10))).to.deep.equal([
        event(3, { key: 'token.expiring:1d:token-1' }),
      ]);
    });

    it('forgets handed-on events before a time, keys and all, and never one that waits', async () => {
      const notice = event(1, { type: 'token.expiring', key: 'token.expiring:1d:token-1' });
      const waiting = event(2, { key: 'token.expiring:1d:token-2' });
      await opened.log.append([notice, event(3)]);
      await opened.log.markHandled((await opened.log.unhandled(10)).map((one) => one.id));
      await opened.log.append([waiting]);
      await opened.log.removeHandledBefore(T0 + 100, 100);
      expect(withoutIds(await opened.log.unhandled(10))).to.deep.equal([waiting]);
      // Forgotten: the same key is written anew; the waiting one's is still kept.
      await opened.log.append([notice, waiting]);
      expect(withoutIds(await opened.log.unhandled(10))).to.deep.equal([waiting, notice]);
    });

    it('keeps handed-on events of and after the time given', async () => {
      const notice = event(50, { key: 'quota.threshold:user:u:0:80' });
      await opened.log.append([notice]);
      await opened.log.markHandled((await opened.log.unhandled(10)).map((one) => one.id));
      await opened.log.removeHandledBefore(T0 + 50, 100);
      await opened.log.append([notice]);
      expect(await opened.log.unhandled(10)).to.deep.equal([]);
    });

    it('gives later events greater ids', async () => {
      await opened.log.append([event(1)]);
      await opened.log.append([event(2)]);
      const [first, second] = await opened.log.unhandled(10);
      expect(Number(second!.id)).to.be.greaterThan(Number(first!.id));
    });

    it('keeps no event of a change that failed: the event stands or falls with its cause', async () => {
      await opened.writeEntryAndFail(entryWith([event(1)]));
      expect(await opened.log.unhandled(10)).to.deep.equal([]);
    });
  });
}
