import { expect } from 'chai';
import { createClient, type Answer, type Client } from '../../src/client/index.js';
import { startServer, type TestServer } from '../support/http-server.js';

/**
 * Issue 28 §1: every operation the server serves, called through utility-api/client against a
 * live server, each call written out (and so type-checked against the generated types). The list
 * of operations comes from the route table as the server describes it: an operation added there
 * without a call here fails the first test, one removed fails the type-check.
 *
 * The upstreams point nowhere (loopback port 9, `off`): those operations answer the catalogue's
 * outage errors, which the client must still hand over as typed error values.
 */

/** What the calls made so far have created, for the calls that need an existing thing. */
interface Made {
  admin: string;
  username: string;
  uid: string;
  tokenId: string;
  ciphertext: string;
  messageId: string;
  webhookId: string;
}

/** What a call must answer: a success, or the catalogue error the operation documents for this situation. */
type Outcome = 'success' | { readonly status: number; readonly code: number };
/** One outcome, or any of several where the situation allows more than one. */
type Expected = Outcome | readonly Outcome[];
interface Call<Data = unknown> {
  readonly expected: Expected;
  readonly call: (api: Client, made: Made) => Promise<Answer<Data>>;
  /** Keeps what a later call needs, from the body its success is typed with. */
  readonly keep?: (data: Data, made: Made) => void;
}

/** A call whose `keep` reads the body of its own success, as the client types it. */
const op = <Data>(call: Call<Data>): Call => call as Call;

/** Unreachable upstreams, as the catalogue answers for them. */
const UPSTREAM_DOWN = [
  { status: 502, code: 29 },
  // A loaded machine may see the upstream's deadline pass before its refusal arrives.
  { status: 504, code: 30 },
] as const;
const UPSTREAM_OFF = { status: 423, code: 23 } as const;
/** An upstream turned off, with nothing imported in its place (and no quote imported at all). */
const NOTHING_STORED = { status: 404, code: 22 } as const;

