import { createHash } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { actorHolds, actorUser, type Actor } from '../../../domain/identity/actor.js';
import { invalidInput, type DomainError, type OutageError } from '../../../domain/errors.js';
import { orOutage } from '../../../domain/outage.js';
import { MailPermission } from './permissions.js';
import type { Clock, Randomness } from '../../../domain/ports.js';
import { domainOf } from './addresses.js';
import { checkMail, type CheckedMail, type MailLimits, type MailRequest } from './message.js';
import type { IdempotencyClaim, Outbox } from './ports.js';
import { DAY_MS, HOUR_MS, type QuotaWindow } from './quota.js';
import { recipientCount } from './recipients.js';

export const OUTBOX_DOWN: OutageError = { _tag: 'Unknown', details: 'mail outbox unavailable' };

/** 1 to 255 printable ASCII characters, as the httpapi draft's Idempotency-Key and Stripe's. */
export const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_RULE = '1 to 255 printable ASCII characters';
/** How long a key answers for the request it first came with. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

export interface MailSettings extends MailLimits {
  /** The installation's sender address (`mail.from`): nobody sends as another. */
  readonly from: string;
  /** Recipients a user's messages may have in any hour, and in any day (the operator's are not counted); null for no limit. */
  readonly maxRecipientsPerHour: number | null;
  readonly maxRecipientsPerDay: number | null;
}

export interface SendMailInput {
  readonly actor: Actor;
  readonly mail: MailRequest;
  /** The same key from the same token within 24 hours answers the first request again and stores nothing. */
  readonly idempotencyKey?: string;
}

export interface Accepted {
  readonly id: string;
  readonly status: 'queued';
  readonly messageId: string;
  /** True when this answers an earlier request with the same Idempotency-Key. */
  readonly replayed: boolean;
}

/** Whose keys are these: a token's, a user's who gave their password, or the operator's. */
function idempotencyScope(actor: Actor): string {
  switch (actor.kind) {
    case 'principal':
      return `token:${actor.principal.token.id}`;
    case 'password':
      return `user:${actor.user.id}`;
    case 'operator':
      return 'operator';
  }
}

/** What two requests must share to be the same request: everything they ask, in one order. */
function requestHash(mail: CheckedMail): string {
  const variables = Object.keys(mail.variables)
    .sort()
    .map((name) => [name, mail.variables[name]]);
  const asked: unknown[] = [
    mail.to,
    mail.cc,
    mail.bcc,
    mail.replyTo,
    mail.fromName,
    mail.subjectAsWritten,
    mail.content,
    variables,
  ];
  // Only when there are any: a key stored before attachments were taken still answers its request.
  if (mail.attachments.length > 0)
    asked.push(
      mail.attachments.map(({ filename, contentType, content }) => [
        filename,
        contentType,
        createHash('sha256').update(content).digest('hex'),
      ]),
    );
  return createHash('sha256').update(JSON.stringify(asked)).digest('hex');
}

/**
 * Accepts a message for delivery: checked, given its id and Message-ID, and stored in the outbox.
 * Accepted means stored: the answer comes once the outbox has committed it, and the worker
 * delivers it from there. `onQueued` tells a worker in this process that there is work.
 */
export class SendMail {
  /** The windows with a limit; none, and nothing is counted. */
  private readonly quota: readonly QuotaWindow[] | undefined;

  constructor(
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly randomness: Randomness,
    private readonly settings: MailSettings,
    private readonly onQueued: () => void = () => {},
  ) {
    const windows = [
      { name: 'an hour', lengthMs: HOUR_MS, limit: settings.maxRecipientsPerHour },
      { name: 'a day', lengthMs: DAY_MS, limit: settings.maxRecipientsPerDay },
    ].filter((window): window is QuotaWindow => window.limit !== null);
    this.quota = windows.length > 0 ? windows : undefined;
  }

  async execute({ actor, mail, idempotencyKey }: SendMailInput): Promise<E.Either<DomainError, Accepted>> {
    if (!actorHolds(actor, MailPermission.MailSend))
      return E.left({ _tag: 'NotAuthorized', permission: MailPermission.MailSend });
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      return E.left(invalidInput('idempotencyKey', `the idempotency key must be ${IDEMPOTENCY_KEY_RULE}`));
    }
    const checked = checkMail(mail, this.settings);
    if (E.isLeft(checked)) return checked;
    const now = this.clock.now();
    const id = this.randomness.uuid();
    const messageId = `<${id}@${domainOf(this.settings.from)}>`;
    const { subject, content, variables, to, cc, bcc, replyTo, fromName, attachments } = checked.right;
    const idempotency: IdempotencyClaim | undefined =
      idempotencyKey === undefined
        ? undefined
        : {
            scope: idempotencyScope(actor),
            key: idempotencyKey,
            requestHash: requestHash(checked.right),
            expiredBefore: now - IDEMPOTENCY_KEY_TTL_MS,
          };
    const stored = await orOutage(
      this.outbox.enqueue(
        {
          id,
          messageId,
          senderUserId: actorUser(actor)?.id ?? null,
          fromAddress: this.settings.from,
          fromName,
          to,
          cc,
          bcc,
          replyTo,
          subject,
          content,
          variables,
          attachments,
          createdAt: now,
          nextAttemptAt: now,
        },
        idempotency,
        this.quota,
      ),
      OUTBOX_DOWN,
    );
    if (E.isLeft(stored)) return stored;
    switch (stored.right.kind) {
      case 'queued':
        this.onQueued();
        return E.right({ id, status: 'queued', messageId, replayed: false });
      case 'replayed':
        return E.right({ id: stored.right.id, status: 'queued', messageId: stored.right.messageId, replayed: true });
      case 'conflict':
        return E.left({ _tag: 'IdempotencyKeyReused', key: idempotencyKey! });
      case 'overQuota': {
        const { window, retryAt } = stored.right;
        const retryAfterSeconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
        const details = `A user's messages may have at most ${window.limit} recipients in ${window.name}; this one's ${recipientCount(checked.right)} would pass that. Try again in ${retryAfterSeconds} s`;
        return E.left({ _tag: 'MailQuotaExceeded', retryAfterSeconds, details });
      }
    }
  }
}
