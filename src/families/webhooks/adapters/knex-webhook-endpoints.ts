import type { Knex } from 'knex';
import { toBoolean, toNumber, toNumberOrNull } from '../../../platform/persistence/columns.js';
import type { EndpointChanges, WebhookEndpoint } from '../domain/endpoint.js';
import type { EventFilter } from '../domain/events.js';
import type { WebhookEndpoints } from '../domain/ports.js';

export const ENDPOINTS_TABLE = 'webhook_endpoints';

interface EndpointRow {
  id: string;
  owner_user_id: string | null;
  url: string;
  events: string;
  description: string | null;
  scope: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | string | null;
  disabled: boolean | number;
  failing_since: number | string | null;
  created_at: number | string;
  updated_at: number | string;
}

const endpointOf = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  ownerUserId: row.owner_user_id,
  url: row.url,
  events: JSON.parse(row.events) as EventFilter,
  description: row.description,
  scope: row.scope === 'all' ? 'all' : 'own',
  secrets: {
    current: row.secret,
    previous: row.previous_secret,
    previousUntil: toNumberOrNull(row.previous_secret_until),
  },
  disabled: toBoolean(row.disabled),
  failingSince: toNumberOrNull(row.failing_since),
  createdAt: toNumber(row.created_at),
  updatedAt: toNumber(row.updated_at),
});

const rowOf = (endpoint: WebhookEndpoint): EndpointRow => ({
  id: endpoint.id,
  owner_user_id: endpoint.ownerUserId,
  url: endpoint.url,
  events: JSON.stringify(endpoint.events),
  description: endpoint.description,
  scope: endpoint.scope,
  secret: endpoint.secrets.current,
  previous_secret: endpoint.secrets.previous,
  previous_secret_until: endpoint.secrets.previousUntil,
  disabled: endpoint.disabled,
  failing_since: endpoint.failingSince,
  created_at: endpoint.createdAt,
  updated_at: endpoint.updatedAt,
});

/** Webhook endpoints in SQL (SQLite or PostgreSQL), one row each. */
export class KnexWebhookEndpoints implements WebhookEndpoints {
  constructor(private readonly db: Knex) {}

  async insert(endpoint: WebhookEndpoint): Promise<void> {
    await this.db(ENDPOINTS_TABLE).insert(rowOf(endpoint));
  }

  async find(id: string): Promise<WebhookEndpoint | undefined> {
    const row = (await this.db(ENDPOINTS_TABLE).where({ id }).first()) as EndpointRow | undefined;
    return row && endpointOf(row);
  }

  async listOwnedBy(ownerUserId: string | null): Promise<readonly WebhookEndpoint[]> {
    const query = this.db(ENDPOINTS_TABLE);
    if (ownerUserId === null) query.whereNull('owner_user_id');
    else query.where({ owner_user_id: ownerUserId });
    return (
      (await query.orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])) as EndpointRow[]
    ).map(endpointOf);
  }

  async listAll(): Promise<readonly WebhookEndpoint[]> {
    return (
      (await this.db(ENDPOINTS_TABLE).orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])) as EndpointRow[]
    ).map(endpointOf);
  }

  async update(id: string, changes: EndpointChanges): Promise<WebhookEndpoint | undefined> {
    const columns: Partial<EndpointRow> = { updated_at: changes.updatedAt };
    if (changes.url !== undefined) columns.url = changes.url;
    if (changes.events !== undefined) columns.events = JSON.stringify(changes.events);
    if (changes.description !== undefined) columns.description = changes.description;
    if (changes.disabled !== undefined) columns.disabled = changes.disabled;
    if (changes.failingSince !== undefined) columns.failing_since = changes.failingSince;
    if (changes.secrets !== undefined) {
      columns.secret = changes.secrets.current;
      columns.previous_secret = changes.secrets.previous;
      columns.previous_secret_until = changes.secrets.previousUntil;
    }
    return this.db.transaction(async (trx) => {
      const changed = await trx(ENDPOINTS_TABLE).where({ id }).update(columns);
      if (changed === 0) return undefined;
      return endpointOf((await trx(ENDPOINTS_TABLE).where({ id }).first()) as EndpointRow);
    });
  }

  async remove(id: string): Promise<boolean> {
    return (await this.db(ENDPOINTS_TABLE).where({ id }).delete()) > 0;
  }
}
