import type { EventLog } from '../../src/domain/events.js';
import { KnexEventLog } from '../../src/platform/events/knex-event-log.js';
import { MemoryEventLog } from '../../src/platform/events/memory-event-log.js';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { KnexOutbox } from '../../src/families/mail/adapters/knex-outbox.js';
import { MemoryOutbox } from '../../src/families/mail/adapters/memory-outbox.js';
import type { IdempotencyClaim, NewMessage, Outbox, OutboxMessage } from '../../src/families/mail/domain/ports.js';
import type { Attachment } from '../../src/families/mail/domain/attachments.js';
import type { QuotaWindow } from '../../src/families/mail/domain/quota.js';
import { sqlDatabases } from '../support/databases.js';

interface OpenedOutbox {
  readonly outbox: Outbox;
  /** Where the outbox writes the events of its settlements. */
  readonly events: EventLog;
  /** Another instance over the same storage, as another process has it (the memory outbox has only itself). */
  another(): Outbox;
  close(): Promise<void>;
}

/** Every adapter of the outbox, each opened fresh for one test. */
const adapters: { name: string; open: () => Promise<OpenedOutbox> }[] = [
  {
    name: 'memory',
    open: async () => {
      const events = new MemoryEventLog();
      const outbox = new MemoryOutbox(events);
      return { outbox, events, another: () => outbox, close: async () => {} };
    },
  },
  ...sqlDatabases.map(({ name, open }) => ({
    name: `Knex on ${name}`,
    open: async (): Promise<OpenedOutbox> => {
      const database = await open();
      return {
        outbox: new KnexOutbox(database.db),
        events: new KnexEventLog(database.db),
        another: () => new KnexOutbox(database.db),
        close: database.drop,
      };
    },
  })),
];

const T0 = Date.UTC(2026, 0, 1);
let created = T0;

/** A message as SendMail makes one, each a millisecond after the last. */
function aMessage(overrides: Partial<NewMessage> = {}): NewMessage {
  const id = randomUUID();
  created += 1;
  return {
    id,
    messageId: `<${id}@example.com>`,
    senderUserId: 'user-1',
    fromAddress: 'noreply@example.com',
    fromName: 'Zoë',
    // Named and plain, beyond ASCII and with quotes: kept as given.
    to: [{ name: 'Ada "the Countess" Lovelace', address: 'ada@example.com' }, 'grace@bücher.example'],
    cc: ['cc@example.com'],
    bcc: [],
    replyTo: [{ name: 'Zoë – 中文 Support', address: 'help@example.com' }],
    subject: 'Hello Ada — ☕',
    content: '# Hi {{name}}\n\nYour code is {{code}}.',
    variables: { name: 'Ada', code: 42 },
    attachments: [],
    createdAt: created,
    nextAttemptAt: created,
    ...overrides,
  };
}

/** A message as the outbox gives it back once queued: its attachments are read apart. */
const queued = ({ attachments: _attachments, ...message }: NewMessage): OutboxMessage => ({
  ...message,
  status: 'queued',
  attempts: 0,
  sentAt: null,
  lastError: null,
  recipientOutcomes: [],
});
const key = (overrides: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
  scope: 'token:1',
  key: 'order-42',
  requestHash: 'a'.repeat(64),
  expiredBefore: T0 - 1,
  ...overrides,
});
const ids = (messages: readonly OutboxMessage[]) => messages.map((message) => message.id);
/** Files of every kind of byte: a PDF's opening, a PNG's, NUL and 0xFF, and text beyond ASCII in a name. */
const ATTACHMENTS: readonly Attachment[] = [
  { filename: 'invoice 42.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4\n%\u00e2\u00e3') },
  {
    filename: 'Übersicht – 中文.png',
    contentType: 'image/png',
    content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255, 13, 10]),
  },
  { filename: 'empty.txt', contentType: 'text/plain', content: Buffer.alloc(0) },
];
const HOUR: QuotaWindow = { name: 'an hour', lengthMs: 3_600_000, limit: 10 };
const DAY: QuotaWindow = { name: 'a day', lengthMs: 86_400_000, limit: 15 };
/** `count` recipients in to. */
const to = (count: number) => ({ to: Array.from({ length: count }, (_, i) => `r${i}@example.com`), cc: [], bcc: [] });

