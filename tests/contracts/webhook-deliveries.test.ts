import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { KnexWebhookDeliveries } from '../../src/families/webhooks/adapters/knex-webhook-deliveries.js';
import { MemoryWebhookDeliveries } from '../../src/families/webhooks/adapters/memory-webhook-deliveries.js';
import type { DeliverySettlement, NewDelivery, WebhookDelivery } from '../../src/families/webhooks/domain/delivery.js';
import type { WebhookDeliveries } from '../../src/families/webhooks/domain/ports.js';
import { sqlDatabases } from '../support/databases.js';

interface OpenedDeliveries {
  readonly deliveries: WebhookDeliveries;
  /** Another adapter over the same storage, as another instance has it (memory has only itself). */
  another(): WebhookDeliveries;
  close(): Promise<void>;
}

/** Every adapter of the delivery queue, each opened fresh for one test. */
const adapters: { name: string; open: () => Promise<OpenedDeliveries> }[] = [
  {
    name: 'memory',
    open: async () => {
      const deliveries = new MemoryWebhookDeliveries();
      return { deliveries, another: () => deliveries, close: async () => {} };
    },
  },
  ...sqlDatabases.map(({ name, open }) => ({
    name: `Knex on ${name}`,
    open: async (): Promise<OpenedDeliveries> => {
      const database = await open();
      return {
        deliveries: new KnexWebhookDeliveries(database.db),
        another: () => new KnexWebhookDeliveries(database.db),
        close: database.drop,
      };
    },
  })),
];

const T0 = Date.UTC(2026, 10, 27, 2, 0, 0);
let created = T0;
let eventSequence = 0;

/** A delivery as the fan-out makes one, each a millisecond after the last. */
function aDelivery(overrides: Partial<NewDelivery> = {}): NewDelivery {
  created += 1;
  eventSequence += 1;
  return {
    id: `msg_${randomUUID()}`,
    endpointId: 'endpoint-1',
    eventId: String(eventSequence),
    eventType: 'token.created',
    payload: JSON.stringify({
      type: 'token.created',
      timestamp: new Date(created).toISOString(),
      data: { name: 'Zoë ☕' },
    }),
    createdAt: created,
    ...overrides,
  };
}

const queued = (delivery: NewDelivery): WebhookDelivery => ({
  ...delivery,
  status: 'queued',
  attempts: [],
  nextAttemptAt: delivery.createdAt,
  lastError: null,
});
const ids = (deliveries: readonly WebhookDelivery[]) => deliveries.map((delivery) => delivery.id);
const attemptAt = (at: number, status: number | null, error: string | null = null) => ({
  at,
  status,
  error,
  durationMs: 12,
});

