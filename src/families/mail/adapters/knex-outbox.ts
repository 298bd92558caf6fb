import type { Knex } from 'knex';
import type { NewDomainEvent } from '../../../domain/events.js';
import { appendEvents } from '../../../platform/events/knex-event-log.js';
import type { Attachment } from '../domain/attachments.js';
import type { MessageStatus } from '../domain/message.js';
import {
  oldestDueFirst,
  type ClaimRequest,
  type EnqueueOutcome,
  type IdempotencyClaim,
  type NewMessage,
  type Outbox,
  type OutboxFilter,
  type OutboxMessage,
  type Settlement,
} from '../domain/ports.js';
import { fitsIn, longestOf, roomAt, windowStart, type QuotaRefusal, type QuotaWindow } from '../domain/quota.js';
import { recipientCount, reopenRefused } from '../domain/recipients.js';
import { toNumber } from '../../../platform/persistence/columns.js';
import { GroupCommit } from '../../../platform/persistence/group-commit.js';
import { holdAdvisoryLock } from '../../../platform/persistence/advisory-locks.js';
import {
  anyDue,
  claimDue,
  NO_LEASE,
  releaseLeases,
  type LeaseQueue,
} from '../../../platform/persistence/lease-queue.js';
import {
  MAIL_ATTACHMENTS_TABLE,
  MAIL_KEYS_TABLE,
  MAIL_TABLE,
  settlementColumns,
  toAttachment,
  toAttachmentRows,
  toMessage,
  toOutcomes,
  toRow,
  type AttachmentRow,
  type MessageRow,
} from './outbox-rows.js';

/** The outbox as a queue of the platform's kit: queued messages, due first, then oldest. */
const MAIL_QUEUE: LeaseQueue = {
  table: MAIL_TABLE,
  status: 'status',
  waiting: 'queued',
  dueAt: 'next_attempt_at',
  order: ['created_at'],
};

/**
 * The outbox in two tables (SQLite or PostgreSQL): `mail_messages`, and `mail_idempotency_keys`
 * for the keys of the last 24 hours. Every write goes through one group commit, so acceptances,
 * claims and outcomes that arrive together share a transaction and its disk flush, and a promise
 * resolves only once its write is committed. Acceptances (and an operator's retry) are durable
 * when they resolve; the worker's bookkeeping (claims, outcomes, releases) commits without
 * waiting for the disk: lost to a power cut, a lease is taken again and a sent message sent again
 * (at least once, as after any crash).
 *
 * A claim is the platform's lease queue's (persistence/lease-queue.ts), which webhook deliveries
 * share: one statement, `FOR UPDATE SKIP LOCKED` on PostgreSQL.
 */
export class KnexOutbox implements Outbox {
  private readonly writes: GroupCommit;
  private readonly skipsLocked: boolean;

  constructor(private readonly db: Knex) {
    this.writes = new GroupCommit(db);
    this.skipsLocked = db.client.config.client === 'pg';
  }

  enqueue(
    message: NewMessage,
    idempotency?: IdempotencyClaim,
    quota?: readonly QuotaWindow[],
  ): Promise<EnqueueOutcome> {
    return this.writes.run(async (trx): Promise<EnqueueOutcome> => {
      if (idempotency) {
        const { scope, key, expiredBefore } = idempotency;
        await trx(MAIL_KEYS_TABLE).where({ scope, key }).andWhere('created_at', '<=', expiredBefore).delete();
        // A replay answers the first request even when its sender is over quota now.
        const earlier = await this.earlierAnswer(trx, idempotency);
        if (earlier !== undefined) return earlier;
      }
      if (quota !== undefined && message.senderUserId !== null) {
        const refusal = await this.quotaRefusal(trx, message, message.senderUserId, quota);
        if (refusal !== undefined) return { kind: 'overQuota', ...refusal };
      }
      if (idempotency) {
        const { scope, key, requestHash } = idempotency;
        // Taken or not, in one statement that never fails the transaction: a unique violation would, on PostgreSQL.
        const taken = await trx(MAIL_KEYS_TABLE)
          .insert({ scope, key, request_hash: requestHash, message_id: message.id, created_at: message.createdAt })
          .onConflict(['scope', 'key'])
          .ignore()
          .returning('key');
        // Taken meanwhile by a request on another instance.
        if (taken.length === 0) return (await this.earlierAnswer(trx, idempotency))!;
      }
      await trx(MAIL_TABLE).insert(toRow(message));
      // One row each: a multi-row insert of a few megabytes would be one statement's worth of parameters for nothing.
      for (const row of toAttachmentRows(message)) await trx(MAIL_ATTACHMENTS_TABLE).insert(row);
      return { kind: 'queued' };
    }, 'durable');
  }

  /** What an earlier request with the same key makes of this one: the same request, replayed, or a conflict; undefined when the key is free. */
  private async earlierAnswer(
    trx: Knex.Transaction,
    { scope, key, requestHash }: IdempotencyClaim,
  ): Promise<EnqueueOutcome | undefined> {
    const earlier = (await trx(MAIL_KEYS_TABLE).where({ scope, key }).first()) as
      { request_hash: string; message_id: string } | undefined;
    if (earlier === undefined) return undefined;
    if (earlier.request_hash !== requestHash) return { kind: 'conflict' };
    const first = (await trx(MAIL_TABLE).where({ id: earlier.message_id }).first('id', 'message_id')) as {
      id: string;
      message_id: string;
    };
    return { kind: 'replayed', id: first.id, messageId: first.message_id };
  }

