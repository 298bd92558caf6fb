import { identifier } from './identifier.js';

/**
 * What the service announces to those who listen (webhooks): each event is written in the same
 * transaction as the change it reports, beside that change's audit entry, so that an event exists
 * exactly when its cause does.
 */
export const EVENT_TYPES = [
  'token.created',
  'token.rotated',
  'token.disabled',
  'token.deleted',
  'token.expiring',
  'quota.threshold',
  'user.blocked',
  'user.unblocked',
  'user.deleted',
  'mail.delivered',
  'mail.failed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** An event as its cause writes it: no secret, ever, in `data`. */
export interface NewDomainEvent {
  readonly type: EventType;
  /** When what it reports happened, in milliseconds since the epoch. */
  readonly at: number;
  /** The user whose own token, mail or account it is about; null when none is (an operator's mail). */
  readonly concerns: string | null;
  /** What it is about, as the API shows it (`token/info`, `user/get`, `mail/status`). */
  readonly data: Readonly<Record<string, unknown>>;
  /**
   * For an event announced once whoever notices it and however often (a token about to expire):
   * the log keeps one event per key, written by the first to append it.
   */
  readonly key?: string;
}

/** An event as the log keeps it, by an id that grows with every event written. */
export interface DomainEvent extends NewDomainEvent {
  readonly id: string;
}

/**
 * Where events wait for their listeners to take them. Every method rejects only on outages.
 * Taking is at least once: an event handed on twice by two instances at once is made idempotent
 * by whoever takes it (webhooks: one delivery per event and endpoint).
 */
export interface EventLog {
  /** Events not yet handed on, oldest first, at most `limit`. */
  unhandled(limit: number): Promise<readonly DomainEvent[]>;
  markHandled(ids: readonly string[]): Promise<void>;
  /** Writes events on their own, for a cause whose change is nothing stored (a time reached, a quota passed); one of a key already written is left out. */
  append(events: readonly NewDomainEvent[]): Promise<void>;
  /**
   * Forgets up to `limit` handed-on events that happened before `before`, keys and all (a key is
   * of no more use once what it stands for is over: a token expired, a quota's period ended).
   * Answers how many it forgot.
   */
  removeHandledBefore(before: number, limit: number): Promise<number>;
}
export const EventLog = identifier<EventLog>('EventLog');