for (const adapter of adapters) {
  describe(`contract: webhook deliveries (${adapter.name})`, () => {
    let opened: OpenedDeliveries;
    let store: WebhookDeliveries;
    beforeEach(async () => {
      opened = await adapter.open();
      store = opened.deliveries;
    });
    afterEach(() => opened.close());

    it('keeps what it queues, field for field, due at its creation, and queues one delivery per event and endpoint', async () => {
      const delivery = aDelivery();
      expect(await store.enqueue([delivery])).to.equal(1);
      expect(await opened.another().find(delivery.id)).to.deep.equal(queued(delivery));
      const again = { ...delivery, id: `msg_${randomUUID()}` };
      const otherEndpoint = { ...delivery, id: `msg_${randomUUID()}`, endpointId: 'endpoint-2' };
      expect(await store.enqueue([again, otherEndpoint])).to.equal(1);
      expect(await store.find(again.id)).to.equal(undefined);
      expect(await store.find(otherEndpoint.id)).to.deep.equal(queued(otherEndpoint));
      expect(await store.enqueue([])).to.equal(0);
    });

    it('claims due deliveries only, oldest due first, at most `limit`, leased to one worker until the lease ends', async () => {
      const [a, b, c] = [aDelivery(), aDelivery(), aDelivery()];
      await store.enqueue([c, a, b]);
      const now = created + 1;
      expect(await store.claim({ worker: 'w1', now, leaseUntil: now + 1000, limit: 2 })).to.deep.equal([
        queued(a),
        queued(b),
      ]);
      expect(ids(await store.claim({ worker: 'w2', now, leaseUntil: now + 1000, limit: 10 }))).to.deep.equal([c.id]);
      expect(await store.claim({ worker: 'w2', now: now + 999, leaseUntil: now + 2000, limit: 10 })).to.deep.equal([]);
      expect(
        ids(await store.claim({ worker: 'w3', now: now + 1000, leaseUntil: now + 5000, limit: 10 })),
      ).to.deep.equal([a.id, b.id, c.id]);
    });

    it('never gives one delivery to two workers claiming at once, each through an adapter of its own', async () => {
      const deliveries = Array.from({ length: 40 }, () => aDelivery());
      await store.enqueue(deliveries);
      const now = created + 1;
      const claims = await Promise.all(
        ['w1', 'w2', 'w3', 'w4'].map((worker) =>
          opened.another().claim({ worker, now, leaseUntil: now + 60_000, limit: 15 }),
        ),
      );
      const all = claims.flatMap(ids);
      expect(new Set(all).size).to.equal(all.length);
      expect(all).to.have.members(deliveries.map((delivery) => delivery.id));
    });

    it('records an attempt only from the worker holding the lease: queued again with its next time, or ended', async () => {
      const delivery = aDelivery();
      await store.enqueue([delivery]);
      const now = created + 1;
      await store.claim({ worker: 'w1', now, leaseUntil: now + 1000, limit: 1 });
      const retry: DeliverySettlement = {
        attempt: attemptAt(now, 500),
        status: 'queued',
        nextAttemptAt: now + 300,
        lastError: 'answered 500',
      };
      expect(await store.settle(delivery.id, 'w2', retry)).to.equal(false);
      expect(await store.settle(delivery.id, 'w1', retry)).to.equal(true);
      expect(await store.find(delivery.id)).to.deep.equal({
        ...queued(delivery),
        attempts: [attemptAt(now, 500)],
        nextAttemptAt: now + 300,
        lastError: 'answered 500',
      });
      // The lease ended with the settlement: due again at its time, for anyone.
      expect(await store.claim({ worker: 'w2', now: now + 299, leaseUntil: now + 9000, limit: 1 })).to.deep.equal([]);
      await store.claim({ worker: 'w2', now: now + 300, leaseUntil: now + 9000, limit: 1 });
      const done: DeliverySettlement = {
        attempt: attemptAt(now + 300, null, 'ECONNRESET'),
        status: 'failed',
        nextAttemptAt: now + 310,
        lastError: 'ECONNRESET; retried for 24 hours',
      };
      expect(await store.settle(delivery.id, 'w1', done)).to.equal(false);
      expect(await store.settle(delivery.id, 'w2', done)).to.equal(true);
      expect(await store.find(delivery.id)).to.deep.equal({
        ...queued(delivery),
        status: 'failed',
        attempts: [attemptAt(now, 500), attemptAt(now + 300, null, 'ECONNRESET')],
        nextAttemptAt: now + 310,
        lastError: 'ECONNRESET; retried for 24 hours',
      });
      // Ended: nothing more is written, nor claimed.
      expect(await store.settle(delivery.id, 'w2', done)).to.equal(false);
      expect(await store.claim({ worker: 'w3', now: now + 99_999, leaseUntil: now + 999_999, limit: 9 })).to.deep.equal(
        [],
      );
    });

    it('hands back what a worker holds on release (those named, or all): due again at once, for anyone', async () => {
      const [a, b, c] = [aDelivery(), aDelivery(), aDelivery()];
      await store.enqueue([a, b, c]);
      const now = created + 1;
      await store.claim({ worker: 'w1', now, leaseUntil: now + 60_000, limit: 3 });
      expect(await store.release('w1', [a.id])).to.equal(1);
      expect(ids(await store.claim({ worker: 'w2', now, leaseUntil: now + 60_000, limit: 9 }))).to.deep.equal([a.id]);
      expect(await store.release('w1')).to.equal(2);
      expect(ids(await store.claim({ worker: 'w3', now, leaseUntil: now + 60_000, limit: 9 }))).to.deep.equal([
        b.id,
        c.id,
      ]);
    });

    it("lists an endpoint's deliveries newest first, by status, at most `limit`, before a delivery", async () => {
      const [a, b, c] = [aDelivery(), aDelivery(), aDelivery()];
      const elsewhere = aDelivery({ endpointId: 'endpoint-2' });
      await store.enqueue([a, b, c, elsewhere]);
      const now = created + 1;
      await store.claim({ worker: 'w1', now, leaseUntil: now + 1000, limit: 1 });
      await store.settle(a.id, 'w1', {
        attempt: attemptAt(now, 200),
        status: 'delivered',
        nextAttemptAt: now,
        lastError: null,
      });
      expect(ids(await store.list({ endpointId: 'endpoint-1', limit: 10 }))).to.deep.equal([c.id, b.id, a.id]);
      expect(ids(await store.list({ endpointId: 'endpoint-1', limit: 2 }))).to.deep.equal([c.id, b.id]);
      expect(
        ids(await store.list({ endpointId: 'endpoint-1', limit: 10, before: { createdAt: b.createdAt, id: b.id } })),
      ).to.deep.equal([a.id]);
      expect(ids(await store.list({ endpointId: 'endpoint-1', status: 'delivered', limit: 10 }))).to.deep.equal([a.id]);
      expect(ids(await store.list({ endpointId: 'endpoint-1', status: 'queued', limit: 10 }))).to.deep.equal([
        c.id,
        b.id,
      ]);
      expect(ids(await store.list({ endpointId: 'endpoint-3', limit: 10 }))).to.deep.equal([]);
    });

    it('queues an ended delivery again, due now, keeping its id and attempts; false for an unknown one', async () => {
      const delivery = aDelivery();
      await store.enqueue([delivery]);
      const now = created + 1;
      await store.claim({ worker: 'w1', now, leaseUntil: now + 1000, limit: 1 });
      await store.settle(delivery.id, 'w1', {
        attempt: attemptAt(now, 404),
        status: 'failed',
        nextAttemptAt: now,
        lastError: 'answered 404',
      });
      expect(await store.requeue(delivery.id, now + 50)).to.equal(true);
      expect(await store.find(delivery.id)).to.deep.equal({
        ...queued(delivery),
        attempts: [attemptAt(now, 404)],
        nextAttemptAt: now + 50,
      });
      expect(ids(await store.claim({ worker: 'w2', now: now + 50, leaseUntil: now + 999, limit: 5 }))).to.deep.equal([
        delivery.id,
      ]);
      expect(await store.requeue(`msg_${randomUUID()}`, now)).to.equal(false);
    });
  });
}