  /**
   * Whether the sender's quota refuses the message: their recipients in each window summed in one
   * query, and only for a window they would pass, their messages in it read to say until when.
   */
  private async quotaRefusal(
    trx: Knex.Transaction,
    message: NewMessage,
    sender: string,
    windows: readonly QuotaWindow[],
  ): Promise<QuotaRefusal | undefined> {
    if (this.skipsLocked) await holdAdvisoryLock(trx, 'mailQuota');
    const now = message.createdAt;
    const asked = recipientCount(message);
    const sums = windows
      .map((_, index) => `coalesce(sum(case when created_at > ? then recipient_count else 0 end), 0) as w${index}`)
      .join(', ');
    const [used] = (await trx(MAIL_TABLE)
      .select(
        trx.raw(
          sums,
          windows.map((window) => windowStart(window, now)),
        ),
      )
      .where({ sender_user_id: sender })
      .andWhere('created_at', '>', Math.min(...windows.map((window) => windowStart(window, now))))) as Record<
      string,
      number | string
    >[];
    const refusals: QuotaRefusal[] = [];
    for (const [index, window] of windows.entries()) {
      if (fitsIn(window, Number(used![`w${index}`]), asked)) continue;
      const inWindow = (await trx(MAIL_TABLE)
        .select('created_at', 'recipient_count')
        .where({ sender_user_id: sender })
        .andWhere('created_at', '>', windowStart(window, now))
        .orderBy([{ column: 'created_at' }, { column: 'id' }])) as Pick<MessageRow, 'created_at' | 'recipient_count'>[];
      const earlier = inWindow.map((row) => ({
        createdAt: toNumber(row.created_at),
        recipients: toNumber(row.recipient_count),
      }));
      refusals.push({ window, retryAt: roomAt(window, earlier, asked) });
    }
    return longestOf(refusals);
  }

  async claim({ worker, now, leaseUntil, limit }: ClaimRequest): Promise<readonly OutboxMessage[]> {
    // An idle worker asks every poll interval: a read answers it, without taking the write lock
    // (SQLite's one writer) or a transaction.
    if (!(await anyDue(this.db, MAIL_QUEUE, now))) return [];
    return this.writes.run(async (trx) => {
      const rows = await claimDue<MessageRow>(trx, MAIL_QUEUE, { worker, now, leaseUntil, limit });
      // RETURNING gives rows in no particular order: oldest due first, as claimed.
      return rows.map(toMessage).sort(oldestDueFirst);
    }, 'relaxed');
  }

  settle(id: string, worker: string, settlement: Settlement, events?: readonly NewDomainEvent[]): Promise<boolean> {
    return this.writes.run(async (trx) => {
      const updated = await trx(MAIL_TABLE)
        .where({ id, lease_owner: worker, status: 'queued' })
        .update({ ...settlementColumns(settlement), ...NO_LEASE });
      // Its events stand or fall with the outcome: a worker that no longer holds the message announces nothing.
      if (updated > 0) await appendEvents(trx, events);
      return updated > 0;
    }, 'relaxed');
  }

  release(worker: string, ids?: readonly string[]): Promise<number> {
    return this.writes.run((trx) => releaseLeases(trx, MAIL_QUEUE, worker, ids), 'relaxed');
  }

  async find(id: string): Promise<OutboxMessage | undefined> {
    const row = (await this.db(MAIL_TABLE).where({ id }).first()) as MessageRow | undefined;
    return row ? toMessage(row) : undefined;
  }

  async attachments(id: string): Promise<readonly Attachment[]> {
    const rows = (await this.db(MAIL_ATTACHMENTS_TABLE)
      .where({ message_id: id })
      .orderBy('position')) as AttachmentRow[];
    return rows.map(toAttachment);
  }

  async list({ status, limit, senderUserId, before }: OutboxFilter): Promise<readonly OutboxMessage[]> {
    const query = this.db(MAIL_TABLE)
      .select<MessageRow[]>()
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit);
    if (status !== undefined) void query.where({ status });
    if (senderUserId !== undefined) void query.where({ sender_user_id: senderUserId });
    if (before !== undefined)
      void query.andWhere((older) =>
        older
          .where('created_at', '<', before.createdAt)
          .orWhere((same) => same.where('created_at', before.createdAt).andWhere('id', '<', before.id)),
      );
    return (await query).map(toMessage);
  }

  async countByStatus(): Promise<Readonly<Record<MessageStatus, number>>> {
    const rows = await this.db(MAIL_TABLE).select('status').count({ n: '*' }).groupBy('status');
    const counts: Record<MessageStatus, number> = { queued: 0, sent: 0, failed: 0 };
    for (const { status, n } of rows as { status: MessageStatus; n: number | string }[]) counts[status] = Number(n);
    return counts;
  }

  forgetKeys(expiredBefore: number): Promise<number> {
    return this.writes.run((trx) => trx(MAIL_KEYS_TABLE).where('created_at', '<=', expiredBefore).delete(), 'relaxed');
  }

  requeue(id: string, now: number): Promise<'queued' | 'not failed' | 'missing'> {
    return this.writes.run(async (trx) => {
      const failed = (await trx(MAIL_TABLE).where({ id, status: 'failed' }).first('recipient_outcomes')) as
        Pick<MessageRow, 'recipient_outcomes'> | undefined;
      if (failed !== undefined) {
        const recipient_outcomes =
          failed.recipient_outcomes === null
            ? null
            : JSON.stringify(reopenRefused(toOutcomes(failed.recipient_outcomes)));
        const updated = await trx(MAIL_TABLE)
          .where({ id, status: 'failed' })
          .update({ status: 'queued', attempts: 0, next_attempt_at: now, recipient_outcomes, ...NO_LEASE });
        if (updated > 0) return 'queued';
      }
      return (await trx(MAIL_TABLE).where({ id }).first('id')) ? 'not failed' : 'missing';
    }, 'durable');
  }
}
