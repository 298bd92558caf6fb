import { expect } from 'chai';
import pino from 'pino';
import { loadConfig } from '../../src/config/load-config.js';
import { buildApplication, type Application } from '../../src/container.js';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { MemoryMarkdownRenderer } from '../../src/families/mail/adapters/markdown/memory-markdown-renderer.js';
import { MemoryMailer } from '../../src/families/mail/adapters/memory-mailer.js';
import { MemoryOutbox } from '../../src/families/mail/adapters/memory-outbox.js';
import { DeliverMail } from '../../src/families/mail/domain/deliver-mail.js';
import type { ClaimRequest, OutboxMessage } from '../../src/families/mail/domain/ports.js';
import { MailWorker } from '../../src/families/mail/mail-worker.js';
import type { Accepted } from '../../src/families/mail/domain/send-mail.js';
import { freshSqlite, POSTGRES_URL, freshPostgres, type TestDatabase } from '../support/databases.js';
import { expectRight } from '../support/either.js';
import { ManualClock } from '../support/manual-clock.js';
import { SeededRandomness } from '../support/seeded-randomness.js';
import { startSmtpFixture, type SmtpFixture } from '../support/smtp-fixture.js';

/** An application with a mail worker on `database`, delivering to `smtp` quickly. */
async function withWorker(
  database: TestDatabase,
  smtp: SmtpFixture,
  mail: Record<string, unknown> = {},
  shutdown: Record<string, unknown> = {},
): Promise<Application<'mail'>> {
  const config = expectRight(
    loadConfig({
      env: { NODE_ENV: 'test', ...database.env, UTILITY_API_SMTP_URL: smtp.url },
      overrides: { mail: { pollIntervalMs: 20, retryBaseMs: 40, retryMaxMs: 80, ...mail }, shutdown },
    }),
  );
  return buildApplication(config, { families: ['mail'] });
}

const queue = (app: Application<'mail'>, count: number, subject = 'Hello'): Promise<Accepted[]> =>
  Promise.all(
    Array.from({ length: count }, async (_, i) =>
      expectRight(
        await app.useCases.mail.sendMail.execute({
          actor: OPERATOR,
          mail: { to: 'ada@example.com', subject: `${subject} ${i}`, content: 'Hi' },
        }),
      ),
    ),
  );

