/** What other families and library users may use of webhooks: its use cases, what they take and answer, its ports and its permissions. */
export type {
  CreatedEndpoint,
  EndpointUpdate,
  ManageWebhooks,
  NewEndpointInput,
  RotatedSecret,
  WebhookEndpointView,
} from './manage-webhooks.js';
export type { TestOutcome, TestWebhook } from './test-webhook.js';
export type { DeliveryPage, DeliveryRequest, DeliveryView, ReadDeliveries } from './read-deliveries.js';
export type {
  AttemptOutcome,
  OwnerNotices,
  WebhookDeliveries,
  WebhookDestinations,
  WebhookEndpoints,
  WebhookRequest,
  WebhookSender,
} from './ports.js';
export { WebhooksPermission } from './permissions.js';
