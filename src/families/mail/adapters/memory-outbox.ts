import type { NewDomainEvent } from '../../../domain/events.js';
import type { MemoryEventLog } from '../../../platform/events/memory-event-log.js';
import type { Attachment } from '../domain/attachments.js';
import type { MessageStatus } from '../domain/message.js';
import { fitsIn, longestOf, roomAt, windowStart, type QuotaRefusal, type QuotaWindow } from '../domain/quota.js';
import { recipientCount, reopenRefused } from '../domain/recipients.js';
import {
  oldestDueFirst,
  settledMessage,
  type ClaimRequest,
  type EnqueueOutcome,
  type IdempotencyClaim,
  type NewMessage,
  type Outbox,
  type OutboxFilter,
  type OutboxMessage,
  type Settlement,
} from '../domain/ports.js';

interface Lease {
  readonly worker: string;
  readonly until: number;
}

interface StoredKey {
  readonly requestHash: string;
  readonly messageId: string;
  readonly createdAt: number;
}

/** Newest first; messages made in the same millisecond by id, as the SQL outbox orders them. */
const newestFirst = (a: OutboxMessage, b: OutboxMessage) =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** The outbox in memory, for tests and for running without a database: what a restart forgets is lost. */
export class MemoryOutbox implements Outbox {
  private readonly messages = new Map<
    string,
    { message: OutboxMessage; readonly attachments: readonly Attachment[] }
  >();
  private readonly leases = new Map<string, Lease>();
  private readonly keys = new Map<string, StoredKey>();

  /** `events`: where the events of a settlement go, in its step (the storage's memory event log). */
  constructor(private readonly events?: MemoryEventLog) {}

  async enqueue(
    message: NewMessage,
    idempotency?: IdempotencyClaim,
    quota?: readonly QuotaWindow[],
  ): Promise<EnqueueOutcome> {
    const keyOf = idempotency && `${idempotency.scope}\u0000${idempotency.key}`;
    if (idempotency && keyOf !== undefined) {
      const earlier = this.keys.get(keyOf);
      if (earlier && earlier.createdAt > idempotency.expiredBefore) {
        if (earlier.requestHash !== idempotency.requestHash) return { kind: 'conflict' };
        const first = this.messages.get(earlier.messageId)!.message;
        return { kind: 'replayed', id: first.id, messageId: first.messageId };
      }
    }
    if (quota !== undefined && message.senderUserId !== null) {
      const refusal = this.quotaRefusal(message, message.senderUserId, quota);
      if (refusal !== undefined) return { kind: 'overQuota', ...refusal };
    }
    if (idempotency && keyOf !== undefined)
      this.keys.set(keyOf, {
        requestHash: idempotency.requestHash,
        messageId: message.id,
        createdAt: message.createdAt,
      });
    const { attachments, ...stored } = message;
    this.messages.set(message.id, {
      message: { ...stored, status: 'queued', attempts: 0, sentAt: null, lastError: null, recipientOutcomes: [] },
      // Copies, so that a caller's buffer changed afterwards does not change what is sent.
      attachments: attachments.map((attachment) => ({ ...attachment, content: Buffer.from(attachment.content) })),
    });
    return { kind: 'queued' };
  }

  private quotaRefusal(message: NewMessage, sender: string, windows: readonly QuotaWindow[]): QuotaRefusal | undefined {
    const asked = recipientCount(message);
    const theirs = [...this.messages.values()]
      .map((entry) => entry.message)
      .filter((earlier) => earlier.senderUserId === sender)
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
      .map((earlier) => ({ createdAt: earlier.createdAt, recipients: recipientCount(earlier) }));
    const refusals = windows.flatMap((window): QuotaRefusal[] => {
      const inWindow = theirs.filter((earlier) => earlier.createdAt > windowStart(window, message.createdAt));
      const used = inWindow.reduce((sum, earlier) => sum + earlier.recipients, 0);
      return fitsIn(window, used, asked) ? [] : [{ window, retryAt: roomAt(window, inWindow, asked) }];
    });
    return longestOf(refusals);
  }

  async claim({ worker, now, leaseUntil, limit }: ClaimRequest): Promise<readonly OutboxMessage[]> {
    const due = [...this.messages.values()]
      .map((entry) => entry.message)
      .filter(
        (message) =>
          message.status === 'queued' &&
          message.nextAttemptAt <= now &&
          (this.leases.get(message.id)?.until ?? 0) <= now,
      )
      .sort(oldestDueFirst)
      .slice(0, limit);
    for (const message of due) this.leases.set(message.id, { worker, until: leaseUntil });
    return due;
  }

  async settle(
    id: string,
    worker: string,
    settlement: Settlement,
    events?: readonly NewDomainEvent[],
  ): Promise<boolean> {
    const entry = this.messages.get(id);
    if (!entry || entry.message.status !== 'queued' || this.leases.get(id)?.worker !== worker) return false;
    this.leases.delete(id);
    entry.message = settledMessage(entry.message, settlement);
    this.events?.appendNow(events);
    return true;
  }

  async release(worker: string, ids?: readonly string[]): Promise<number> {
    let released = 0;
    for (const [id, lease] of this.leases) {
      if (lease.worker !== worker || (ids !== undefined && !ids.includes(id))) continue;
      this.leases.delete(id);
      released += 1;
    }
    return released;
  }

  async find(id: string): Promise<OutboxMessage | undefined> {
    return this.messages.get(id)?.message;
  }

  async attachments(id: string): Promise<readonly Attachment[]> {
    return this.messages.get(id)?.attachments ?? [];
  }

  async countByStatus(): Promise<Readonly<Record<MessageStatus, number>>> {
    const counts: Record<MessageStatus, number> = { queued: 0, sent: 0, failed: 0 };
    for (const { message } of this.messages.values()) counts[message.status] += 1;
    return counts;
  }

  async list({ status, limit, senderUserId, before }: OutboxFilter): Promise<readonly OutboxMessage[]> {
    return [...this.messages.values()]
      .map((entry) => entry.message)
      .filter(
        (message) =>
          (status === undefined || message.status === status) &&
          (senderUserId === undefined || message.senderUserId === senderUserId) &&
          (before === undefined || newestFirst(message, { ...message, ...before }) > 0),
      )
      .sort(newestFirst)
      .slice(0, limit);
  }

  async forgetKeys(expiredBefore: number): Promise<number> {
    let forgotten = 0;
    for (const [key, stored] of this.keys) {
      if (stored.createdAt > expiredBefore) continue;
      this.keys.delete(key);
      forgotten += 1;
    }
    return forgotten;
  }

  async requeue(id: string, now: number): Promise<'queued' | 'not failed' | 'missing'> {
    const entry = this.messages.get(id);
    if (!entry) return 'missing';
    if (entry.message.status !== 'failed') return 'not failed';
    entry.message = {
      ...entry.message,
      status: 'queued',
      attempts: 0,
      nextAttemptAt: now,
      recipientOutcomes: reopenRefused(entry.message.recipientOutcomes),
    };
    return 'queued';
  }
}