for (const adapter of adapters) {
  describe(`contract: Outbox (${adapter.name})`, () => {
    let opened: OpenedOutbox;
    let outbox: Outbox;
    beforeEach(async () => {
      opened = await adapter.open();
      outbox = opened.outbox;
    });
    afterEach(async () => opened.close());

    it('keeps what it queues, field for field: queued, no attempts yet', async () => {
      const message = aMessage();
      expect(await outbox.enqueue(message)).to.deep.equal({ kind: 'queued' });
      expect(await outbox.find(message.id)).to.deep.equal(queued(message));
      expect(await outbox.find(randomUUID())).to.equal(undefined);
    });

    it('keeps a message’s attachments with it, byte for byte and in order, read apart from it; none for another', async () => {
      const message = aMessage({ attachments: ATTACHMENTS });
      const plain = aMessage();
      expect(await outbox.enqueue(message)).to.deep.equal({ kind: 'queued' });
      await outbox.enqueue(plain);
      expect(await outbox.find(message.id)).to.deep.equal(queued(message));
      expect(await outbox.attachments(message.id)).to.deep.equal(ATTACHMENTS);
      expect(await opened.another().attachments(message.id)).to.deep.equal(ATTACHMENTS);
      expect(await outbox.attachments(plain.id)).to.deep.equal([]);
      expect(await outbox.attachments(randomUUID())).to.deep.equal([]);
      // A claim and a list carry no bytes; the attachments stay for every attempt.
      const now = created + 1;
      expect(await outbox.claim({ worker: 'w1', now, leaseUntil: now + 1000, limit: 10 })).to.deep.equal([
        queued(message),
        queued(plain),
      ]);
      expect(await outbox.attachments(message.id)).to.deep.equal(ATTACHMENTS);
    });

    it('stores the attachments of a replayed, conflicting or over-quota request no more than the message', async () => {
      const first = aMessage({ attachments: ATTACHMENTS.slice(0, 1) });
      await outbox.enqueue(first, key());
      const replayed = aMessage({ attachments: ATTACHMENTS.slice(0, 1) });
      expect((await outbox.enqueue(replayed, key())).kind).to.equal('replayed');
      const conflicting = aMessage({ attachments: ATTACHMENTS.slice(1) });
      expect((await outbox.enqueue(conflicting, key({ requestHash: 'b'.repeat(64) }))).kind).to.equal('conflict');
      const over = aMessage({ ...to(11), attachments: ATTACHMENTS });
      expect((await outbox.enqueue(over, undefined, [HOUR])).kind).to.equal('overQuota');
      for (const refused of [replayed, conflicting, over])
        expect(await outbox.attachments(refused.id), refused.id).to.deep.equal([]);
      expect(await outbox.attachments(first.id)).to.deep.equal(ATTACHMENTS.slice(0, 1));
    });

    it('answers a key used again with the first message for the same request, a conflict for another, and stores nothing then', async () => {
      const first = aMessage();
      expect(await outbox.enqueue(first, key())).to.deep.equal({ kind: 'queued' });
      expect(await outbox.enqueue(aMessage(), key())).to.deep.equal({
        kind: 'replayed',
        id: first.id,
        messageId: first.messageId,
      });
      expect(await outbox.enqueue(aMessage(), key({ requestHash: 'b'.repeat(64) }))).to.deep.equal({
        kind: 'conflict',
      });
      expect(ids(await outbox.list({ limit: 10 }))).to.deep.equal([first.id]);
      // Keys belong to their scope; another token's same key is another key.
      expect(await outbox.enqueue(aMessage(), key({ scope: 'token:2' }))).to.deep.equal({ kind: 'queued' });
    });

    it('lets a key expire: once stored before `expiredBefore`, it queues a new message', async () => {
      const first = aMessage();
      await outbox.enqueue(first, key());
      const later = aMessage();
      expect(
        await outbox.enqueue(later, key({ requestHash: 'b'.repeat(64), expiredBefore: first.createdAt })),
      ).to.deep.equal({ kind: 'queued' });
      expect(
        await outbox.enqueue(aMessage(), key({ requestHash: 'b'.repeat(64), expiredBefore: first.createdAt })),
      ).to.deep.equal({ kind: 'replayed', id: later.id, messageId: later.messageId });
    });

    it('forgets keys stored before a time, and only those', async () => {
      const first = aMessage();
      await outbox.enqueue(first, key({ key: 'old' }));
      const second = aMessage();
      await outbox.enqueue(second, key({ key: 'new' }));
      expect(await outbox.forgetKeys(first.createdAt)).to.equal(1);
      expect(await outbox.enqueue(aMessage(), key({ key: 'old', requestHash: 'c'.repeat(64) }))).to.deep.equal({
        kind: 'queued',
      });
      expect(await outbox.enqueue(aMessage(), key({ key: 'new', requestHash: 'c'.repeat(64) }))).to.deep.equal({
        kind: 'conflict',
      });
    });

    it('claims due messages only, oldest due first, at most `limit`, and leases them to one worker', async () => {
      const [a, b, c] = [aMessage(), aMessage(), aMessage()];
      const future = aMessage({ nextAttemptAt: created + 60_000 });
      for (const message of [c, a, b, future]) await outbox.enqueue(message);
      const now = created + 1;
      const claimed = await outbox.claim({ worker: 'w1', now, leaseUntil: now + 1000, limit: 2 });
      expect(claimed).to.deep.equal([queued(a), queued(b)]);
      expect(ids(await outbox.claim({ worker: 'w2', now, leaseUntil: now + 1000, limit: 10 }))).to.deep.equal([c.id]);
      expect(await outbox.claim({ worker: 'w2', now: now + 999, leaseUntil: now + 2000, limit: 10 })).to.deep.equal([]);
      // A lease that ran out (its worker died) makes its messages due again, for anyone.
      expect(
        ids(await outbox.claim({ worker: 'w3', now: now + 1000, leaseUntil: now + 5000, limit: 10 })),
      ).to.deep.equal([a.id, b.id, c.id]);
    });

    it('never gives one message to two workers claiming at once, each through an outbox of its own', async () => {
      const messages = Array.from({ length: 40 }, () => aMessage());
      for (const message of messages) await outbox.enqueue(message);
      const now = created + 1;
      const claims = await Promise.all(
        ['w1', 'w2', 'w3', 'w4'].map((worker) =>
          opened.another().claim({ worker, now, leaseUntil: now + 60_000, limit: 15 }),
        ),
      );
      const all = claims.flatMap(ids);
      expect(new Set(all).size).to.equal(all.length);
      expect(all).to.have.members(ids(messages.map(queued)));
    });

    it('records an outcome only from the worker holding the lease, and ends the lease', async () => {
      const message = aMessage();
      await outbox.enqueue(message);
      const now = created + 1;
      await outbox.claim({ worker: 'w1', now, leaseUntil: now + 1000, limit: 1 });
      expect(await outbox.settle(message.id, 'w2', { status: 'sent', attempts: 1, at: now, recipients: [] })).to.equal(
        false,
      );
      expect(
        await outbox.settle(message.id, 'w1', { status: 'sent', attempts: 1, at: now + 5, recipients: [] }),
      ).to.equal(true);
      expect(await outbox.find(message.id)).to.deep.equal({
        ...queued(message),
        status: 'sent',
        attempts: 1,
        sentAt: now + 5,
        nextAttemptAt: now + 5,
      });
      // Once sent, nothing more is written, not even by the worker that held it.
      expect(
        await outbox.settle(message.id, 'w1', {
          status: 'failed',
          attempts: 2,
          at: now + 6,
          reason: 'late',
          recipients: [],
        }),
      ).to.equal(false);
      expect(
        await outbox.claim({ worker: 'w1', now: now + 10_000, leaseUntil: now + 20_000, limit: 10 }),
      ).to.deep.equal([]);
    });

    it("writes a settlement's events with it, and none when the worker no longer holds the message", async () => {
      const message = aMessage();
      await outbox.enqueue(message);
      const now = created + 1;
      await outbox.claim({ worker: 'w1', now, leaseUntil: now + 1000, limit: 1 });
      const delivered = { type: 'mail.delivered' as const, at: now, concerns: 'user-1', data: { id: message.id } };
      const sent = { status: 'sent' as const, attempts: 1, at: now, recipients: [] };
      expect(await outbox.settle(message.id, 'w2', sent, [delivered])).to.equal(false);
      expect(await opened.events.unhandled(10)).to.deep.equal([]);
      expect(await outbox.settle(message.id, 'w1', sent, [delivered])).to.equal(true);
      expect((await opened.events.unhandled(10)).map(({ id: _, ...event }) => event)).to.deep.equal([delivered]);
    });

    it('does not let a worker whose lease ran out and was taken record its outcome', async () => {
      const message = aMessage();
      await outbox.enqueue(message);
      const now = created + 1;
      await outbox.claim({ worker: 'slow', now, leaseUntil: now + 1000, limit: 1 });
      await outbox.claim({ worker: 'fresh', now: now + 1000, leaseUntil: now + 2000, limit: 1 });
      expect(
        await outbox.settle(message.id, 'slow', { status: 'sent', attempts: 1, at: now + 1001, recipients: [] }),
      ).to.equal(false);
      expect(
        await outbox.settle(message.id, 'fresh', { status: 'sent', attempts: 1, at: now + 1002, recipients: [] }),
      ).to.equal(true);
    });

    it('queues a message again for a later attempt, with why the last one failed, or marks it failed', async () => {
      const [retried, failed] = [aMessage(), aMessage()];
      await outbox.enqueue(retried);
      await outbox.enqueue(failed);
      const now = created + 1;
      await outbox.claim({ worker: 'w1', now, leaseUntil: now + 1000, limit: 2 });
      expect(
        await outbox.settle(retried.id, 'w1', {
          status: 'queued',
          attempts: 1,
          nextAttemptAt: now + 500,
          reason: '451 4.3.0 try later',
          recipients: [],
        }),
      ).to.equal(true);
      expect(
        await outbox.settle(failed.id, 'w1', {
          status: 'failed',
          attempts: 1,
          at: now + 2,
          reason: '550 5.1.1 no such user',
          recipients: [],
        }),
      ).to.equal(true);
      expect(await outbox.find(retried.id)).to.deep.equal({
        ...queued(retried),
        attempts: 1,
        nextAttemptAt: now + 500,
        lastError: '451 4.3.0 try later',
      });
      expect(await outbox.find(failed.id)).to.deep.equal({
        ...queued(failed),
        status: 'failed',
        attempts: 1,
        nextAttemptAt: now + 2,
        lastError: '550 5.1.1 no such user',
      });
      expect(await outbox.claim({ worker: 'w2', now: now + 499, leaseUntil: now + 5000, limit: 10 })).to.deep.equal([]);
      expect(
        ids(await outbox.claim({ worker: 'w2', now: now + 500, leaseUntil: now + 5000, limit: 10 })),
      ).to.deep.equal([retried.id]);
    });

    it('keeps each recipient’s outcome as settled, a sent message’s reason when it has one, and tries refused recipients again on a requeue', async () => {
      const [partly, failed] = [aMessage(), aMessage()];
      await outbox.enqueue(partly);
      await outbox.enqueue(failed);
      const now = created + 1;
      await outbox.claim({ worker: 'w1', now, leaseUntil: now + 1000, limit: 2 });
      const greylisted = [
        { address: 'ada@example.com', status: 'delivered' as const, lastError: null },
        { address: 'grace@bücher.example', status: 'pending' as const, lastError: '450 greylisted' },
        { address: 'cc@example.com', status: 'refused' as const, lastError: '550 no such user' },
      ];
      expect(
        await outbox.settle(partly.id, 'w1', {
          status: 'queued',
          attempts: 1,
          nextAttemptAt: now,
          reason: 'grace@bücher.example: 450 greylisted',
          recipients: greylisted,
        }),
      ).to.equal(true);
      expect(await outbox.find(partly.id)).to.deep.equal({
        ...queued(partly),
        attempts: 1,
        nextAttemptAt: now,
        lastError: 'grace@bücher.example: 450 greylisted',
        recipientOutcomes: greylisted,
      });
      await outbox.claim({ worker: 'w1', now, leaseUntil: now + 1000, limit: 1 });
      const delivered = greylisted.map((each) =>
        each.status === 'pending' ? { ...each, status: 'delivered' as const } : each,
      );
      await outbox.settle(partly.id, 'w1', {
        status: 'sent',
        attempts: 2,
        at: now + 1,
        recipients: delivered,
        reason: 'cc@example.com: 550 no such user',
      });
      expect(await outbox.find(partly.id)).to.deep.include({
        status: 'sent',
        lastError: 'cc@example.com: 550 no such user',
        recipientOutcomes: delivered,
      });

      const refused = greylisted.map((each) => ({ ...each, status: 'refused' as const, lastError: '550 no' }));
      await outbox.settle(failed.id, 'w1', {
        status: 'failed',
        attempts: 1,
        at: now,
        reason: '550 no',
        recipients: refused,
      });
      expect((await outbox.find(failed.id))!.recipientOutcomes).to.deep.equal(refused);
      expect(await outbox.requeue(failed.id, now + 5)).to.equal('queued');
      expect((await outbox.find(failed.id))!.recipientOutcomes).to.deep.equal(
        refused.map((each) => ({ ...each, status: 'pending' })),
      );
    });

    it('refuses a message that would take its sender past a window’s recipients, storing nothing, and says when there is room', async () => {
      const start = created;
      expect(
        await outbox.enqueue(aMessage({ ...to(4), createdAt: start, nextAttemptAt: start }), undefined, [HOUR, DAY]),
      ).to.deep.equal({ kind: 'queued' });
      // Three recipients in to, cc and bcc: 7 of 10.
      expect(
        await outbox.enqueue(aMessage({ createdAt: start + 1000, nextAttemptAt: start + 1000 }), undefined, [
          HOUR,
          DAY,
        ]),
      ).to.deep.equal({ kind: 'queued' });
      const third = aMessage({ ...to(4), createdAt: start + 2000, nextAttemptAt: start + 2000 });
      // 11 of 10: room once the first message has left the hour.
      expect(await outbox.enqueue(third, key({ key: 'third' }), [HOUR, DAY])).to.deep.equal({
        kind: 'overQuota',
        window: HOUR,
        retryAt: start + HOUR.lengthMs,
      });
      expect(await outbox.find(third.id)).to.equal(undefined);
      // Its key was not kept: the same key with another request is no conflict.
      expect(
        await outbox.enqueue(
          aMessage({ ...to(3), createdAt: start + 2000, nextAttemptAt: start + 2000 }),
          key({ key: 'third', requestHash: 'c'.repeat(64) }),
          [HOUR, DAY],
        ),
      ).to.deep.equal({ kind: 'queued' });
      // Other senders, and the operator, count apart; without a quota nothing is counted.
      expect(
        await outbox.enqueue(aMessage({ ...to(10), senderUserId: 'user-2' }), undefined, [HOUR, DAY]),
      ).to.deep.equal({ kind: 'queued' });
      expect(await outbox.enqueue(aMessage({ ...to(10), senderUserId: null }), undefined, [HOUR, DAY])).to.deep.equal({
        kind: 'queued',
      });
      expect(await outbox.enqueue(aMessage({ ...to(10), senderUserId: 'user-3' }))).to.deep.equal({ kind: 'queued' });

      // An hour later the first two have left the hour (3 + 6 of 10 in it), not the day (10 + 6 of 15): room there once the first has left it.
      const later = start + HOUR.lengthMs + 1000;
      expect(
        await outbox.enqueue(aMessage({ ...to(6), createdAt: later, nextAttemptAt: later }), undefined, [HOUR, DAY]),
      ).to.deep.equal({ kind: 'overQuota', window: DAY, retryAt: start + DAY.lengthMs });
      expect(
        await outbox.enqueue(aMessage({ ...to(5), createdAt: later, nextAttemptAt: later }), undefined, [HOUR, DAY]),
      ).to.deep.equal({ kind: 'queued' });
    });

    it('never lets senders past their quota by sending at once through several instances', async () => {
      const at = created + 1;
      const attempts = Array.from({ length: 12 }, (_, i) =>
        opened.another().enqueue(aMessage({ ...to(3), createdAt: at + i, nextAttemptAt: at + i }), undefined, [HOUR]),
      );
      const outcomes = await Promise.all(attempts);
      expect(outcomes.filter((outcome) => outcome.kind === 'queued')).to.have.length(3);
      expect(await outbox.list({ limit: 100 })).to.have.length(3);
    });

    it('hands back what a worker holds on release: due again at once, for anyone', async () => {
      const [a, b] = [aMessage(), aMessage()];
      await outbox.enqueue(a);
      await outbox.enqueue(b);
      const now = created + 1;
      await outbox.claim({ worker: 'w1', now, leaseUntil: now + 60_000, limit: 1 });
      await outbox.claim({ worker: 'w2', now, leaseUntil: now + 60_000, limit: 1 });
      expect(await outbox.release('w1')).to.equal(1);
      expect(ids(await outbox.claim({ worker: 'w3', now, leaseUntil: now + 60_000, limit: 10 }))).to.deep.equal([a.id]);
      expect(await outbox.settle(a.id, 'w1', { status: 'sent', attempts: 1, at: now, recipients: [] })).to.equal(false);
    });

    it('hands back only the messages named, when named; the worker keeps the others', async () => {
      const [a, b, c] = [aMessage(), aMessage(), aMessage()];
      for (const message of [a, b, c]) await outbox.enqueue(message);
      const now = created + 1;
      await outbox.claim({ worker: 'w1', now, leaseUntil: now + 60_000, limit: 2 });
      await outbox.claim({ worker: 'w2', now, leaseUntil: now + 60_000, limit: 1 });
      expect(await outbox.release('w1', [b.id, c.id])).to.equal(1);
      expect(ids(await outbox.claim({ worker: 'w3', now, leaseUntil: now + 60_000, limit: 10 }))).to.deep.equal([b.id]);
      expect(await outbox.settle(a.id, 'w1', { status: 'sent', attempts: 1, at: now, recipients: [] })).to.equal(true);
    });

    it('lists newest first, by status, at most `limit`', async () => {
      const messages = [aMessage(), aMessage(), aMessage()];
      for (const message of messages) await outbox.enqueue(message);
      const now = created + 1;
      await outbox.claim({ worker: 'w1', now, leaseUntil: now + 1000, limit: 1 });
      await outbox.settle(messages[0]!.id, 'w1', { status: 'sent', attempts: 1, at: now, recipients: [] });
      expect(ids(await outbox.list({ limit: 10 }))).to.deep.equal([messages[2]!.id, messages[1]!.id, messages[0]!.id]);
      expect(ids(await outbox.list({ limit: 2 }))).to.deep.equal([messages[2]!.id, messages[1]!.id]);
      expect(ids(await outbox.list({ status: 'sent', limit: 10 }))).to.deep.equal([messages[0]!.id]);
      expect(ids(await outbox.list({ status: 'queued', limit: 10 }))).to.deep.equal([messages[2]!.id, messages[1]!.id]);
      expect(await outbox.list({ status: 'failed', limit: 10 })).to.deep.equal([]);
    });

    it("lists one sender's messages, and a page after a message, ties on the same millisecond broken by id", async () => {
      const ada = [aMessage({ senderUserId: 'ada' }), aMessage({ senderUserId: 'ada' })];
      const grace = aMessage({ senderUserId: 'grace' });
      const anonymous = aMessage({ senderUserId: null });
      // Two more of Ada's in one millisecond: the page ends between them, and the id orders them.
      const [low, high] = [randomUUID(), randomUUID()].sort();
      const at = created + 1;
      const sameTime = [low!, high!].map((id) => aMessage({ senderUserId: 'ada', id, createdAt: at }));
      for (const message of [...ada, grace, anonymous, ...sameTime]) await outbox.enqueue(message);

      expect(ids(await outbox.list({ senderUserId: 'ada', limit: 10 }))).to.deep.equal([
        high,
        low,
        ada[1]!.id,
        ada[0]!.id,
      ]);
      expect(ids(await outbox.list({ senderUserId: 'grace', limit: 10 }))).to.deep.equal([grace.id]);
      expect(ids(await outbox.list({ senderUserId: 'nobody', limit: 10 }))).to.deep.equal([]);
      expect(ids(await outbox.list({ before: { createdAt: at, id: high! }, limit: 3 }))).to.deep.equal([
        low,
        anonymous.id,
        grace.id,
      ]);
      expect(
        ids(await outbox.list({ senderUserId: 'ada', before: { createdAt: at, id: low! }, limit: 10 })),
      ).to.deep.equal([ada[1]!.id, ada[0]!.id]);
      expect(await outbox.list({ before: { createdAt: T0, id: ada[0]!.id }, limit: 10 })).to.deep.equal([]);
    });

    it('counts its messages by status, every status named even at zero', async () => {
      expect(await outbox.countByStatus()).to.deep.equal({ queued: 0, sent: 0, failed: 0 });
      const [sent, failed, waiting, leased] = [aMessage(), aMessage(), aMessage(), aMessage()];
      for (const message of [sent, failed, waiting, leased]) await outbox.enqueue(message);
      const now = created + 1;
      await outbox.claim({ worker: 'w1', now, leaseUntil: now + 1000, limit: 4 });
      await outbox.settle(sent.id, 'w1', { status: 'sent', attempts: 1, at: now, recipients: [] });
      await outbox.settle(failed.id, 'w1', {
        status: 'failed',
        attempts: 1,
        at: now,
        reason: '550 no',
        recipients: [],
      });
      await outbox.settle(waiting.id, 'w1', {
        status: 'queued',
        attempts: 1,
        nextAttemptAt: now + 500,
        reason: '451 later',
        recipients: [],
      });
      // A leased message is still queued: it has not been sent yet.
      expect(await outbox.countByStatus()).to.deep.equal({ queued: 2, sent: 1, failed: 1 });
    });

    it('queues a failed message again, due now with no attempts counted; refuses any other, and says which', async () => {
      const [failed, sent] = [aMessage(), aMessage()];
      await outbox.enqueue(failed);
      await outbox.enqueue(sent);
      const now = created + 1;
      await outbox.claim({ worker: 'w1', now, leaseUntil: now + 1000, limit: 2 });
      await outbox.settle(failed.id, 'w1', {
        status: 'failed',
        attempts: 8,
        at: now,
        reason: 'gave up',
        recipients: [],
      });
      await outbox.settle(sent.id, 'w1', { status: 'sent', attempts: 1, at: now, recipients: [] });
      expect(await outbox.requeue(failed.id, now + 100)).to.equal('queued');
      expect(await outbox.find(failed.id)).to.deep.equal({
        ...queued(failed),
        attempts: 0,
        nextAttemptAt: now + 100,
        lastError: 'gave up',
      });
      expect(await outbox.requeue(failed.id, now + 100)).to.equal('not failed');
      expect(await outbox.requeue(sent.id, now + 100)).to.equal('not failed');
      expect(await outbox.requeue(randomUUID(), now + 100)).to.equal('missing');
      expect(
        ids(await outbox.claim({ worker: 'w2', now: now + 100, leaseUntil: now + 1000, limit: 10 })),
      ).to.deep.equal([failed.id]);
    });
  });
}