const until = async (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) expect.fail(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** Every message of the outbox: its status and whether a worker holds it. */
const rowsOf = (database: TestDatabase) =>
  database.db('mail_messages').select('id', 'message_id', 'status', 'lease_owner');

describe('composition: the mail worker', () => {
  let smtp: SmtpFixture;
  let database: TestDatabase;
  const apps: Application<'mail'>[] = [];
  beforeEach(async () => {
    smtp = await startSmtpFixture();
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    await database?.drop();
    await smtp.close();
  });

  it('on a stop, lets the messages it is sending finish and leaves the rest queued for the next start, each sent once', async () => {
    database = await freshSqlite();
    // The first message stays on the wire until the stop has begun.
    smtp.hold();
    const first = await withWorker(database, smtp, { smtpConnections: 1 });
    const accepted = await queue(first, 8);
    await until(() => smtp.attempts >= 1, 'a first attempt');
    first.beginDrain();
    smtp.release();
    await first.close();
    const afterStop = await rowsOf(database);
    const sentBeforeStop = afterStop.filter((row) => row.status === 'sent').length;
    expect(sentBeforeStop, 'messages in flight at the stop, finished').to.be.within(1, 7);
    expect(smtp.received).to.have.length(sentBeforeStop);
    expect(
      afterStop.filter((row) => row.lease_owner !== null),
      'messages still held',
    ).to.deep.equal([]);

    apps.push(await withWorker(database, smtp));
    await smtp.waitForReceived(8);
    await until(async () => (await rowsOf(database)).every((row) => row.status === 'sent'), 'every message sent');
    expect(smtp.messageIds().sort()).to.deep.equal(accepted.map((each) => each.messageId).sort());
  });

  it('from the moment a stop begins, claims nothing more and hands back at once what waits for a connection; the message being sent finishes', async () => {
    database = await freshSqlite();
    // One connection: one message being sent (held on the wire until the test lets it go), one claimed behind it.
    smtp.hold();
    const app = await withWorker(database, smtp, { smtpConnections: 1 });
    await queue(app, 4);
    await until(() => smtp.attempts >= 1, 'a first attempt');
    app.beginDrain();
    await until(
      async () => (await rowsOf(database)).filter((row) => row.lease_owner !== null).length === 1,
      'only the message being sent still held',
      5_000,
    );
    expect(smtp.received, 'the message being sent, not finished yet').to.have.length(0);
    smtp.release();
    await app.close();
    const rows = await rowsOf(database);
    expect(rows.map((row) => row.status).sort()).to.deep.equal(['queued', 'queued', 'queued', 'sent']);
    expect(rows.filter((row) => row.lease_owner !== null)).to.deep.equal([]);
    expect(smtp.attempts, 'nothing begun after the stop began').to.equal(1);
  });

  it('hands back what it still sends when the stop’s grace runs out; the next start sends it again, with the same Message-ID', async () => {
    database = await freshSqlite();
    // The message on the wire stays there past the grace: until the test lets it go.
    smtp.hold();
    // All of the drain deadline but a tenth is the worker's grace: 180 ms here.
    const first = await withWorker(database, smtp, { smtpConnections: 1, leaseMs: 60_000 }, { drainDeadlineMs: 200 });
    const accepted = await queue(first, 3);
    await until(() => smtp.attempts >= 1, 'a first attempt');
    await first.close();
    const afterStop = await rowsOf(database);
    expect(
      afterStop.every((row) => row.status === 'queued' && row.lease_owner === null),
      'all queued again, none held',
    ).to.equal(true);

    smtp.release();
    apps.push(await withWorker(database, smtp));
    await until(
      async () => (await rowsOf(database)).every((row) => row.status === 'sent'),
      'every message sent',
      20_000,
    );
    const ids = smtp.messageIds();
    for (const { messageId } of accepted) expect(ids, messageId).to.include(messageId);
  });

  (POSTGRES_URL ? it : it.skip)(
    'drains 500 messages with two workers on one PostgreSQL database, each message sent exactly once',
    async function () {
      this.timeout(60_000);
      database = await freshPostgres();
      const workers = [
        await withWorker(database, smtp, { smtpConnections: 4 }),
        await withWorker(database, smtp, { smtpConnections: 4 }),
      ];
      apps.push(...workers);
      const accepted = [...(await queue(workers[0]!, 250, 'first')), ...(await queue(workers[1]!, 250, 'second'))];
      await smtp.waitForReceived(500, 30_000);
      await until(
        async () =>
          expectRight(await workers[0]!.useCases.mail.messageReader.list(OPERATOR, { status: 'sent', limit: 1000 }))
            .length === 500,
        'all 500 recorded as sent',
      );
      // A duplicate, were there one, would be under way in a worker: a stop lets what is being sent
      // finish, so once both have stopped, nothing more can arrive.
      await Promise.all(apps.splice(0).map((app) => app.close()));
      const ids = smtp.messageIds();
      expect(ids).to.have.length(500);
      expect(new Set(ids).size).to.equal(500);
      expect(ids.sort()).to.deep.equal(accepted.map((each) => each.messageId).sort());
    },
  );
});

describe('composition: the mail worker keeps time by the clock it is given', () => {
  /** An outbox in memory that counts the worker's claims and notes when it was asked to forget keys. */
  class WatchedOutbox extends MemoryOutbox {
    claims = 0;
    readonly forgotten: number[] = [];

    override claim(request: ClaimRequest): Promise<readonly OutboxMessage[]> {
      this.claims += 1;
      return super.claim(request);
    }

    override forgetKeys(expiredBefore: number): Promise<number> {
      this.forgotten.push(expiredBefore);
      return super.forgetKeys(expiredBefore);
    }
  }

  it('forgets expired idempotency keys once an hour of that clock, however many polls the wall clock sees', async () => {
    const clock = new ManualClock();
    const outbox = new WatchedOutbox();
    const mailer = new MemoryMailer();
    const deliver = new DeliverMail(outbox, mailer, new MemoryMarkdownRenderer(), clock, new SeededRandomness('w'), {
      leaseMs: 60_000,
      maxAttempts: 3,
      retryBaseMs: 1_000,
      retryMaxMs: 10_000,
    });
    const worker = new MailWorker(deliver, mailer, clock, pino({ level: 'silent' }), {
      id: 'clocked',
      concurrency: 2,
      sendsAtOnce: 1,
      pollIntervalMs: 1,
      stopGraceMs: 100,
    });
    worker.start();
    try {
      await until(() => outbox.claims >= 20, 'twenty polls');
      expect(outbox.forgotten, 'by the clock given, no hour has passed').to.have.length(1);
      clock.advance(60 * 60 * 1000);
      await until(() => outbox.forgotten.length === 2, 'a second forgetting, an hour of the clock later');
      expect(outbox.forgotten[1]! - outbox.forgotten[0]!).to.equal(60 * 60 * 1000);
    } finally {
      await worker.stop();
    }
  });
});
