import { ContainerModule } from 'inversify';
import { randomUUID } from 'node:crypto';
import { EventLog } from '../../domain/events.js';
import { Clock, Randomness } from '../../domain/ports.js';
import { LifecycleComponent } from '../../platform/lifecycle.js';
import { cachingHostLookup, serversResolve } from '../../platform/upstream/host-lookup.js';
import {
  Log,
  OutboundConnections,
  RouteContribution,
  SqlStorage,
  useCasesIdentifier,
} from '../../wiring/identifiers.js';
import { typedBindings } from '../../wiring/typed-binding.js';
import { GuardedDestinations } from './adapters/guarded-destinations.js';
import { GuardedWebhookSender } from './adapters/guarded-webhook-sender.js';
import { KnexWebhookDeliveries } from './adapters/knex-webhook-deliveries.js';
import { KnexWebhookEndpoints } from './adapters/knex-webhook-endpoints.js';
import { MemoryWebhookDeliveries } from './adapters/memory-webhook-deliveries.js';
import { MemoryWebhookEndpoints } from './adapters/memory-webhook-endpoints.js';
import { DeliverWebhooks } from './domain/deliver-webhooks.js';
import { ExpiryNotices } from './domain/expiry-notices.js';
import { TokenStore, UserStore } from '../users-and-tokens/domain/index.js';
import { ManageWebhooks } from './domain/manage-webhooks.js';
import {
  OwnerNotices,
  WebhookDeliveries,
  WebhookDestinations,
  WebhookEndpoints,
  WebhookSender,
} from './domain/ports.js';
import { LoggedOwnerNotices, MailedOwnerNotices } from './adapters/mailed-owner-notices.js';
import { MailSending } from '../mail/domain/index.js';
import { ReadDeliveries } from './domain/read-deliveries.js';
import { TestWebhook } from './domain/test-webhook.js';
import { webhookRoutes } from './webhooks-routes.js';
import type { WebhooksSettings } from './webhooks-settings.js';
import { WebhookWorker } from './webhook-worker.js';

/** What the family offers a library user: managing endpoints, and testing one. */
export interface WebhooksUseCases {
  readonly manageWebhooks: ManageWebhooks;
  readonly testWebhook: TestWebhook;
  readonly readDeliveries: ReadDeliveries;
}
export const WebhooksUseCases = useCasesIdentifier<WebhooksUseCases>('WebhooksUseCases');

/** How long an endpoint's host's addresses are used before it is resolved again; the guard checks each connection anyway. */
const HOST_TTL_MS = 30_000;
/** Attempts in flight at once per instance. */
const CONCURRENCY = 16;
/** A stop's wait for attempts in flight before their deliveries are handed back. */
const STOP_GRACE_MS = 2000;

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
    provide(WebhookDeliveries, [SqlStorage], (sql) =>
      sql ? sql.inTime(new KnexWebhookDeliveries(sql.db)) : new MemoryWebhookDeliveries(),
    ).inSingletonScope();
    provide(WebhookDestinations, [OutboundConnections], (guard) => new GuardedDestinations(guard, lookup));
    provide(
      WebhookSender,
      [OutboundConnections],
      (guard) => new GuardedWebhookSender(guard, lookup, settings.timeoutMs),
    ).inSingletonScope();
    provide(
      WebhooksUseCases,
      [WebhookEndpoints, WebhookDestinations, WebhookSender, WebhookDeliveries, Clock, Randomness],
      (endpoints, destinations, sender, deliveries, clock, randomness) => {
        const manageWebhooks = new ManageWebhooks(endpoints, destinations, clock, randomness, {
          allowHttp: settings.allowHttp,
        });
        return {
          manageWebhooks,
          testWebhook: new TestWebhook(manageWebhooks, sender, clock, randomness),
          readDeliveries: new ReadDeliveries(manageWebhooks, deliveries, clock),
        };
      },
    ).inSingletonScope();
    if (settings.worker) {
      // Tokens about to expire and the owners of endpoints are read from users and tokens, whose module the list of families loads first.
      if (!options.isBound(TokenStore) || !options.isBound(UserStore))
        throw new Error(
          'webhook delivery needs the usersAndTokens family: build both, or set webhooks.worker to false',
        );
      // The mail family, when built, mails the owner of an endpoint it disables.
      if (options.isBound(MailSending))
        provide(
          OwnerNotices,
          [UserStore, MailSending, Log],
          (users, sendMail, logger) => new MailedOwnerNotices(users, sendMail, logger),
        );
      else provide(OwnerNotices, [Log], (logger) => new LoggedOwnerNotices(logger));
      provide(
        WebhookWorker,
        [
          EventLog,
          WebhookEndpoints,
          WebhookDeliveries,
          WebhookSender,
          Clock,
          Randomness,
          Log,
          TokenStore,
          UserStore,
          OwnerNotices,
        ],
        (events, endpoints, deliveries, sender, clock, randomness, logger, tokens, users, notices) =>
          new WebhookWorker(
            new DeliverWebhooks(events, endpoints, deliveries, sender, clock, randomness, settings, notices, users),
            new ExpiryNotices(tokens, users, events, clock),
            deliveries,
            clock,
            logger,
            {
              // The process's name in leases, never shown.
              id: randomUUID(),
              concurrency: CONCURRENCY,
              // An attempt ends by the time-out; the lease outlasts it twice over.
              leaseMs: 2 * settings.timeoutMs + 5000,
              pollIntervalMs: settings.pollIntervalMs,
              // A token's notice is due to the day: every 60 polls (a minute by default) is soon enough.
              expiryScanMs: 60 * settings.pollIntervalMs,
              // Old events are forgotten about every hour (3,600 polls by default).
              forgetEveryMs: 3600 * settings.pollIntervalMs,
              stopGraceMs: STOP_GRACE_MS,
            },
          ),
      ).inSingletonScope();
      provide(LifecycleComponent, [WebhookWorker], (worker) => worker);
    }
    provide(RouteContribution, [WebhooksUseCases], ({ manageWebhooks, testWebhook, readDeliveries }) => ({
      section: {
        name: 'Webhooks',
        description: 'Endpoints that receive signed events: what happened to tokens, users, mail and quotas.',
      },
      routes: webhookRoutes({ manage: manageWebhooks, test: testWebhook, deliveries: readDeliveries }),
    }));
  });
