import { expect } from 'chai';
import { lookup } from 'node:dns';
import { GuardedWebhookSender } from '../../src/families/webhooks/adapters/guarded-webhook-sender.js';
import { MemoryWebhookSender } from '../../src/families/webhooks/adapters/memory-webhook-sender.js';
import type { WebhookRequest, WebhookSender } from '../../src/families/webhooks/domain/ports.js';
import { OutboundGuard } from '../../src/platform/upstream/outbound-guard.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/** A sender and the receiver it sends to, as each adapter has them: a receiver on loopback, or the memory adapter's own answer. */
interface SenderFixture {
  readonly sender: WebhookSender;
  readonly url: string;
  /** The receiver answers the next requests with this status (a 3xx pointing elsewhere). */
  answerWith(status: number): void;
  /** The receiver is gone: nothing answers any more. */
  goAway(): Promise<void>;
  /** What the receiver got, as requests. */
  received(): readonly WebhookRequest[];
  close(): Promise<void>;
}

const adapters: { name: string; open: () => Promise<SenderFixture> }[] = [
  {
    name: 'memory',
    open: async () => {
      const sender = new MemoryWebhookSender();
      return {
        sender,
        url: 'https://hooks.example.com/in',
        answerWith: (status) => void (sender.answer = status),
        goAway: async () => void (sender.answer = { failure: 'ECONNREFUSED: nobody listens there' }),
        received: () => sender.sent,
        close: async () => {},
      };
    },
  },
  {
    name: 'guarded, to a receiver on loopback',
    open: async () => {
      const receiver: WebhookReceiver = await startWebhookReceiver('127.0.0.1');
      const sender = new GuardedWebhookSender(new OutboundGuard(['127.0.0.0/8']), lookup, 2_000);
      return {
        sender,
        url: `${receiver.url}/in`,
        answerWith: (status) => {
          receiver.status = status;
          receiver.location = `${receiver.url}/elsewhere`;
        },
        goAway: () => receiver.close(),
        received: () =>
          receiver.received.map(({ path, headers, body }) => ({
            url: `${receiver.url}${path}`,
            headers: Object.fromEntries(['content-type', 'webhook-id'].map((name) => [name, String(headers[name])])),
            body,
          })),
        close: () => receiver.close(),
      };
    },
  },
];

const REQUEST = {
  headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
  body: '{"type":"webhook.test"}',
};

for (const adapter of adapters) {
  describe(`contract: WebhookSender (${adapter.name})`, () => {
    let fixture: SenderFixture;
    beforeEach(async () => (fixture = await adapter.open()));
    afterEach(() => fixture.close());

    it('sends the request as given and answers the receiver’s status, with how long it took', async () => {
      const outcome = await fixture.sender.send({ url: fixture.url, ...REQUEST });
      expect(outcome.kind).to.equal('answered');
      expect(outcome).to.include({ status: 200 });
      expect(outcome.durationMs).to.be.a('number').and.at.least(0);
      expect(fixture.received()).to.deep.equal([{ url: fixture.url, ...REQUEST }]);
    });

    it('gives any status as the answer, a redirect too, which it does not follow', async () => {
      for (const status of [500, 429, 410, 302]) {
        fixture.answerWith(status);
        expect(await fixture.sender.send({ url: fixture.url, ...REQUEST })).to.include({ kind: 'answered', status });
      }
      expect(fixture.received()).to.have.length(4);
    });

    it('answers a receiver that is gone with a failed outcome saying why, never by rejecting', async () => {
      await fixture.goAway();
      const outcome = await fixture.sender.send({ url: fixture.url, ...REQUEST });
      expect(outcome.kind).to.equal('failed');
      expect(outcome.kind === 'failed' && outcome.reason).to.match(/ECONNREFUSED/);
    });
  });
}
