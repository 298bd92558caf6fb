import type { Knex } from 'knex';
import { toNumber } from '../../../platform/persistence/columns.js';
import {
  anyDue,
  claimDue,
  NO_LEASE,
  releaseLeases,
  type LeaseQueue,
} from '../../../platform/persistence/lease-queue.js';
import {
  oldestDueFirst,
  type DeliveryAttempt,
  type DeliverySettlement,
  type DeliveryStatus,
  type NewDelivery,
  type WebhookDelivery,
} from '../domain/delivery.js';
import type { DeliveryClaim, DeliveryFilter, WebhookDeliveries } from '../domain/ports.js';

export const DELIVERIES_TABLE = 'webhook_deliveries';

/** Deliveries as a queue of the platform's kit: queued ones, due first, then oldest. */
const DELIVERY_QUEUE: LeaseQueue = {
  table: DELIVERIES_TABLE,
  status: 'status',
  waiting: 'queued',
  dueAt: 'next_attempt_at',
  order: ['created_at'],
};

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  status: string;
  attempts: string;
  created_at: number | string;
  next_attempt_at: number | string;
  last_error: string | null;
  lease_owner: string | null;
  lease_until: number | string | null;
}

const deliveryOf = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  endpointId: row.endpoint_id,
  eventId: row.event_id,
  eventType: row.event_type,
  payload: row.payload,
  status: row.status as DeliveryStatus,
  attempts: JSON.parse(row.attempts) as DeliveryAttempt[],
  createdAt: toNumber(row.created_at),
  nextAttemptAt: toNumber(row.next_attempt_at),
  lastError: row.last_error,
});

/**
 * Webhook deliveries in SQL (SQLite or PostgreSQL), claimed with the platform's lease queue, as
 * the mail outbox is. A delivery's attempts are a JSON list in its row: a delivery has a few
 * dozen at most (retries end after webhooks.retryForHours).
 */
export class KnexWebhookDeliveries implements WebhookDeliveries {
  constructor(private readonly db: Knex) {}

  async enqueue(deliveries: readonly NewDelivery[]): Promise<number> {
    if (deliveries.length === 0) return 0;
    const rows = deliveries.map((delivery) => ({
      id: delivery.id,
      endpoint_id: delivery.endpointId,
      event_id: delivery.eventId,
      event_type: delivery.eventType,
      payload: delivery.payload,
      status: 'queued',
      attempts: '[]',
      created_at: delivery.createdAt,
      next_attempt_at: delivery.createdAt,
      last_error: null,
      ...NO_LEASE,
    }));
    // Another instance may have handed on the same event at once: its deliveries stand, these are dropped.
    const inserted = await this.db(DELIVERIES_TABLE)
      .insert(rows)
      .onConflict(['endpoint_id', 'event_id'])
      .ignore()
      .returning('id');
    return inserted.length;
  }

  async claim(claim: DeliveryClaim): Promise<readonly WebhookDelivery[]> {
    if (!(await anyDue(this.db, DELIVERY_QUEUE, claim.now))) return [];
    const rows = await this.db.transaction((trx) => claimDue<DeliveryRow>(trx, DELIVERY_QUEUE, claim));
    return rows.map(deliveryOf).sort(oldestDueFirst);
  }

  async settle(id: string, worker: string, settlement: DeliverySettlement): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const held = (await trx(DELIVERIES_TABLE)
        .where({ id, lease_owner: worker, status: 'queued' })
        .first('attempts')) as Pick<DeliveryRow, 'attempts'> | undefined;
      if (held === undefined) return false;
      const attempts = [...(JSON.parse(held.attempts) as DeliveryAttempt[]), settlement.attempt];
      const updated = await trx(DELIVERIES_TABLE)
        .where({ id, lease_owner: worker, status: 'queued' })
        .update({
          status: settlement.status,
          attempts: JSON.stringify(attempts),
          next_attempt_at: settlement.nextAttemptAt,
          last_error: settlement.lastError,
          ...NO_LEASE,
        });
      return updated > 0;
    });
  }

  release(worker: string, ids?: readonly string[]): Promise<number> {
    return releaseLeases(this.db, DELIVERY_QUEUE, worker, ids);
  }

  async find(id: string): Promise<WebhookDelivery | undefined> {
    const row = (await this.db(DELIVERIES_TABLE).where({ id }).first()) as DeliveryRow | undefined;
    return row && deliveryOf(row);
  }

  async list({ endpointId, status, limit, before }: DeliveryFilter): Promise<readonly WebhookDelivery[]> {
    const query = this.db(DELIVERIES_TABLE).where({ endpoint_id: endpointId });
    if (status !== undefined) void query.where({ status });
    if (before !== undefined)
      void query.andWhere((older) =>
        older
          .where('created_at', '<', before.createdAt)
          .orWhere((same) => same.where('created_at', before.createdAt).andWhere('id', '<', before.id)),
      );
    const rows = (await query
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit)) as DeliveryRow[];
    return rows.map(deliveryOf);
  }

  async requeue(id: string, now: number): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      if ((await trx(DELIVERIES_TABLE).where({ id }).first('id')) === undefined) return false;
      await trx(DELIVERIES_TABLE)
        .where({ id })
        .whereNot({ status: 'queued' })
        .update({ status: 'queued', next_attempt_at: now, last_error: null, ...NO_LEASE });
      return true;
    });
  }
}
