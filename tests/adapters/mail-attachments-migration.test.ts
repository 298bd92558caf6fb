import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { KnexOutbox } from '../../src/families/mail/adapters/knex-outbox.js';
import { MAIL_MIGRATIONS } from '../../src/families/mail/adapters/migrations.js';
import type { NewMessage } from '../../src/families/mail/domain/ports.js';
import { sqlDatabases, type TestDatabase } from '../support/databases.js';

const attachmentsMigration = MAIL_MIGRATIONS.find(({ name }) => name === '0022_mail_attachments')!;

const aMessage = (index: number): NewMessage => {
  const id = randomUUID();
  return {
    id,
    messageId: `<${id}@example.com>`,
    senderUserId: 'user-1',
    fromAddress: 'noreply@example.com',
    fromName: 'Support',
    to: [`user${index}@example.com`],
    cc: ['team@example.com'],
    bcc: [],
    replyTo: [],
    subject: `Message ${index}`,
    content: 'Hello {{name}}',
    variables: { name: 'Ada' },
    attachments: [],
    createdAt: Date.UTC(2026, 0, 1) + index,
    nextAttemptAt: Date.UTC(2026, 0, 1) + index,
  };
};

for (const { name, open } of sqlDatabases) {
  describe(`migration 0022: mail attachments (${name})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await open();
    });
    afterEach(() => database.drop());

    it('keeps the messages stored before it, as they were, each with no attachment, and takes attachments after it', async () => {
      await attachmentsMigration.down(database.db);
      const outbox = new KnexOutbox(database.db);
      const before = [aMessage(1), aMessage(2)];
      for (const message of before) await outbox.enqueue(message);
      const now = Date.UTC(2026, 0, 1) + 10;
      await outbox.claim({ worker: 'w1', now, leaseUntil: now + 1000, limit: 1 });
      await outbox.settle(before[0]!.id, 'w1', { status: 'sent', attempts: 1, at: now, recipients: [] });
      const rowsBefore = await database.db('mail_messages').orderBy('id');

      await attachmentsMigration.up(database.db);

      expect(await database.db('mail_messages').orderBy('id')).to.deep.equal(rowsBefore);
      for (const message of before) expect(await outbox.attachments(message.id)).to.deep.equal([]);
      expect((await outbox.find(before[0]!.id))!.status).to.equal('sent');
      expect((await outbox.find(before[1]!.id))!.status).to.equal('queued');
      const withFile = {
        ...aMessage(3),
        attachments: [{ filename: 'a.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF') }],
      };
      await outbox.enqueue(withFile);
      expect(await outbox.attachments(withFile.id)).to.deep.equal(withFile.attachments);
    });
  });
}
