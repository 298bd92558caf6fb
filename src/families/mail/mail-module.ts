import type { MailSettings } from './mail-settings.js';
import { randomUUID } from 'node:crypto';
import { ContainerModule } from 'inversify';
import { MailOutboxDepth } from '../../platform/pipeline/ports.js';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { mailRoutes } from './mail-routes.js';
import { EmlFileMailer } from './adapters/eml-file-mailer.js';
import { MemoryMailer } from './adapters/memory-mailer.js';
import { SmtpMailer } from './adapters/smtp-mailer.js';
import { MarkdownItRenderer } from '../mail/adapters/markdown/markdown-it-renderer.js';
import { DeliverMail } from './domain/deliver-mail.js';
import { MessageReader, RetryMessage } from './domain/manage-mail.js';
import { Mailer, MarkdownRenderer, Outbox } from './domain/ports.js';
import { SendMail } from './domain/send-mail.js';
import { Clock, Randomness } from '../../domain/ports.js';
import { Log, RouteContribution, useCasesIdentifier } from '../../composition/identifiers.js';
import { LifecycleComponent } from '../../platform/lifecycle.js';
import { MailWorker } from './mail-worker.js';

export type MailModuleSettings = MailSettings & {
  /** Where `.eml` files go when no SMTP server is configured: `<dataDir>/mail`. */
  readonly dataDir: string;
  /** The whole stop's deadline: the worker gives the messages being sent all of it but a tenth, left for what stops after it. */
  readonly drainDeadlineMs: number;
};

/** What the family offers a library user: sending, reading the outbox, retrying a failed message. */
export interface MailUseCases {
  readonly sendMail: SendMail;
  readonly messageReader: MessageReader;
  readonly retryMessage: RetryMessage;
}
export const MailUseCases = useCasesIdentifier<MailUseCases>('MailUseCases');

/** Tells this process's worker that a message is due now; does nothing where no worker runs. */
const WakeWorker = Symbol.for('WakeMailWorker');
type WakeWorker = () => void;

/** Where messages go: SMTP when a server is configured, memory when asked, else `.eml` files. */
function mailerFor({ smtpUrl, smtpConnections, leaseMs, dataDir }: MailModuleSettings): Mailer {
  if (smtpUrl === 'memory') return new MemoryMailer();
  if (smtpUrl === null) return new EmlFileMailer(join(dataDir, 'mail'));
  // A quarter of the lease: a send ends (or fails) well within it, even queued behind another.
  return new SmtpMailer({ url: smtpUrl, connections: smtpConnections, timeoutMs: Math.floor(leaseMs / 4) });
}

/** Mail: the outbox's use cases, the mailer, the delivery worker (unless `worker` is off), the routes. */
export const mailModule = (settings: MailModuleSettings): ContainerModule =>
  new ContainerModule(({ bind }) => {
    const limits = {
      from: settings.from,
      maxContentBytes: settings.maxContentBytes,
      maxRecipientsPerHour: settings.maxRecipientsPerHour,
      maxRecipientsPerDay: settings.maxRecipientsPerDay,
    };
    bind(Mailer).toConstantValue(mailerFor(settings));
    bind(MarkdownRenderer).toConstantValue(new MarkdownItRenderer());
    bind(DeliverMail)
      .toResolvedValue(
        (outbox: Outbox, mailer: Mailer, markdown: MarkdownRenderer, clock: Clock, randomness: Randomness) =>
          new DeliverMail(outbox, mailer, markdown, clock, randomness, settings),
        [Outbox, Mailer, MarkdownRenderer, Clock, Randomness],
      )
      .inSingletonScope();
    if (settings.worker) {
      bind(MailWorker)
        .toResolvedValue(
          (deliver: DeliverMail, mailer: Mailer, clock: Clock, logger: Logger) =>
            new MailWorker(deliver, mailer, clock, logger, {
              // The process's name in leases, never shown: drawn beside the Randomness port so that a
              // seeded one yields the same ids whether or not a worker runs.
              id: randomUUID(),
              concurrency: 2 * settings.smtpConnections,
              sendsAtOnce: settings.smtpConnections,
              pollIntervalMs: settings.pollIntervalMs,
              stopGraceMs: settings.drainDeadlineMs - Math.ceil(settings.drainDeadlineMs / 10),
            }),
          [DeliverMail, Mailer, Clock, Log],
        )
        .inSingletonScope();
      bind(LifecycleComponent).toResolvedValue((worker: MailWorker) => worker, [MailWorker]);
      bind(WakeWorker).toResolvedValue(
        (worker: MailWorker): WakeWorker =>
          () =>
            worker.wake(),
        [MailWorker],
      );
    } else {
      bind(WakeWorker).toConstantValue(() => {});
    }
    bind(SendMail)
      .toResolvedValue(
        (outbox: Outbox, clock: Clock, randomness: Randomness, wake: WakeWorker) =>
          new SendMail(outbox, clock, randomness, limits, wake),
        [Outbox, Clock, Randomness, WakeWorker],
      )
      .inSingletonScope();
    bind(MessageReader)
      .toResolvedValue((outbox: Outbox) => new MessageReader(outbox), [Outbox])
      .inSingletonScope();
    // The outbox's depth by status, for the metrics of whoever scrapes them.
    bind(MailOutboxDepth).toResolvedValue(
      (outbox: Outbox): MailOutboxDepth => ({ byStatus: () => outbox.countByStatus() }),
      [Outbox],
    );
    bind(RetryMessage)
      .toResolvedValue(
        (outbox: Outbox, clock: Clock, wake: WakeWorker) => new RetryMessage(outbox, clock, wake),
        [Outbox, Clock, WakeWorker],
      )
      .inSingletonScope();
    bind(MailUseCases).toResolvedValue(
      (sendMail: SendMail, messageReader: MessageReader, retryMessage: RetryMessage): MailUseCases => ({
        sendMail,
        messageReader,
        retryMessage,
      }),
      [SendMail, MessageReader, RetryMessage],
    );
    bind(RouteContribution).toResolvedValue(
      (sendMail: SendMail, reader: MessageReader): RouteContribution => ({
        routes: mailRoutes({ sendMail, reader }, settings),
      }),
      [SendMail, MessageReader],
    );
  });
