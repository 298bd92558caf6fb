import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { KnexWebhookEndpoints } from '../../src/families/webhooks/adapters/knex-webhook-endpoints.js';
import { MemoryWebhookEndpoints } from '../../src/families/webhooks/adapters/memory-webhook-endpoints.js';
import type { WebhookEndpoint } from '../../src/families/webhooks/domain/endpoint.js';
import type { WebhookEndpoints } from '../../src/families/webhooks/domain/ports.js';
import { sqlDatabases } from '../support/databases.js';

interface OpenedEndpoints {
  readonly endpoints: WebhookEndpoints;
  /** Another adapter over the same storage, as another process opens it (memory has only itself). */
  another(): WebhookEndpoints;
  close(): Promise<void>;
}

/** Every adapter of the endpoint store, each opened fresh for one test. */
const adapters: { name: string; open: () => Promise<OpenedEndpoints> }[] = [
  {
    name: 'memory',
    open: async () => {
      const endpoints = new MemoryWebhookEndpoints();
      return { endpoints, another: () => endpoints, close: async () => {} };
    },
  },
  ...sqlDatabases.map(({ name, open }) => ({
    name: `Knex on ${name}`,
    open: async (): Promise<OpenedEndpoints> => {
      const database = await open();
      return {
        endpoints: new KnexWebhookEndpoints(database.db),
        another: () => new KnexWebhookEndpoints(database.db),
        close: database.drop,
      };
    },
  })),
];

const T0 = Date.UTC(2026, 10, 27, 2, 0, 0);
let created = T0;

/** An endpoint as ManageWebhooks makes one, each a millisecond after the last. */
function anEndpoint(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  created += 1;
  return {
    id: randomUUID(),
    ownerUserId: 'user-1',
    url: 'https://hooks.example/in?team=zoë',
    events: ['token.created', 'mail.failed'],
    description: 'Zoë’s alerts ☕',
    scope: 'own',
    secrets: { current: `whsec_${'A'.repeat(43)}=`, previous: null, previousUntil: null },
    disabled: false,
    failingSince: null,
    createdAt: created,
    updatedAt: created,
    ...overrides,
  };
}

for (const adapter of adapters) {
  describe(`contract: webhook endpoints (${adapter.name})`, () => {
    let opened: OpenedEndpoints;
    let store: WebhookEndpoints;
    beforeEach(async () => {
      opened = await adapter.open();
      store = opened.endpoints;
    });
    afterEach(() => opened.close());

    it('gives back an endpoint as inserted, field by field, to another adapter of the storage', async () => {
      const every = anEndpoint({ events: ['*'], scope: 'all', ownerUserId: null, description: null });
      const rotated = anEndpoint({
        secrets: {
          current: `whsec_${'B'.repeat(43)}=`,
          previous: `whsec_${'C'.repeat(43)}=`,
          previousUntil: T0 + 86_400_000,
        },
        disabled: true,
        failingSince: T0 - 5,
      });
      await store.insert(every);
      await store.insert(rotated);
      expect(await opened.another().find(every.id)).to.deep.equal(every);
      expect(await opened.another().find(rotated.id)).to.deep.equal(rotated);
    });

    it('answers undefined for an id it does not hold', async () => {
      await store.insert(anEndpoint());
      expect(await store.find(randomUUID())).to.equal(undefined);
    });

    it("lists one owner's endpoints newest first, the operator's (null) apart, and every endpoint newest first", async () => {
      const first = anEndpoint();
      const other = anEndpoint({ ownerUserId: 'user-2' });
      const operators = anEndpoint({ ownerUserId: null });
      const second = anEndpoint();
      for (const endpoint of [first, other, operators, second]) await store.insert(endpoint);
      expect(await store.listOwnedBy('user-1')).to.deep.equal([second, first]);
      expect(await store.listOwnedBy('user-2')).to.deep.equal([other]);
      expect(await store.listOwnedBy(null)).to.deep.equal([operators]);
      expect(await store.listOwnedBy('user-3')).to.deep.equal([]);
      expect(await store.listAll()).to.deep.equal([second, operators, other, first]);
    });

    it('orders endpoints made in the same millisecond by id, the same way every time', async () => {
      const [a, b] = [anEndpoint(), anEndpoint()];
      const same = [a, { ...b, createdAt: a.createdAt }].sort((x, y) => (x.id < y.id ? 1 : -1));
      for (const endpoint of same) await store.insert(endpoint);
      expect(await store.listAll()).to.deep.equal(same);
    });

    it('changes only the fields given, and answers the endpoint as changed', async () => {
      const endpoint = anEndpoint();
      await store.insert(endpoint);
      const changed = await store.update(endpoint.id, { events: ['user.deleted'], updatedAt: T0 + 5 });
      expect(changed).to.deep.equal({ ...endpoint, events: ['user.deleted'], updatedAt: T0 + 5 });
      const all = await store.update(endpoint.id, {
        url: 'https://other.example/',
        description: null,
        disabled: true,
        secrets: { current: `whsec_${'D'.repeat(43)}=`, previous: endpoint.secrets.current, previousUntil: T0 + 9 },
        failingSince: T0 + 3,
        updatedAt: T0 + 6,
      });
      const expected: WebhookEndpoint = {
        ...endpoint,
        events: ['user.deleted'],
        url: 'https://other.example/',
        description: null,
        disabled: true,
        secrets: { current: `whsec_${'D'.repeat(43)}=`, previous: endpoint.secrets.current, previousUntil: T0 + 9 },
        failingSince: T0 + 3,
        updatedAt: T0 + 6,
      };
      expect(all).to.deep.equal(expected);
      expect(await opened.another().find(endpoint.id)).to.deep.equal(expected);
    });

    it('answers undefined to an update of an id it does not hold, and stores nothing', async () => {
      expect(await store.update(randomUUID(), { disabled: true, updatedAt: T0 })).to.equal(undefined);
      expect(await store.listAll()).to.deep.equal([]);
    });

    it('removes an endpoint once: true, then false', async () => {
      const [kept, removed] = [anEndpoint(), anEndpoint()];
      await store.insert(kept);
      await store.insert(removed);
      expect(await store.remove(removed.id)).to.equal(true);
      expect(await store.remove(removed.id)).to.equal(false);
      expect(await store.find(removed.id)).to.equal(undefined);
      expect(await store.listAll()).to.deep.equal([kept]);
    });

    it('refuses a second endpoint of the same id (rejects), keeping the first', async () => {
      const endpoint = anEndpoint();
      await store.insert(endpoint);
      let rejected = false;
      await store.insert({ ...endpoint, url: 'https://evil.example/' }).catch(() => (rejected = true));
      expect(rejected).to.equal(true);
      expect(await store.find(endpoint.id)).to.deep.equal(endpoint);
    });
  });
}