/** In order: a thing is created before it is read, changed and deleted. */
const CALLS: readonly (readonly [string, Call])[] = [
  [
    'GET /api/crypto/enc',
    op({
      expected: 'success',
      call: (api) => api.GET('/api/crypto/enc', { params: { query: { data: 'hello' } } }),
      keep: (data, made) => void (made.ciphertext = data),
    }),
  ],
  [
    'GET /api/crypto/dec',
    {
      expected: 'success',
      call: (api, made) => api.GET('/api/crypto/dec', { params: { query: { data: made.ciphertext } } }),
    },
  ],
  [
    'GET /api/password/gen',
    {
      expected: 'success',
      call: (api) => api.GET('/api/password/gen', { params: { query: { words: 5 } } }),
    },
  ],
  [
    'POST /api/user/create',
    op({
      expected: 'success',
      call: (api) =>
        api.POST('/api/user/create', {
          body: {
            firstname: 'Ada',
            lastname: 'Lovelace',
            email: 'ada@example.com',
            password: 'correct horse battery staple',
            username: 'ada',
          },
        }),
      keep: (data, made) => {
        made.username = data.username;
        made.uid = data.uid;
      },
    }),
  ],
  [
    'GET /api/user/get',
    {
      expected: 'success',
      call: (api, made) => api.GET('/api/user/get', { params: { header: { 'x-uid': made.uid } } }),
    },
  ],
  [
    'PATCH /api/user/update',
    {
      expected: 'success',
      call: (api, made) =>
        api.PATCH('/api/user/update', {
          params: { query: { username: made.username } },
          body: { displayname: 'Countess' },
        }),
    },
  ],
  [
    'GET /api/user/list',
    { expected: 'success', call: (api) => api.GET('/api/user/list', { params: { query: { limit: 10 } } }) },
  ],
  [
    'POST /api/token/create',
    op({
      expected: 'success',
      call: (api, made) =>
        api.POST('/api/token/create', { body: { firebaseuid: made.uid, name: 'for the client test' } }),
      keep: (data, made) => void (made.tokenId = data.id),
    }),
  ],
  [
    'GET /api/token/info',
    {
      expected: 'success',
      call: (api, made) => api.GET('/api/token/info', { params: { query: { id: made.tokenId } } }),
    },
  ],
  [
    'PATCH /api/token/update',
    {
      expected: 'success',
      call: (api, made) =>
        api.PATCH('/api/token/update', { params: { query: { id: made.tokenId } }, body: { name: 'renamed' } }),
    },
  ],
  [
    'POST /api/token/rotate',
    op({
      expected: 'success',
      call: (api, made) =>
        api.POST('/api/token/rotate', { params: { query: { id: made.tokenId } }, body: { graceSeconds: 0 } }),
      keep: (data, made) => void (made.tokenId = data.id),
    }),
  ],
  ['GET /api/token/list', { expected: 'success', call: (api) => api.GET('/api/token/list') }],
  [
    'GET /api/token/usage',
    {
      expected: 'success',
      call: (api, made) => api.GET('/api/token/usage', { params: { query: { id: made.tokenId } } }),
    },
  ],
  [
    'GET /api/user/usage',
    {
      expected: 'success',
      call: (api, made) => api.GET('/api/user/usage', { params: { header: { 'x-uid': made.uid } } }),
    },
  ],
  [
    'GET /api/audit',
    { expected: 'success', call: (api) => api.GET('/api/audit', { params: { query: { limit: 5 } } }) },
  ],
  [
    'DELETE /api/token/delete',
    {
      expected: 'success',
      call: (api, made) => api.DELETE('/api/token/delete', { params: { query: { id: made.tokenId } } }),
    },
  ],
  [
    'DELETE /api/user/delete',
    {
      expected: 'success',
      call: (api, made) => api.DELETE('/api/user/delete', { params: { query: { username: made.username } } }),
    },
  ],
  [
    'GET /api/game/network/maps/{map}',
    {
      expected: UPSTREAM_DOWN,
      call: (api) => api.GET('/api/game/network/maps/{map}', { params: { path: { map: 'hide' } } }),
    },
  ],
  [
    'GET /api/game/network/maps',
    { expected: { status: 400, code: 8 }, call: (api) => api.GET('/api/game/network/maps') },
  ],
  [
    'GET /api/game/network/player',
    {
      expected: UPSTREAM_DOWN,
      call: (api) => api.GET('/api/game/network/player', { params: { query: { player: 'Steve' } } }),
    },
  ],
  ['GET /api/barcode/codecs', { expected: 'success', call: (api) => api.GET('/api/barcode/codecs') }],
  [
    'POST /api/barcode/decode',
    {
      expected: 'success',
      // One transparent pixel: a PNG without a code, answered with none.
      call: (api) =>
        api.POST('/api/barcode/decode', {
          body: {
            image: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
          },
        }),
    },
  ],
  [
    'GET /api/barcode/gen/{codec}',
    {
      expected: 'success',
      call: (api) =>
        api.GET('/api/barcode/gen/{codec}', {
          params: { path: { codec: 'qrcode' }, query: { content: 'hello', format: 'png' } },
        }),
    },
  ],
  [
    'GET /api/phone/details',
    {
      expected: 'success',
      call: (api) => api.GET('/api/phone/details', { params: { query: { number: '+14155552671' } } }),
    },
  ],
  [
    'GET /api/location/coords',
    {
      expected: 'success',
      call: (api) => api.GET('/api/location/coords', { params: { query: { address: 'Paris' } } }),
    },
  ],
  [
    'GET /api/location/address',
    {
      expected: 'success',
      call: (api) => api.GET('/api/location/address', { params: { query: { lat: 48.8566, lon: 2.3522 } } }),
    },
  ],
  [
    'GET /api/location/pluscode',
    {
      expected: 'success',
      call: (api) => api.GET('/api/location/pluscode', { params: { query: { lat: 48.8566, lon: 2.3522 } } }),
    },
  ],
  [
    'GET /api/weather/current',
    {
      expected: UPSTREAM_OFF,
      call: (api) => api.GET('/api/weather/current', { params: { query: { lat: 48.8566, lon: 2.3522 } } }),
    },
  ],
  [
    'GET /api/weather/forecast',
    {
      expected: UPSTREAM_OFF,
      call: (api) => api.GET('/api/weather/forecast', { params: { query: { city: 'Paris' } } }),
    },
  ],
  [
    'GET /api/weather/hourly',
    {
      expected: UPSTREAM_OFF,
      call: (api) =>
        api.GET('/api/weather/hourly', { params: { query: { city: 'Paris', units: 'imperial', timezone: 'auto' } } }),
    },
  ],
  [
    'GET /api/weather/air',
    {
      expected: UPSTREAM_OFF,
      call: (api) => api.GET('/api/weather/air', { params: { query: { lat: 48.8566, lon: 2.3522 } } }),
    },
  ],
  [
    'GET /api/dictionary/def',
    {
      expected: 'success',
      call: (api) => api.GET('/api/dictionary/def', { params: { query: { word: 'serendipity' } } }),
    },
  ],
  [
    'GET /api/dictionary/syn',
    { expected: 'success', call: (api) => api.GET('/api/dictionary/syn', { params: { query: { word: 'happy' } } }) },
  ],
  [
    'GET /api/dictionary/ant',
    { expected: 'success', call: (api) => api.GET('/api/dictionary/ant', { params: { query: { word: 'happy' } } }) },
  ],
  [
    'GET /api/whois/dns',
    {
      expected: UPSTREAM_DOWN,
      call: (api) => api.GET('/api/whois/dns', { params: { query: { domain: 'example.com' } } }),
    },
  ],
  [
    'GET /api/whois/whois',
    {
      expected: UPSTREAM_DOWN,
      call: (api) => api.GET('/api/whois/whois', { params: { query: { domain: 'example.com' } } }),
    },
  ],
  [
    'GET /api/whois/full',
    {
      expected: UPSTREAM_DOWN,
      call: (api) => api.GET('/api/whois/full', { params: { header: { 'x-domain': 'example.com' } } }),
    },
  ],
  [
    'GET /api/whois/ip',
    {
      expected: UPSTREAM_DOWN,
      call: (api) => api.GET('/api/whois/ip', { params: { query: { address: '193.0.6.139' } } }),
    },
  ],
  [
    'GET /api/whois/asn',
    {
      expected: UPSTREAM_DOWN,
      call: (api) => api.GET('/api/whois/asn', { params: { query: { asn: 'AS3333' } } }),
    },
  ],
  ['GET /api/facts/cat', { expected: 'success', call: (api) => api.GET('/api/facts/cat') }],
  [
    'GET /api/facts/dog',
    { expected: 'success', call: (api) => api.GET('/api/facts/dog', { params: { query: { type: 'text' } } }) },
  ],
  ['GET /api/facts/chucknorris', { expected: NOTHING_STORED, call: (api) => api.GET('/api/facts/chucknorris') }],
  [
    'GET /api/facts/random',
    { expected: 'success', call: (api) => api.GET('/api/facts/random', { params: { query: { type: 'xml' } } }) },
  ],
  [
    'GET /api/facts/list',
    {
      expected: 'success',
      call: (api) => api.GET('/api/facts/list', { params: { query: { category: 'cat', query: 'cats', limit: 2 } } }),
    },
  ],
  ['GET /api/facts/categories', { expected: 'success', call: (api) => api.GET('/api/facts/categories') }],
  [
    'GET /api/quotes/random',
    { expected: NOTHING_STORED, call: (api) => api.GET('/api/quotes/random', { params: { query: { type: 'yaml' } } }) },
  ],
  [
    'GET /api/quotes/list',
    {
      expected: 'success',
      call: (api) => api.GET('/api/quotes/list', { params: { query: { author: 'Nobody Known', maxLength: 200 } } }),
    },
  ],
  ['GET /api/quotes/authors', { expected: 'success', call: (api) => api.GET('/api/quotes/authors') }],
  ['GET /api/quotes/tags', { expected: 'success', call: (api) => api.GET('/api/quotes/tags') }],
  ['GET /api/quotes/kanye', { expected: NOTHING_STORED, call: (api) => api.GET('/api/quotes/kanye') }],
  ['GET /api/quotes/ronswanson', { expected: NOTHING_STORED, call: (api) => api.GET('/api/quotes/ronswanson') }],
  [
    'POST /api/mail/send',
    op({
      expected: 'success',
      call: (api) =>
        api.POST('/api/mail/send', {
          params: { header: { 'idempotency-key': 'client-test-1' } },
          body: { to: 'ada@example.com', subject: 'Hello', content: 'Thanks for your *order*.' },
        }),
      keep: (data, made) => void (made.messageId = data.id),
    }),
  ],
  [
    'GET /api/mail/status',
    {
      expected: 'success',
      call: (api, made) => api.GET('/api/mail/status', { params: { query: { id: made.messageId } } }),
    },
  ],
  [
    'GET /api/mail/list',
    { expected: 'success', call: (api) => api.GET('/api/mail/list', { params: { query: { limit: 10 } } }) },
  ],
  [
    'POST /api/webhook/create',
    op({
      expected: 'success',
      call: (api) =>
        api.POST('/api/webhook/create', { body: { url: 'http://127.0.0.2:1/hooks', events: ['token.created'] } }),
      keep: (data, made) => void (made.webhookId = data.id),
    }),
  ],
  ['GET /api/webhook/list', { expected: 'success', call: (api) => api.GET('/api/webhook/list') }],
  [
    'GET /api/webhook/info',
    {
      expected: 'success',
      call: (api, made) => api.GET('/api/webhook/info', { params: { query: { id: made.webhookId } } }),
    },
  ],
  [
    'PATCH /api/webhook/update',
    {
      expected: 'success',
      call: (api, made) =>
        api.PATCH('/api/webhook/update', {
          params: { query: { id: made.webhookId } },
          body: { description: 'alerts' },
        }),
    },
  ],
  [
    'POST /api/webhook/rotate-secret',
    {
      expected: 'success',
      call: (api, made) => api.POST('/api/webhook/rotate-secret', { params: { query: { id: made.webhookId } } }),
    },
  ],
  [
    'POST /api/webhook/test',
    {
      expected: 'success',
      call: (api, made) => api.POST('/api/webhook/test', { params: { query: { id: made.webhookId } } }),
    },
  ],
  [
    'GET /api/webhook/deliveries',
    {
      expected: 'success',
      call: (api, made) => api.GET('/api/webhook/deliveries', { params: { query: { id: made.webhookId } } }),
    },
  ],
  [
    'POST /api/webhook/redeliver',
    {
      expected: { status: 404, code: 22 },
      call: (api, made) =>
        api.POST('/api/webhook/redeliver', {
          params: { query: { id: made.webhookId, delivery: 'msg_0f8fad5b-d9cb-469f-a165-70867728950e' } },
        }),
    },
  ],
  [
    'DELETE /api/webhook/delete',
    {
      expected: 'success',
      call: (api, made) => api.DELETE('/api/webhook/delete', { params: { query: { id: made.webhookId } } }),
    },
  ],
  ['GET /metrics', { expected: 'success', call: (api) => api.GET('/metrics') }],
  // A moved path takes its new place's query, and fetch follows the redirect there with the token.
  [
    'GET /api/crypt/enc',
    { expected: 'success', call: (api) => api.GET('/api/crypt/enc', { params: { query: { data: 'hello' } } }) },
  ],
  [
    'GET /api/crypt/decr',
    {
      expected: 'success',
      call: (api, made) => api.GET('/api/crypt/decr', { params: { query: { data: made.ciphertext } } }),
    },
  ],
  ['GET /api/openapi.json', { expected: 'success', call: (api) => api.GET('/api/openapi.json') }],
  ['GET /api/changelog', { expected: 'success', call: (api) => api.GET('/api/changelog') }],
  ['GET /livez', { expected: 'success', call: (api) => api.GET('/livez') }],
  ['GET /readyz', { expected: 'success', call: (api) => api.GET('/readyz') }],
];

