import { expect } from 'chai';
import { Writable } from 'node:stream';
import pino from 'pino';
import { MemoryOutbox } from '../../src/families/mail/adapters/memory-outbox.js';
import { SendMail } from '../../src/families/mail/domain/send-mail.js';
import { MemoryUserStore } from '../../src/families/users-and-tokens/adapters/memory/memory-user-store.js';
import { LoggedOwnerNotices, MailedOwnerNotices } from '../../src/families/webhooks/adapters/mailed-owner-notices.js';
import type { WebhookEndpoint } from '../../src/families/webhooks/domain/endpoint.js';
import type { OwnerNotices } from '../../src/families/webhooks/domain/ports.js';
import { ManualClock } from '../support/manual-clock.js';
import { aUser } from '../support/mothers.js';
import { SeededRandomness } from '../support/seeded-randomness.js';

const SECRET = 'whsec_c2VjcmV0IHRoYXQgbXVzdCBuZXZlciBiZSB0b2xkIGFueWJvZHk=';
const OWNER = aUser({ id: 'owner-with-address', email: 'ada@example.com' });
const WITHOUT_ADDRESS = aUser({ id: 'owner-without-address', username: 'noaddress', email: null });

const endpointOf = (ownerUserId: string | null): WebhookEndpoint => ({
  id: `endpoint-of-${ownerUserId ?? 'the-operator'}`,
  ownerUserId,
  url: 'https://hooks.example.com/in',
  events: ['token.created'],
  description: null,
  scope: ownerUserId === null ? 'all' : 'own',
  secrets: { current: SECRET, previous: null, previousUntil: null },
  disabled: true,
  failingSince: null,
  createdAt: 0,
  updatedAt: 0,
});

/** A logger whose lines the test reads. */
function capturingLogger(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

const adapters: { name: string; open: () => Promise<{ notices: OwnerNotices; lines: string[] }> }[] = [
  {
    name: 'mailed, through the mail outbox',
    open: async () => {
      const users = new MemoryUserStore();
      await users.insert(OWNER);
      await users.insert(WITHOUT_ADDRESS);
      const sendMail = new SendMail(new MemoryOutbox(), new ManualClock(), new SeededRandomness('notices'), {
        from: 'noreply@example.com',
        maxContentBytes: 64 * 1024,
        maxAttachmentBytes: 1024 * 1024,
        maxRecipientsPerHour: null,
        maxRecipientsPerDay: null,
      });
      const { logger, lines } = capturingLogger();
      return { notices: new MailedOwnerNotices(users, sendMail, logger), lines };
    },
  },
  {
    name: 'logged, where no mail family is built',
    open: async () => {
      const { logger, lines } = capturingLogger();
      return { notices: new LoggedOwnerNotices(logger), lines };
    },
  },
];

for (const adapter of adapters) {
  describe(`contract: OwnerNotices (${adapter.name})`, () => {
    it('never rejects, whoever owns the endpoint: an owner with an address, one without, one gone, the operator', async () => {
      const { notices } = await adapter.open();
      for (const owner of [OWNER.id, WITHOUT_ADDRESS.id, 'deleted-meanwhile', null])
        await notices.endpointDisabled(endpointOf(owner), 'answered 410 Gone');
    });

    it('logs, naming the endpoint, when its owner cannot be told, and never logs a secret', async () => {
      const { notices, lines } = await adapter.open();
      await notices.endpointDisabled(endpointOf(WITHOUT_ADDRESS.id), 'answered 410 Gone');
      await notices.endpointDisabled(endpointOf(null), 'failing for 5 days');
      expect(lines.join('')).to.include(endpointOf(WITHOUT_ADDRESS.id).id).and.include(endpointOf(null).id);
      await notices.endpointDisabled(endpointOf(OWNER.id), 'answered 410 Gone');
      expect(lines.join('')).to.not.include(SECRET.slice('whsec_'.length, 20));
    });
  });
}
