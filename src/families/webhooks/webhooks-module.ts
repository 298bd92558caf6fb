import { ContainerModule } from 'inversify';
import { Clock, Randomness } from '../../domain/ports.js';
import { cachingHostLookup, serversResolve } from '../../platform/upstream/host-lookup.js';
import { OutboundConnections, RouteContribution, SqlStorage, useCasesIdentifier } from '../../wiring/identifiers.js';
import { typedBindings } from '../../wiring/typed-binding.js';
import { GuardedDestinations } from './adapters/guarded-destinations.js';
import { GuardedWebhookSender } from './adapters/guarded-webhook-sender.js';
import { KnexWebhookEndpoints } from './adapters/knex-webhook-endpoints.js';
import { MemoryWebhookEndpoints } from './adapters/memory-webhook-endpoints.js';
import { ManageWebhooks } from './domain/manage-webhooks.js';
import { WebhookDestinations, WebhookEndpoints, WebhookSender } from './domain/ports.js';
import { TestWebhook } from './domain/test-webhook.js';
import { webhookRoutes } from './webhooks-routes.js';
import type { WebhooksSettings } from './webhooks-settings.js';

/** What the family offers a library user: managing endpoints, and testing one. */
export interface WebhooksUseCases {
  readonly manageWebhooks: ManageWebhooks;
  readonly testWebhook: TestWebhook;
}
export const WebhooksUseCases = useCasesIdentifier<WebhooksUseCases>('WebhooksUseCases');

/** How long an endpoint's host's addresses are used before it is resolved again; the guard checks each connection anyway. */
const HOST_TTL_MS = 30_000;

/**
 * Webhooks: endpoints in the storage, their URLs checked and their deliveries sent through the
 * outbound guard, over one lookup (the operator's resolvers, or the system's).
 */
export const webhooksModule = (settings: WebhooksSettings): ContainerModule =>
  new ContainerModule((options) => {
    const { provide } = typedBindings(options);
    const lookup = cachingHostLookup({
      ttlMs: HOST_TTL_MS,
      resolve: settings.dnsServers.length > 0 ? serversResolve(settings.dnsServers, settings.timeoutMs) : undefined,
    });
    provide(WebhookEndpoints, [SqlStorage], (sql) =>
      sql ? sql.inTime(new KnexWebhookEndpoints(sql.db)) : new MemoryWebhookEndpoints(),
    ).inSingletonScope();
    provide(WebhookDestinations, [OutboundConnections], (guard) => new GuardedDestinations(guard, lookup));
    provide(
      WebhookSender,
      [OutboundConnections],
      (guard) => new GuardedWebhookSender(guard, lookup, settings.timeoutMs),
    ).inSingletonScope();
    provide(
      WebhooksUseCases,
      [WebhookEndpoints, WebhookDestinations, WebhookSender, Clock, Randomness],
      (endpoints, destinations, sender, clock, randomness) => {
        const manageWebhooks = new ManageWebhooks(endpoints, destinations, clock, randomness, {
          allowHttp: settings.allowHttp,
        });
        return { manageWebhooks, testWebhook: new TestWebhook(manageWebhooks, sender, clock, randomness) };
      },
    ).inSingletonScope();
    provide(RouteContribution, [WebhooksUseCases], ({ manageWebhooks, testWebhook }) => ({
      routes: webhookRoutes({ manage: manageWebhooks, test: testWebhook }),
    }));
  });
