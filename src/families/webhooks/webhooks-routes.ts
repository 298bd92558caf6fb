import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { checked } from '../../platform/config/codecs.js';
import { described, jsonFlag, matching, oneOf, orNull, text } from '../../platform/http/codecs.js';
import { optional, pageQuery, required } from '../../platform/http/fields.js';
import { defineRoute, json, jsonOf, type Route } from '../../platform/http/route-table.js';
import {
  ENDPOINT_ID,
  ENDPOINT_ID_RULE,
  MAX_DESCRIPTION_CHARACTERS,
  MAX_ENDPOINTS_PER_OWNER,
  WEBHOOK_SCOPES,
} from './domain/endpoint.js';
import { EVERY_EVENT, WEBHOOK_EVENT_TYPES } from './domain/events.js';
import type { ManageWebhooks } from './domain/manage-webhooks.js';
import { WebhooksPermission } from './domain/permissions.js';
import type { TestWebhook } from './domain/test-webhook.js';
import { DELIVERY_STATUSES } from './domain/delivery.js';
import {
  DEFAULT_DELIVERY_PAGE,
  DELIVERY_CURSOR,
  DELIVERY_ID,
  MAX_DELIVERY_PAGE,
  type ReadDeliveries,
} from './domain/read-deliveries.js';

export interface WebhookRouteDependencies {
  readonly manage: ManageWebhooks;
  readonly test: TestWebhook;
  readonly deliveries: ReadDeliveries;
}

const MAX_EVENTS = WEBHOOK_EVENT_TYPES.length + 1;

/**
 * A URL as sent, without white space; what it may be (https, where it leads, at most
 * MAX_URL_LENGTH long) is the domain's rule. The length is not in the pattern: a bound counts
 * UTF-16 units without the `u` flag and code points with it, and the document's reader may use either.
 */
const endpointUrl = matching(/^\S+$/, 'an absolute https URL');

/**
 * Event names as sent: the domain checks each against the list (and says which is unknown); the
 * row says what they may be, for the document.
 */
const eventNames = described(
  checked(
    `a list of at most ${MAX_EVENTS} event names`,
    (u): u is string[] =>
      Array.isArray(u) && u.length <= MAX_EVENTS && u.every((name) => typeof name === 'string' && name.length <= 50),
  ),
  {
    type: 'array',
    minItems: 1,
    maxItems: MAX_EVENTS,
    uniqueItems: true,
    items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES, EVERY_EVENT] },
  },
);

const description = text(1, MAX_DESCRIPTION_CHARACTERS);
const endpointId = matching(ENDPOINT_ID, ENDPOINT_ID_RULE);
const nullableString = t.union([t.string, t.null]);

const endpointView = t.strict({
  id: t.string,
  url: t.string,
  events: t.readonlyArray(t.string),
  description: nullableString,
  scope: oneOf(WEBHOOK_SCOPES, 'own or all'),
  disabled: t.boolean,
  createdAt: t.string,
  updatedAt: t.string,
  previousSecretUntil: nullableString,
});
const createdEndpoint = t.intersection([endpointView, t.strict({ secret: t.string })]);
const rotatedSecret = t.strict({ id: t.string, secret: t.string, previousSecretUntil: t.string });
const testOutcome = t.strict({
  webhookId: t.string,
  delivered: t.boolean,
  status: t.union([t.number, t.null]),
  error: nullableString,
  durationMs: t.number,
});

const deliveryView = t.strict({
  id: t.string,
  event: t.strict({ id: t.string, type: t.string }),
  status: oneOf(DELIVERY_STATUSES, DELIVERY_STATUSES.join(', ')),
  attempts: t.readonlyArray(
    t.strict({ at: t.string, status: t.union([t.number, t.null]), error: nullableString, durationMs: t.number }),
  ),
  createdAt: t.string,
  nextAttemptAt: nullableString,
  lastError: nullableString,
});
const deliveryPage = t.strict({ deliveries: t.readonlyArray(deliveryView), nextCursor: nullableString });

const idQuery = { id: required(endpointId, 'the endpoint id POST /webhook/create answered') };
const OWN_ONLY = 'Your own endpoints only: anyone else’s answers 404 code 22, as an unknown one does';

