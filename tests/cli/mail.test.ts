import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { KnexOutbox } from '../../src/families/mail/adapters/knex-outbox.js';
import type { NewMessage } from '../../src/families/mail/domain/ports.js';
import { sqlDatabases, type TestDatabase } from '../support/databases.js';
import { cliOn } from './run-cli.js';

const T0 = Date.UTC(2026, 2, 1, 9, 0, 0);

const aMessage = (index: number): NewMessage => {
  const id = randomUUID();
  return {
    id,
    messageId: `<${id}@example.com>`,
    senderUserId: null,
    fromAddress: 'noreply@example.com',
    fromName: index === 0 ? 'Support' : null,
    to: [index === 0 ? { name: 'User Zero', address: 'user0@example.com' } : `user${index}@example.com`],
    cc: [],
    bcc: ['audit@example.com'],
    replyTo: [],
    subject: `Message ${index}`,
    content: 'Hello {{name}}',
    variables: { name: 'Ada' },
    attachments:
      index === 0 ? [{ filename: 'report.csv', contentType: 'text/csv', content: Buffer.from('a,b\n1,2\n') }] : [],
    createdAt: T0 + index * 1000,
    nextAttemptAt: T0 + index * 1000,
  };
};

for (const backend of sqlDatabases) {
  describe(`cli: mail list, show and retry, in process (${backend.name})`, () => {
    let database: TestDatabase;
    let cli: ReturnType<typeof cliOn>;
    let messages: NewMessage[];
    beforeEach(async () => {
      database = await backend.open();
      cli = cliOn(database.env);
      // Three messages as a worker left them: one sent, one failed, one still queued.
      const outbox = new KnexOutbox(database.db);
      messages = [aMessage(0), aMessage(1), aMessage(2)];
      for (const message of messages) await outbox.enqueue(message);
      await outbox.claim({ worker: 'w', now: T0 + 1000, leaseUntil: T0 + 60_000, limit: 2 });
      await outbox.settle(messages[0]!.id, 'w', { status: 'sent', attempts: 1, at: T0 + 1500, recipients: [] });
      await outbox.settle(messages[1]!.id, 'w', {
        status: 'failed',
        attempts: 8,
        at: T0 + 2500,
        reason: '550 5.1.1 No such user',
        recipients: [],
      });
    });
    afterEach(async () => database.drop());

    it('lists messages newest first, one line each, by status when asked', async () => {
      const all = await cli('mail', 'list');
      expect(all.status, all.stderr).to.equal(0);
      expect(all.stdout.trimEnd().split('\n')).to.deep.equal([
        `${messages[2]!.id}  queued   0  2026-03-01T09:00:02.000Z  user2@example.com  Message 2`,
        `${messages[1]!.id}  failed   8  2026-03-01T09:00:01.000Z  user1@example.com  Message 1`,
        `${messages[0]!.id}  sent     1  2026-03-01T09:00:00.000Z  "User Zero" <user0@example.com>  Message 0`,
        '3 listed',
      ]);
      expect((await cli('mail', 'list', '--status', 'failed')).stdout.trimEnd().split('\n')).to.have.length(2);
      expect((await cli('mail', 'list', '--limit', '1')).lastLine).to.equal('1 listed');
      const bad = await cli('mail', 'list', '--status', 'lost');
      expect(bad.status).to.equal(1);
      expect(bad.stderr).to.include("argument 'lost' is invalid");
      expect((await cli('mail', 'list', '--limit', '0')).stderr).to.equal(
        'utility-api: Invalid --limit: it must be a whole number of at least 1, got "0"\n',
      );
    });

    it('shows one message whole, as JSON', async () => {
      const shown = await cli('mail', 'show', messages[0]!.id);
      expect(shown.status, shown.stderr).to.equal(0);
      expect(JSON.parse(shown.stdout)).to.deep.equal({
        id: messages[0]!.id,
        status: 'sent',
        to: ['user0@example.com'],
        subject: 'Message 0',
        attempts: 1,
        createdAt: '2026-03-01T09:00:00.000Z',
        sentAt: '2026-03-01T09:00:01.500Z',
        nextAttemptAt: null,
        lastError: null,
        recipients: [
          { address: 'user0@example.com', name: 'User Zero', status: 'delivered', lastError: null },
          { address: 'audit@example.com', name: null, status: 'delivered', lastError: null },
        ],
        messageId: messages[0]!.messageId,
        from: 'Support <noreply@example.com>',
        cc: [],
        bcc: ['audit@example.com'],
        replyTo: [],
        senderUserId: null,
        variables: { name: 'Ada' },
        content: 'Hello {{name}}',
        attachments: [{ filename: 'report.csv', contentType: 'text/csv', bytes: 8 }],
      });
      const unknown = await cli('mail', 'show', '00000000-0000-4000-8000-000000000000');
      expect([unknown.status, unknown.stderr]).to.deep.equal([
        1,
        'utility-api: Unable to retrieve requested information: No message 00000000-0000-4000-8000-000000000000\n',
      ]);
      const malformed = await cli('mail', 'show', 'nope');
      expect([malformed.status, malformed.stderr]).to.deep.equal([
        1,
        'utility-api: Invalid ID: it must be a message id as POST /mail/send answered it (a UUID), as mail list shows it\n',
      ]);
    });

    it('queues a failed message again, due now with no attempts counted; refuses any other', async () => {
      const retried = await cli('mail', 'retry', messages[1]!.id);
      expect(retried.status, retried.stderr).to.equal(0);
      expect(retried.stdout).to.include(`Queued ${messages[1]!.id} again`);
      expect(JSON.parse((await cli('mail', 'show', messages[1]!.id)).stdout)).to.deep.include({
        status: 'queued',
        attempts: 0,
        lastError: '550 5.1.1 No such user',
      });
      const again = await cli('mail', 'retry', messages[0]!.id);
      expect([again.status, again.stderr]).to.deep.equal([
        1,
        `utility-api: Only a failed message can be retried: Message ${messages[0]!.id} is sent\n`,
      ]);
    });
  });
}
