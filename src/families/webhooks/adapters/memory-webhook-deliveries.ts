import {
  newestFirst,
  oldestDueFirst,
  type DeliverySettlement,
  type NewDelivery,
  type WebhookDelivery,
} from '../domain/delivery.js';
import type { DeliveryClaim, DeliveryFilter, WebhookDeliveries } from '../domain/ports.js';

interface Held {
  delivery: WebhookDelivery;
  leaseOwner: string | null;
  leaseUntil: number | null;
}

/** Webhook deliveries in this process's memory: for tests, and a server on memory storage. */
export class MemoryWebhookDeliveries implements WebhookDeliveries {
  private readonly byId = new Map<string, Held>();

  async enqueue(deliveries: readonly NewDelivery[]): Promise<number> {
    let queued = 0;
    for (const delivery of deliveries) {
      const duplicate = [...this.byId.values()].some(
        ({ delivery: held }) => held.endpointId === delivery.endpointId && held.eventId === delivery.eventId,
      );
      if (duplicate || this.byId.has(delivery.id)) continue;
      this.byId.set(delivery.id, {
        delivery: {
          ...delivery,
          status: 'queued',
          attempts: [],
          nextAttemptAt: delivery.createdAt,
          lastError: null,
        },
        leaseOwner: null,
        leaseUntil: null,
      });
      queued += 1;
    }
    return queued;
  }

  async claim({ worker, now, leaseUntil, limit }: DeliveryClaim): Promise<readonly WebhookDelivery[]> {
    const due = [...this.byId.values()]
      .filter(
        (held) =>
          held.delivery.status === 'queued' &&
          held.delivery.nextAttemptAt <= now &&
          (held.leaseUntil === null || held.leaseUntil <= now),
      )
      .sort((a, b) => oldestDueFirst(a.delivery, b.delivery))
      .slice(0, limit);
    for (const held of due) {
      held.leaseOwner = worker;
      held.leaseUntil = leaseUntil;
    }
    return due.map((held) => held.delivery);
  }

  async settle(id: string, worker: string, settlement: DeliverySettlement): Promise<boolean> {
    const held = this.byId.get(id);
    if (held === undefined || held.leaseOwner !== worker || held.delivery.status !== 'queued') return false;
    held.delivery = {
      ...held.delivery,
      status: settlement.status,
      attempts: [...held.delivery.attempts, settlement.attempt],
      nextAttemptAt: settlement.nextAttemptAt,
      lastError: settlement.lastError,
    };
    held.leaseOwner = null;
    held.leaseUntil = null;
    return true;
  }

  async release(worker: string, ids?: readonly string[]): Promise<number> {
    let released = 0;
    for (const held of this.byId.values()) {
      if (held.leaseOwner !== worker || (ids !== undefined && !ids.includes(held.delivery.id))) continue;
      held.leaseOwner = null;
      held.leaseUntil = null;
      released += 1;
    }
    return released;
  }

  async find(id: string): Promise<WebhookDelivery | undefined> {
    return this.byId.get(id)?.delivery;
  }

  async list({ endpointId, status, limit, before }: DeliveryFilter): Promise<readonly WebhookDelivery[]> {
    return [...this.byId.values()]
      .map((held) => held.delivery)
      .filter(
        (delivery) =>
          delivery.endpointId === endpointId &&
          (status === undefined || delivery.status === status) &&
          (before === undefined || newestFirst(delivery, { ...delivery, ...before }) > 0),
      )
      .sort(newestFirst)
      .slice(0, limit);
  }

  async requeue(id: string, now: number): Promise<boolean> {
    const held = this.byId.get(id);
    if (held === undefined) return false;
    if (held.delivery.status !== 'queued')
      held.delivery = { ...held.delivery, status: 'queued', nextAttemptAt: now, lastError: null };
    return true;
  }
}
