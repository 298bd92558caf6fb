import * as t from 'io-ts';
import { isAddress } from './domain/addresses.js';
import { MAX_RECIPIENTS } from './domain/message.js';
import {
  asBoolean,
  asInteger,
  asIntegerOrOff,
  asString,
  checked,
  intInRange,
  trueOrFalse,
  type SettingsSection,
} from '../../platform/config/codecs.js';

/** Where mail goes: an SMTP server's URL (`smtp://` or `smtps://`), or `memory` (kept in the process, for tests). */
const SmtpUrlOrMemory = checked('an smtp:// or smtps:// URL, or "memory"', (u): u is string => {
  if (u === 'memory') return true;
  if (typeof u !== 'string' || !URL.canParse(u)) return false;
  const url = new URL(u);
  return /^smtps?:$/.test(url.protocol) && url.hostname !== '';
});

/** A number of recipients a user may send to in a window, or null for no limit. */
const RecipientLimit = checked(
  `an integer from ${MAX_RECIPIENTS} to 100000000, or null ("off" in the environment) for no limit`,
  (u): u is number | null =>
    u === null || (typeof u === 'number' && Number.isInteger(u) && u >= MAX_RECIPIENTS && u <= 100_000_000),
);

const EmailAddress = checked(
  'an email address such as noreply@example.com',
  (u): u is string => typeof u === 'string' && isAddress(u),
);
export const MailSettingsCodec = t.type({
  /** The address every message is sent from; a caller chooses only the display name. */
  from: EmailAddress,
  /** Where messages go: an SMTP server, `memory`, or null for `.eml` files under `<dataDir>/mail`. */
  smtpUrl: t.union([SmtpUrlOrMemory, t.null]),
  /** Whether this process delivers the outbox (the CLI never does). */
  worker: trueOrFalse,
  /** Attempts before a message that keeps failing for a passing reason is marked failed. */
  maxAttempts: intInRange(1, 100),
  /** The wait after a first failed attempt, doubled after each further one (with jitter), up to retryMaxMs. */
  retryBaseMs: intInRange(1, 86_400_000),
  retryMaxMs: intInRange(1, 604_800_000),
  /**
   * How long a claimed message is a worker's alone. A quarter of it is the SMTP time-out, so a
   * send ends well within its lease; a worker that dies holding messages delays them this long.
   */
  leaseMs: intInRange(100, 3_600_000),
  /** How often an idle worker looks for due messages (one accepted by its own process wakes it at once). */
  pollIntervalMs: intInRange(10, 3_600_000),
  /** Connections kept open to the SMTP server; twice as many messages are in flight at once. */
  smtpConnections: intInRange(1, 100),
  /** The largest `content`, in UTF-8 bytes, as written and with its variables filled in. */
  maxContentBytes: intInRange(1024, 10_485_760),
  /**
   * The most bytes a message's attachments may have together, decoded. The body of POST
   * /mail/send grows with it (base64 takes 4 bytes for 3), so 25 MB is the most it may be.
   */
  maxAttachmentBytes: intInRange(1024, 26_214_400),
  /**
   * Recipients (to, cc and bcc together) one user's messages may have in any hour, and in any
   * day, counted from the outbox across instances; beyond, 429/25 with Retry-After. At least
   * one message's most, so that every message fits once the window has passed; null for no limit
   * (nothing counted).
   */
  maxRecipientsPerHour: RecipientLimit,
  maxRecipientsPerDay: RecipientLimit,
});
export type MailSettings = t.TypeOf<typeof MailSettingsCodec>;

/** The `mail` section of the settings files: its codec, its defaults and the environment variables that override it. */
export const mailSettings: SettingsSection<'mail', MailSettings> = {
  key: 'mail',
  codec: MailSettingsCodec,
  defaults: {
    from: 'utility-api@localhost',
    smtpUrl: null,
    worker: true,
    maxAttempts: 8,
    retryBaseMs: 30000,
    retryMaxMs: 3600000,
    leaseMs: 120000,
    pollIntervalMs: 1000,
    smtpConnections: 5,
    maxContentBytes: 262144,
    maxAttachmentBytes: 5242880,
    maxRecipientsPerHour: 500,
    maxRecipientsPerDay: 2000,
  },
  environment: [
    { name: 'UTILITY_API_MAIL_FROM', path: 'from', parse: asString },
    { name: 'UTILITY_API_SMTP_URL', path: 'smtpUrl', parse: asString },
    { name: 'UTILITY_API_MAIL_WORKER', path: 'worker', parse: asBoolean },
    { name: 'UTILITY_API_MAIL_MAX_ATTEMPTS', path: 'maxAttempts', parse: asInteger },
    { name: 'UTILITY_API_MAIL_LEASE_MS', path: 'leaseMs', parse: asInteger },
    { name: 'UTILITY_API_MAIL_MAX_ATTACHMENT_BYTES', path: 'maxAttachmentBytes', parse: asInteger },
    { name: 'UTILITY_API_MAIL_MAX_RECIPIENTS_PER_HOUR', path: 'maxRecipientsPerHour', parse: asIntegerOrOff },
    { name: 'UTILITY_API_MAIL_MAX_RECIPIENTS_PER_DAY', path: 'maxRecipientsPerDay', parse: asIntegerOrOff },
  ],
  check: ({ retryBaseMs, retryMaxMs }) =>
    retryMaxMs < retryBaseMs
      ? [`Invalid setting mail.retryMaxMs: expected at least mail.retryBaseMs (${retryBaseMs}), got ${retryMaxMs}`]
      : [],
};