export function webhookRoutes({ manage, test, deliveries }: WebhookRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/webhook/create',
      permission: WebhooksPermission.WebhooksManage,
      summary:
        'Register an endpoint that is sent the events named, signed by the Standard Webhooks scheme with the secret in this answer ' +
        `only. The URL must be https: (http: only where the operator allows it) and lead to a public address. At most ${MAX_ENDPOINTS_PER_OWNER} ` +
        'endpoints a user (409 code 26 beyond)',
      body: {
        url: required(endpointUrl, 'where events are POSTed'),
        events: required(eventNames, `event names, or ["${EVERY_EVENT}"] for every one`),
        description: optional(description, 'what the endpoint is for'),
        scope: optional(
          oneOf(WEBHOOK_SCOPES, 'own or all'),
          `own (default): events about your own tokens, mail and account; all: every event, with ${WebhooksPermission.WebhooksAll}`,
        ),
      },
      status: 201,
      response: createdEndpoint,
      errors: ['Conflict'],
      handle: async ({ actor, body }) => jsonOf(await manage.create(actor, body)),
    }),
    defineRoute({
      method: 'GET',
      path: '/webhook/list',
      permission: WebhooksPermission.WebhooksManage,
      summary: 'Your endpoints, newest first (never their secrets)',
      response: t.readonlyArray(endpointView),
      handle: async ({ actor }) => jsonOf(await manage.list(actor)),
    }),
    defineRoute({
      method: 'GET',
      path: '/webhook/info',
      permission: WebhooksPermission.WebhooksManage,
      summary: `One endpoint (never its secret). ${OWN_ONLY}`,
      query: idQuery,
      response: endpointView,
      errors: ['WebhookNotFound'],
      handle: async ({ actor, query }) => jsonOf(await manage.info(actor, query.id)),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/webhook/update',
      permission: WebhooksPermission.WebhooksManage,
      summary: `Change an endpoint's URL (checked as at creation), events or description, or disable or enable it. ${OWN_ONLY}`,
      query: idQuery,
      body: {
        url: optional(endpointUrl, 'where events are POSTed from now on'),
        events: optional(eventNames, `event names, or ["${EVERY_EVENT}"]`),
        description: optional(orNull(description), 'what the endpoint is for; null: none'),
        disabled: optional(jsonFlag, 'true: nothing is sent to it; false: it is sent events again'),
      },
      fieldPlaces: { id: 'query' },
      response: endpointView,
      errors: ['WebhookNotFound'],
      handle: async ({ actor, query, body }) => jsonOf(await manage.update(actor, query.id, body)),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/webhook/delete',
      permission: WebhooksPermission.WebhooksManage,
      summary: `Delete an endpoint: nothing more is sent to it. ${OWN_ONLY}`,
      query: idQuery,
      response: t.strict({ deleted: t.literal(true), id: t.string }),
      errors: ['WebhookNotFound'],
      handle: async ({ actor, query }) =>
        E.map(({ id }: { id: string }) => json({ deleted: true as const, id }))(await manage.remove(actor, query.id)),
    }),
    defineRoute({
      method: 'POST',
      path: '/webhook/rotate-secret',
      permission: WebhooksPermission.WebhooksManage,
      summary:
        'A new signing secret, in this answer only; the one it replaces keeps signing beside it (a second signature in ' +
        `webhook-signature) for 24 hours, so that receivers can switch without refusing a delivery. ${OWN_ONLY}`,
      query: idQuery,
      status: 201,
      response: rotatedSecret,
      errors: ['WebhookNotFound'],
      handle: async ({ actor, query }) => jsonOf(await manage.rotateSecret(actor, query.id)),
    }),
    defineRoute({
      method: 'POST',
      path: '/webhook/test',
      permission: WebhooksPermission.WebhooksManage,
      summary:
        'Send a webhook.test event to the endpoint now, signed as every delivery is, and answer how the attempt went: the ' +
        `receiver's status, or why it did not answer (a refused destination, a network failure, the time-out), and how long it took. ${OWN_ONLY}`,
      query: idQuery,
      response: testOutcome,
      errors: ['WebhookNotFound'],
      handle: async ({ actor, query }) => jsonOf(await test.execute(actor, query.id)),
    }),
    defineRoute({
      method: 'GET',
      path: '/webhook/deliveries',
      permission: WebhooksPermission.WebhooksManage,
      summary:
        "An endpoint's deliveries, newest first: each with its event, every attempt (time, the receiver's status or why it " +
        `did not answer, duration) and the next attempt's time. ${OWN_ONLY}`,
      query: {
        ...idQuery,
        status: optional(oneOf(DELIVERY_STATUSES, DELIVERY_STATUSES.join(', ')), 'only deliveries of this status'),
        ...pageQuery('deliveries', {
          max: MAX_DELIVERY_PAGE,
          byDefault: DEFAULT_DELIVERY_PAGE,
          cursor: DELIVERY_CURSOR,
        }),
      },
      response: deliveryPage,
      errors: ['WebhookNotFound'],
      handle: async ({ actor, query: { id, ...request } }) => jsonOf(await deliveries.list(actor, id, request)),
    }),
    defineRoute({
      method: 'POST',
      path: '/webhook/redeliver',
      permission: WebhooksPermission.WebhooksManage,
      summary:
        'Queue a delivery of the endpoint again, due now, with the same webhook-id (one still queued stays as it is); ' +
        `answered once it is queued. ${OWN_ONLY}`,
      query: {
        ...idQuery,
        delivery: required(matching(DELIVERY_ID, 'a delivery id'), 'the delivery, as GET /webhook/deliveries lists it'),
      },
      status: 202,
      response: t.strict({ id: t.string, status: t.literal('queued') }),
      errors: ['WebhookNotFound'],
      handle: async ({ actor, query }) => jsonOf(await deliveries.redeliver(actor, query.id, query.delivery)),
    }),
  ];
}
