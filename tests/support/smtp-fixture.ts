import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message as the server received it: its SMTP envelope and the message parsed. */
export interface ReceivedMail {
  readonly envelope: { readonly from: string; readonly to: readonly string[] };
  readonly parsed: ParsedMail;
}

/** What the server answers the next message's DATA with: accept it, or an SMTP error. */
export type SmtpAnswer = 'accept' | { readonly code: number; readonly message: string };

export interface SmtpFixture {
  /** `smtp://127.0.0.1:<port>`: plain SMTP, no login, no STARTTLS. */
  readonly url: string;
  /** Accepted messages, in the order they were accepted. */
  readonly received: ReceivedMail[];
  /** Answers for the next messages, first first; once empty, every message is accepted. */
  readonly script: SmtpAnswer[];
  /** Answers to RCPT TO for an address (lower case), first first; once empty (or for an address not named), the recipient is accepted. */
  readonly recipientScript: Map<string, SmtpAnswer[]>;
  /** Messages whose DATA arrived, answered however. */
  readonly attempts: number;
  /** How long it waits before answering each message. */
  delayMs: number;
  /**
   * Holds the answer to every message's DATA, those already waiting and those to come, until
   * `release`: a message stays on the wire for as long as a test needs, whatever the machine's speed.
   */
  hold(): void;
  /** Answers what `hold` held, and every message from now on as it comes. */
  release(): void;
  /** Stops listening and cuts every connection: clients meet a refused connection. */
  down(): Promise<void>;
  /** Listens again, on the same port. */
  up(): Promise<void>;
  /** Resolves once `count` messages have been accepted; rejects after `timeoutMs`. */
  waitForReceived(count: number, timeoutMs?: number): Promise<void>;
  /** The Message-IDs accepted, each as many times as it arrived. */
  messageIds(): string[];
  close(): Promise<void>;
}

/** A real SMTP server on loopback (smtp-server), parsing what it receives with mailparser. */
export async function startSmtpFixture(): Promise<SmtpFixture> {
  const received: ReceivedMail[] = [];
  const script: SmtpAnswer[] = [];
  const recipientScript = new Map<string, SmtpAnswer[]>();
  const waiters = new Set<() => void>();
  const state = { attempts: 0, delayMs: 0 };
  /** While messages are held: the promise `release` resolves. */
  let gate: { readonly opened: Promise<void>; readonly open: () => void } | undefined;
  let server: SMTPServer | undefined;
  let port = 0;

  const make = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      closeTimeout: 50,
      size: 16 * 1024 * 1024,
      onRcptTo(address, _session, callback) {
        const answer = recipientScript.get(address.address.toLowerCase())?.shift() ?? 'accept';
        if (answer === 'accept') callback();
        else callback(Object.assign(new Error(answer.message), { responseCode: answer.code }));
      },
      onData(stream, session, callback) {
        state.attempts += 1;
        const answer = script.shift() ?? 'accept';
        simpleParser(stream).then(
          async (parsed) => {
            await gate?.opened;
            setTimeout(() => {
              if (answer !== 'accept') {
                callback(Object.assign(new Error(answer.message), { responseCode: answer.code }));
                return;
              }
              const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
              received.push({
                envelope: { from, to: session.envelope.rcptTo.map((recipient) => recipient.address) },
                parsed,
              });
              callback();
              for (const waiter of waiters) waiter();
            }, state.delayMs);
          },
          (error: Error) => callback(error),
        );
      },
    });

  const listen = async (): Promise<void> => {
    server = make();
    server.on('error', () => {});
    await new Promise<void>((resolve, reject) => {
      server!.server.once('error', reject);
      server!.listen(port, '127.0.0.1', () => resolve());
    });
    port = (server.server.address() as AddressInfo).port;
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      gate?.open();
      gate = undefined;
      if (server) server.close(() => resolve());
      else resolve();
    });
  await listen();

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    script,
    recipientScript,
    get attempts() {
      return state.attempts;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    hold() {
      if (gate !== undefined) return;
      let open = () => {};
      const opened = new Promise<void>((resolve) => (open = resolve));
      gate = { opened, open };
    },
    release() {
      gate?.open();
      gate = undefined;
    },
    down: async () => {
      await stop();
      server = undefined;
    },
    up: listen,
    waitForReceived: (count, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${received.length} of ${count} messages received within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    messageIds: () => received.map((mail) => mail.parsed.messageId ?? ''),
    close: stop,
  };
}
