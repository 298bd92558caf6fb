/**
 * The permissions of webhooks. `Webhooks::Manage` registers and manages one's own endpoints,
 * which hear events about one's own tokens, mail and account; `Webhooks::All` lets an endpoint
 * hear every event of the installation (`scope: "all"`).
 */
export const WebhooksPermission = {
  WebhooksManage: 'Webhooks::Manage',
  WebhooksAll: 'Webhooks::All',
} as const;
