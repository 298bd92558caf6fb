import type { Knex } from 'knex';
import type { DomainEvent, EventLog, EventType, NewDomainEvent } from '../../domain/events.js';
import { toBoolean, toNumber } from '../persistence/columns.js';
import type { Migration } from '../persistence/migrations.js';

export const EVENTS_TABLE = 'domain_events';

interface EventRow {
  id: number | string;
  type: string;
  at: number | string;
  concerns: string | null;
  data: string;
  handled: boolean | number;
  key: string | null;
}

export const EVENTS_MIGRATION: Migration = {
  name: '0018_domain_events',
  async up(db) {
    await db.schema.createTable(EVENTS_TABLE, (table) => {
      table.bigIncrements('id');
      table.string('type', 32).notNullable();
      table.bigInteger('at').notNullable();
      table.string('concerns', 36);
      table.text('data').notNullable();
      table.boolean('handled').notNullable().defaultTo(false);
      // One event per key, for those announced once (a token about to expire); null for the others.
      table.string('key', 100).unique();
      // Listeners read the unhandled ones oldest first.
      table.index(['handled', 'id']);
    });
  },
  async down(db) {
    await db.schema.dropTable(EVENTS_TABLE);
  },
};

const rowOf = (event: NewDomainEvent): Omit<EventRow, 'id' | 'handled'> => ({
  key: event.key ?? null,
  type: event.type,
  at: event.at,
  concerns: event.concerns,
  data: JSON.stringify(event.data),
});

const eventOf = (row: EventRow): DomainEvent => ({
  id: String(row.id),
  type: row.type as EventType,
  at: toNumber(row.at),
  concerns: row.concerns,
  data: JSON.parse(row.data) as Record<string, unknown>,
  ...(row.key !== null && { key: row.key }),
});

/** Writes events with whatever `db` is: a store's open transaction, so that they stand or fall with their cause. */
export async function appendEvents(
  db: Knex | Knex.Transaction,
  events: readonly NewDomainEvent[] | undefined,
): Promise<void> {
  if (events !== undefined && events.length > 0)
    await db(EVENTS_TABLE).insert(events.map(rowOf)).onConflict('key').ignore();
}

/** The event log in the service's database, beside the rows whose changes it reports. */
export class KnexEventLog implements EventLog {
  constructor(private readonly db: Knex) {}

  async unhandled(limit: number): Promise<readonly DomainEvent[]> {
    const rows = (await this.db(EVENTS_TABLE).where({ handled: false }).orderBy('id').limit(limit)) as EventRow[];
    return rows.filter((row) => !toBoolean(row.handled)).map(eventOf);
  }

  async markHandled(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.db(EVENTS_TABLE).whereIn('id', ids).update({ handled: true });
  }

  append(events: readonly NewDomainEvent[]): Promise<void> {
    return appendEvents(this.db, events);
  }

  removeHandledBefore(before: number, limit: number): Promise<number> {
    const oldest = this.db(EVENTS_TABLE).select('id').where({ handled: true }).andWhere('at', '<', before).limit(limit);
    return this.db(EVENTS_TABLE).whereIn('id', oldest).delete();
  }
}
