import { Option, type Command } from 'commander';
import { OPERATOR } from '../../domain/identity/actor.js';
import { CliFailure } from '../../platform/cli/cli-failure.js';
import { collect, type CommandTools } from '../../platform/cli/commands.js';
import { ENDPOINT_ID, ENDPOINT_ID_RULE, WEBHOOK_SCOPES, type WebhookScope } from './domain/endpoint.js';
import { DELIVERY_STATUSES } from './domain/delivery.js';
import { DEFAULT_DELIVERY_PAGE, MAX_DELIVERY_PAGE } from './domain/read-deliveries.js';
import type { WebhooksUseCases } from './webhooks-module.js';

/** The id as typed, or one line saying what an id looks like. */
function endpointId(id: string): string {
  if (!ENDPOINT_ID.test(id))
    throw new CliFailure(`Invalid ID: it must be ${ENDPOINT_ID_RULE}, as webhook list shows it`);
  return id;
}

interface CreateOptions {
  readonly url: string;
  readonly event: string[];
  readonly description?: string;
  readonly scope: WebhookScope;
}

interface UpdateOptions {
  readonly url?: string;
  readonly event?: string[];
  readonly description?: string;
  readonly disable?: boolean;
  readonly enable?: boolean;
}

/**
 * `webhook create|list|info|update|delete|rotate-secret|test`: the operator's endpoints, through the
 * same use cases as the API, answered as JSON as the API answers. The operator sees and manages
 * every endpoint; those made here belong to nobody and hear every event by default.
 */
export function webhooksCommands(
  program: Command,
  { withUseCases, orFail, printJson }: CommandTools<WebhooksUseCases>,
): void {
  const webhook = program.command('webhook').description('manage webhook endpoints');

  webhook
    .command('create')
    .description('register an endpoint; its signing secret is printed this once')
    .requiredOption('--url <url>', 'where events are POSTed (https:, or http: where webhooks.allowHttp)')
    .requiredOption('--event <name>', 'an event to send (repeat for more), or * for every one', collect)
    .option('--description <text>', 'what the endpoint is for')
    .addOption(
      new Option('--scope <scope>', 'all: every event; own: those about its owner (none for the operator)')
        .choices([...WEBHOOK_SCOPES])
        .default('all'),
    )
    .action((options: CreateOptions) =>
      withUseCases(async ({ manageWebhooks }) =>
        printJson(
          orFail(
            await manageWebhooks.create(OPERATOR, {
              url: options.url,
              events: options.event,
              description: options.description,
              scope: options.scope,
            }),
          ),
        ),
      ),
    );

  webhook
    .command('list')
    .description('every endpoint, newest first, as JSON (never their secrets)')
    .action(() => withUseCases(async ({ manageWebhooks }) => printJson(orFail(await manageWebhooks.list(OPERATOR)))));

  webhook
    .command('info')
    .description('one endpoint as JSON')
    .argument('<id>', 'as webhook list shows it')
    .action((id: string) =>
      withUseCases(async ({ manageWebhooks }) =>
        printJson(orFail(await manageWebhooks.info(OPERATOR, endpointId(id)))),
      ),
    );

  webhook
    .command('update')
    .description("change an endpoint's URL, events or description, or disable or enable it")
    .argument('<id>', 'as webhook list shows it')
    .option('--url <url>', 'where events are POSTed from now on')
    .option('--event <name>', 'an event to send (repeat for more; replaces the list), or *', collect)
    .option('--description <text>', 'what the endpoint is for ("" for none)')
    .addOption(new Option('--disable', 'send it nothing').conflicts('enable'))
    .option('--enable', 'send it events again')
    .action((id: string, options: UpdateOptions) =>
      withUseCases(async ({ manageWebhooks }) =>
        printJson(
          orFail(
            await manageWebhooks.update(OPERATOR, endpointId(id), {
              url: options.url,
              events: options.event,
              description: options.description === '' ? null : options.description,
              disabled: options.disable ? true : options.enable ? false : undefined,
            }),
          ),
        ),
      ),
    );

  webhook
    .command('delete')
    .description('delete an endpoint')
    .argument('<id>', 'as webhook list shows it')
    .action((id: string) =>
      withUseCases(async ({ manageWebhooks }) =>
        printJson({ deleted: true, ...orFail(await manageWebhooks.remove(OPERATOR, endpointId(id))) }),
      ),
    );

  webhook
    .command('rotate-secret')
    .description('a new signing secret, printed this once; the old one keeps signing for 24 hours')
    .argument('<id>', 'as webhook list shows it')
    .action((id: string) =>
      withUseCases(async ({ manageWebhooks }) =>
        printJson(orFail(await manageWebhooks.rotateSecret(OPERATOR, endpointId(id)))),
      ),
    );

  webhook
    .command('deliveries')
    .description("an endpoint's deliveries, newest first, as JSON ({deliveries, nextCursor})")
    .argument('<id>', 'as webhook list shows it')
    .addOption(new Option('--status <status>', 'only deliveries of this status').choices([...DELIVERY_STATUSES]))
    .option('--limit <n>', `deliveries per page, 1 to ${MAX_DELIVERY_PAGE}; default ${DEFAULT_DELIVERY_PAGE}`)
    .option('--cursor <cursor>', 'the nextCursor of the page before')
    .action((id: string, options: { status?: string; limit?: string; cursor?: string }) =>
      withUseCases(async ({ readDeliveries }) =>
        printJson(
          orFail(
            await readDeliveries.list(OPERATOR, endpointId(id), {
              status: options.status,
              limit:
                options.limit === undefined ? undefined : /^\d{1,3}$/.test(options.limit) ? Number(options.limit) : NaN,
              cursor: options.cursor,
            }),
          ),
        ),
      ),
    );

  webhook
    .command('redeliver')
    .description('queue a delivery again, due now, with the same webhook-id')
    .argument('<id>', 'the endpoint, as webhook list shows it')
    .argument('<delivery>', 'as webhook deliveries shows it')
    .action((id: string, delivery: string) =>
      withUseCases(async ({ readDeliveries }) =>
        printJson(orFail(await readDeliveries.redeliver(OPERATOR, endpointId(id), delivery))),
      ),
    );

  webhook
    .command('test')
    .description('send a webhook.test event now and print how the attempt went')
    .argument('<id>', 'as webhook list shows it')
    .action((id: string) =>
      withUseCases(async ({ testWebhook }) => printJson(orFail(await testWebhook.execute(OPERATOR, endpointId(id))))),
    );
}
