import { mostly, type RouteSampleTable } from '../../platform/http/route-samples.js';

/** An endpoint the run made (and may have deleted), or ids that are unknown (404 code 22) or malformed (400 code 7). */
const id = {
  existing: 'webhook',
  otherwise: ['0f8fad5b-d9cb-469f-a165-70867728950e', '', 'x', '0F8FAD5B-D9CB-469F-A165-70867728950E'],
} as const;
/**
 * Where endpoints point: addresses only, so that no sample waits on a resolver. Loopback port 1,
 * where the fuzz suite allows loopback, refuses a test at once; the others the guard or the form
 * rules refuse (400 code 11).
 */
const url = mostly(
  ['https://127.0.0.1:1/hooks', 'https://127.0.0.2:1/in?team=zoë'],
  [
    'http://127.0.0.1:1/',
    'https://[::1]:1/',
    'https://10.0.0.1/',
    'https://169.254.169.254/latest',
    'ftp://127.0.0.1/',
    'not a url',
    'https://user:pw@127.0.0.1:1/',
    'https://127.0.0.1:1/#part',
  ],
);
const events = mostly<unknown>(
  [['token.created'], ['*'], ['mail.delivered', 'mail.failed'], ['user.blocked', 'token.expiring']],
  [[], ['*', 'token.created'], ['token.made'], ['token.created', 'token.created'], 'token.created'],
);
const description = mostly<unknown>(['billing alerts', 'Zoë’s keys ☕'], ['', 'x'.repeat(501), 42]);

export const webhooksSamples: RouteSampleTable = {
  'POST /webhook/create': {
    example: {
      body: {
        url: 'https://example.com/hooks/utility-api',
        events: ['token.created', 'token.deleted'],
        description: 'key changes',
      },
    },
    body: { url, events, description, scope: mostly<unknown>(['own', 'all'], ['everyone', '']) },
  },
  'GET /webhook/list': {},
  'GET /webhook/info': { query: { id } },
  'PATCH /webhook/update': {
    example: { body: { events: ['token.created', 'token.rotated', 'token.deleted'] } },
    query: { id },
    body: { url, events, description: mostly<unknown>(['renamed', null], ['']), disabled: [true, false, 'yes'] },
  },
  'DELETE /webhook/delete': { query: { id } },
  'POST /webhook/rotate-secret': { query: { id } },
  'POST /webhook/test': { query: { id } },
  'GET /webhook/deliveries': {
    example: { query: { limit: '20' } },
    query: {
      id,
      status: mostly(['queued', 'delivered', 'failed'], ['sent', '']),
      limit: mostly(['1', '20', '100'], ['0', '101', 'ten']),
      cursor: mostly(['1764208800000.msg_0f8fad5b-d9cb-469f-a165-70867728950e'], ['x', '']),
    },
  },
  'POST /webhook/redeliver': {
    query: { id, delivery: ['msg_0f8fad5b-d9cb-469f-a165-70867728950e', 'msg_x', ''] },
  },
};
