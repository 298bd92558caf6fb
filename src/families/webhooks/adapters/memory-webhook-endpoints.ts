import type { EndpointChanges, WebhookEndpoint } from '../domain/endpoint.js';
import type { WebhookEndpoints } from '../domain/ports.js';

const newestFirst = (a: WebhookEndpoint, b: WebhookEndpoint): number =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Webhook endpoints in this process's memory: for tests, and a server on memory storage. */
export class MemoryWebhookEndpoints implements WebhookEndpoints {
  private readonly byId = new Map<string, WebhookEndpoint>();

  async insert(endpoint: WebhookEndpoint): Promise<void> {
    if (this.byId.has(endpoint.id)) throw new Error(`webhook endpoint ${endpoint.id} exists`);
    this.byId.set(endpoint.id, endpoint);
  }

  async find(id: string): Promise<WebhookEndpoint | undefined> {
    return this.byId.get(id);
  }

  async listOwnedBy(ownerUserId: string | null): Promise<readonly WebhookEndpoint[]> {
    return [...this.byId.values()].filter((endpoint) => endpoint.ownerUserId === ownerUserId).sort(newestFirst);
  }

  async listAll(): Promise<readonly WebhookEndpoint[]> {
    return [...this.byId.values()].sort(newestFirst);
  }

  async update(id: string, changes: EndpointChanges): Promise<WebhookEndpoint | undefined> {
    const endpoint = this.byId.get(id);
    if (endpoint === undefined) return undefined;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const updated: WebhookEndpoint = { ...endpoint, ...defined };
    this.byId.set(id, updated);
    return updated;
  }

  async remove(id: string): Promise<boolean> {
    return this.byId.delete(id);
  }
}
