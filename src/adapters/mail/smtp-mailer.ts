import { createRequire } from 'node:module';
import type nodemailer from 'nodemailer';
import type { DeliveryOutcome, Mailer, RenderedMessage } from '../../domain/mail/ports.js';
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

/**
 * What a failed send means. A permanent answer (5xx) refuses the message; a temporary one (4xx),
 * a connection that fails or a server that falls silent may pass, so the message is tried again.
 * So is a login the server refuses: that is the installation's settings to fix, not the message's fault.
 */
export function outcomeOfFailure(error: SmtpError): DeliveryOutcome {
  const responseCode = typeof error.responseCode === 'number' ? error.responseCode : undefined;
  const said = typeof error.response === 'string' && error.response !== '' ? error.response : String(error.message ?? 'unknown failure');
  const reason = responseCode === undefined ? `${typeof error.code === 'string' ? `${error.code}: ` : ''}${said}` : said;
  if (error.code !== 'EAUTH' && responseCode !== undefined && responseCode >= 500 && responseCode < 600) return { kind: 'refused', reason };
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
      await this.transport.sendMail(composedMessage(message));
      return { kind: 'accepted' };
    } catch (error) {
      return outcomeOfFailure(error as SmtpError);
    }
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