describe('client: every operation of the route table, through utility-api/client against a live server', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    const nowhere = 'http://127.0.0.1:9';
    server = await startServer({
      env: {
        UTILITY_API_STORAGE: 'memory',
        UTILITY_API_HIVE_URL: nowhere,
        UTILITY_API_RDAP_BOOTSTRAP_URL: nowhere,
        UTILITY_API_RDAP_IPV4_BOOTSTRAP_URL: nowhere,
        UTILITY_API_RDAP_IPV6_BOOTSTRAP_URL: nowhere,
        UTILITY_API_RDAP_ASN_BOOTSTRAP_URL: nowhere,
        UTILITY_API_WHOIS_SERVER: '127.0.0.1:9',
        UTILITY_API_DNS_SERVERS: '127.0.0.1:9',
        UTILITY_API_RATE_LIMIT: 'off',
      },
      overrides: {
        weather: { openMeteoUrl: 'off' },
        content: { chuckNorrisUrl: 'off', kanyeUrl: 'off', ronSwansonUrl: 'off' },
        whois: { dnsTimeoutMs: 200, registrationTimeoutMs: 200 },
        webhooks: { allowHttp: true, worker: false },
        outbound: { allowedNetworks: ['127.0.0.2/32'] },
      },
    });
  });
  after(() => server?.close());

  it('has a call for each operation the server describes, and none for an operation it does not', async () => {
    const document = (await (await server.get('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.length).to.be.greaterThan(50);
    expect(CALLS.map(([operation]) => operation).sort()).to.deep.equal([...operations].sort());
  });

  it('answers each call as the operation documents: a success with its body, or the catalogue error of an upstream that is down', async () => {
    const made = { admin: await server.tokenFor(['*']) } as Made;
    const api = createClient({ baseUrl: server.baseUrl, token: made.admin });
    const wrong: string[] = [];
    for (const [operation, { expected, call, keep }] of CALLS) {
      const answer = await call(api, made);
      const seen = answer.ok
        ? 'success'
        : answer.error
          ? { status: answer.status, code: answer.error.code }
          : { failure: answer.failure };
      const allowed = (Array.isArray(expected) ? expected : [expected]) as readonly Outcome[];
      if (!allowed.some((outcome) => JSON.stringify(outcome) === JSON.stringify(seen)))
        wrong.push(`${operation}: ${JSON.stringify(seen)} (${answer.error ? answer.error.details : ''})`);
      else if (answer.ok) {
        expect(answer.data, operation).to.not.equal(undefined);
        keep?.(answer.data, made);
      }
    }
    expect(wrong).to.deep.equal([]);
  });
});
