import { createRequire } from 'node:module';
import type nodemailer from 'nodemailer';
import { asciiAddress } from '../domain/addresses.js';
import type { DeliveryOutcome, Mailer, RecipientRefusal, RenderedMessage } from '../domain/ports.js';
import { composedMessage } from './nodemailer-message.js';

export interface SmtpSettings {
  /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465`. */
  readonly url: string;
  /** Connections kept open to the server, each sending one message at a time. */
  readonly connections: number;
  /** How long connecting, the server's greeting and any silence of the server may take. */
  readonly timeoutMs: number;
}

interface SmtpError {
  readonly code?: unknown;
  readonly responseCode?: unknown;
  readonly response?: unknown;
  readonly message?: unknown;
}

/** Nodemailer's account of the recipients the server refused at RCPT TO: on a send's result, or on its error when it refused them all. */
interface Rejections {
  readonly rejected?: unknown;
  readonly rejectedErrors?: unknown;
}

/** What the server said, as it said it. */
const saidBy = (error: SmtpError): string =>
  typeof error.response === 'string' && error.response !== ''
    ? error.response
    : String(error.message ?? 'unknown failure');

/**
 * The recipients the server refused one by one, by the addresses the message names (the envelope
 * carries their ASCII form): a 4xx answer refuses for now, a 5xx for good. A recipient nodemailer
 * lists as rejected with no answer recorded counts as refused for now.
 */
function refusalsOf({ rejected, rejectedErrors }: Rejections, envelopeTo: readonly string[]): RecipientRefusal[] {
  const named = new Map(envelopeTo.map((address) => [asciiAddress(address).toLowerCase(), address]));
  const refusals = new Map<string, RecipientRefusal>();
  const errors = Array.isArray(rejectedErrors) ? (rejectedErrors as (SmtpError & { recipient?: unknown })[]) : [];
  for (const error of errors) {
    const address = typeof error.recipient === 'string' ? named.get(error.recipient.toLowerCase()) : undefined;
    if (address === undefined) continue;
    const responseCode = typeof error.responseCode === 'number' ? error.responseCode : undefined;
    refusals.set(address, {
      address,
      temporary: responseCode === undefined || responseCode < 500,
      reason: saidBy(error),
    });
  }
  for (const recipient of Array.isArray(rejected) ? (rejected as unknown[]) : []) {
    const address = typeof recipient === 'string' ? named.get(recipient.toLowerCase()) : undefined;
    if (address !== undefined && !refusals.has(address))
      refusals.set(address, { address, temporary: true, reason: 'refused by the server, no reason given' });
  }
  return [...refusals.values()];
}

/** The outcome with the recipients refused one by one, when there are any. */
const withRefusals = (
  outcome: DeliveryOutcome,
  rejections: Rejections,
  envelopeTo: readonly string[],
): DeliveryOutcome => {
  const refusals = refusalsOf(rejections, envelopeTo);
  return refusals.length === 0 ? outcome : { ...outcome, refusals };
};

/**
 * What a failed send means. A permanent answer (5xx) refuses the message; a temporary one (4xx),
 * a connection that fails or a server that falls silent may pass, so the message is tried again.
 * So is a login the server refuses: that is the installation's settings to fix, not the message's fault.
 */
export function outcomeOfFailure(error: SmtpError): DeliveryOutcome {
  const responseCode = typeof error.responseCode === 'number' ? error.responseCode : undefined;
  const said = saidBy(error);
  const reason =
    responseCode === undefined ? `${typeof error.code === 'string' ? `${error.code}: ` : ''}${said}` : said;
  if (error.code !== 'EAUTH' && responseCode !== undefined && responseCode >= 500 && responseCode < 600)
    return { kind: 'refused', reason };
  return { kind: 'retry', reason };
}

/** SMTP through nodemailer's pool: a few kept-open connections, each message sent on a free one. */
export class SmtpMailer implements Mailer {
  private readonly transport;

  constructor({ url, connections, timeoutMs }: SmtpSettings) {
    // Loaded when an installation configures it, not at every start: it costs memory that most never use.
    const { createTransport } = createRequire(import.meta.url)('nodemailer') as typeof nodemailer;
    this.transport = createTransport({
      url,
      pool: true,
      maxConnections: connections,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    // Each send's own failure answers that send; a pool-level error has nobody else to tell.
    this.transport.on('error', () => {});
  }

  async send(message: RenderedMessage): Promise<DeliveryOutcome> {
    try {
      const info = (await this.transport.sendMail(composedMessage(message))) as Rejections;
      return withRefusals({ kind: 'accepted' }, info, message.envelopeTo);
    } catch (error) {
      return withRefusals(outcomeOfFailure(error as SmtpError), error as Rejections, message.envelopeTo);
    }
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
