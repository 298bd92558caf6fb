import fc from 'fast-check';
import type { Route } from '../../src/platform/http/route-table.js';

import { messageIdReference, tokenIdReference, uidReference, type RouteSamples } from './route-fuzz.js';
import { SERVICE_PERMISSIONS } from './permissions.js';

/**
 * Well-formed values for every field the route table declares, so that some fuzzed requests
 * succeed and the adversarial ones are variations of real requests. A route added to the table
 * without samples here stops the fuzz suite, naming the field.
 */

const uid = fc.oneof({ weight: 9, arbitrary: uidReference }, { weight: 1, arbitrary: fc.constant('nobody') });
const tokenId = fc.oneof(
  { weight: 9, arbitrary: tokenIdReference },
  { weight: 1, arbitrary: fc.constant('00000000-0000-4000-8000-000000000000') },
);
const permissionLists = fc.oneof(
  fc.constantFrom(
    [],
    ['*'],
    ['Cryptography::*'],
    ['Cryptography::Encrypt'],
    ['Nope::Nothing'],
    ['Cryptography::Encrypt', 'Cryptography::Encrypt'],
  ),
  fc.subarray([...SERVICE_PERMISSIONS.known], { maxLength: 3 }),
);
/**
 * A password the use case accepts costs tens of milliseconds of scrypt (more on a busy machine):
 * one sampled password in 150 is one, a handful per run; the rest are refused before hashing.
 */
const password = fc.oneof(
  { weight: 1, arbitrary: fc.constant('correct horse battery') },
  { weight: 149, arbitrary: fc.constantFrom('short', '', 'nine char', 'tab\there is ok?\u0000') },
);
const email = fc.nat({ max: 50 }).map((n) => `fuzz${n}@example.com`);
/** Names the loopback DNS and registries know, and some they do not or that are no names. */
const domainName = fc.constantFrom(
  'example.com',
  'www.example.com',
  'bücher.example',
  'www.bbc.co.uk',
  'example.net',
  'nosuch.co.uk',
  'co.uk',
  '192.0.2.1',
  'localhost',
  'a..b',
);
const contentFormat = fc.constantFrom('json', 'text', 'xml', 'yaml', 'html', 'JSON');
/** Mostly `good`, sometimes `bad`. */
const mostly = (good: readonly string[], bad: readonly string[]) =>
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: fc.constantFrom(...bad) });
/** Where to ask the weather: places and points the fixtures know, and some that are not or cannot be. */
const weatherPlace = {
  query: {
    lat: mostly(['52.52', '48.8566', '-33.87'], ['91', '1e3']),
    lon: mostly(['13.41', '2.3522', '151.21'], ['181']),
    city: mostly(['Berlin', 'Paris, FR', 'saint etienne'], ['nowhere at all', 'Paris, Atlantis']),
    units: mostly(['metric', 'imperial'], ['kelvin']),
    timezone: mostly(['auto', 'Europe/Paris', 'Asia/Tokyo'], ['Antarctica/Troll', 'europe/paris', 'Mars/Olympus']),
  },
  headers: {
    'x-coords': mostly(['52.52,13.41', '48.85, 2.35'], ['91,0', 'north,east']),
    'x-city': mostly(['Berlin', 'Paris, FR'], ['nowhere at all']),
  },
  oneWayOf: [['query lat', 'query lon'], ['query city'], ['headers x-coords'], ['headers x-city']],
};
const word = fc.constantFrom('dog', 'geese', 'ice cream', 'good', "o'clock", 'xyzzyq');
/** One address or a list; now and then no address at all. */
const recipients = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom<unknown>(
      'ada@example.com',
      ['ada@example.com', 'grace@example.org'],
      'grace@bücher.example',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom<unknown>('Ada <ada@example.com>', 'nobody', []) },
);
const messageId = fc.oneof(
  { weight: 9, arbitrary: messageIdReference },
  { weight: 1, arbitrary: fc.constant('00000000-0000-4000-8000-000000000000') },
);

const SAMPLES: Record<string, RouteSamples> = {
  'GET /crypto/enc': { query: { data: fc.constantFrom('hello', 'café ☕', '中文', 'a b&c=d', '1') } },
  'GET /crypto/dec': { query: { data: (pool) => fc.constantFrom(...pool.ciphertexts, 'AAAA', 'not-a-ciphertext') } },
  'GET /barcode/codecs': {},
  // Nine fields, each with values it refuses: the valid ones come more often, so that some requests succeed.
  'GET /barcode/gen/:codec': {
    params: { codec: mostly(['qrcode', 'code128', 'ean13', 'datamatrix', 'pdf417', 'QRCODE'], ['nope']) },
    query: {
      content: fc.constantFrom('Hello', '5901234123457', '12345', 'café', '中文'),
      format: mostly(['png', 'svg'], ['gif']),
      scale: mostly(['1', '2', '10'], ['11', '0', '1.5']),
      height: mostly(['10', '100'], ['1.5', '101', '0']),
      includetext: mostly(['true', 'false'], ['yes']),
      rotate: mostly(['N', 'R', 'L', 'I'], ['X']),
      background: fc.constantFrom('white', 'transparent', 'black'),
      quietzone: mostly(['true', 'false'], ['no']),
    },
    headers: { 'x-format': mostly(['png', 'svg'], ['jpeg']) },
  },
  'GET /phone/details': {
    query: {
      number: fc.constantFrom(
        '+33 6 12 34 56 78',
        '020 7946 0958',
        '+1 650 253 0000',
        '+999 1',
        '00 44 20 7946 0958',
        '+33612345678 ext. 42',
        '+1234567890123456789',
      ),
      country: fc.constantFrom('FR', 'gb', 'US', 'ZZ', 'jp'),
    },
  },
  'GET /location/coords': {
    query: {
      address: fc.constantFrom('Paris', 'Paris, FR', 'saint etienne', 'Springfield, usa', 'nowhere at all'),
      limit: fc.constantFrom('1', '5', '50', '51', '0'),
    },
  },
  'GET /location/address': {
    query: {
      lat: fc.constantFrom('48.85', '-33.9', '90', '91', '1e3'),
      lon: fc.constantFrom('2.35', '151.2', '-180', '181'),
      limit: fc.constantFrom('1', '5', '50'),
    },
  },
  'GET /location/pluscode': {
    query: {
      lat: fc.constantFrom('48.85', '-33.9', '0'),
      lon: fc.constantFrom('2.35', '151.2', '0'),
      length: fc.constantFrom('10', '8', '11', '15', '3', '16'),
      code: fc.constantFrom('8FW4V75V+8Q', 'V75V+8Q', '22+', '8FJFW222+', 'not+a+code'),
      near: fc.constantFrom('Paris', 'Paris, FR', 'nowhere at all'),
    },
  },
  'GET /weather/current': weatherPlace,
  'GET /weather/forecast': {
    ...weatherPlace,
    query: { ...weatherPlace.query, days: mostly(['1', '7', '16'], ['17', '0']) },
  },
  'GET /dictionary/def': { query: { word } },
  'GET /dictionary/syn': { query: { word } },
  'GET /dictionary/ant': { query: { word } },
  'GET /game/network/maps/:map': { params: { map: fc.constantFrom('hide', 'dr', 'wars', 'HIDE') } },
  'GET /game/network/maps': {},
  'GET /game/network/player': { query: { player: fc.constantFrom('Steve123', 'nobody', 'a b', ' lead') } },
  'GET /whois/dns': { query: { domain: domainName }, headers: { 'x-domain': domainName } },
  'GET /whois/whois': {
    query: { domain: domainName, raw: fc.constantFrom('true', 'false', 'yes') },
    headers: { 'x-domain': domainName },
  },
  'GET /whois/full': { query: { domain: domainName }, headers: { 'x-domain': domainName } },
  'POST /user/create': {
    body: {
      firstname: fc.constantFrom('Ada', 'Zoë', "Conan O'Brien", 'A'),
      lastname: fc.constantFrom('Lovelace', 'Li', 'x'),
      email,
      password,
      username: fc.constantFrom('ada', 'fuzz.user', 'a', 'Ada Lovelace'),
    },
  },
  'GET /user/get': { headers: { 'x-uid': uid } },
  'PATCH /user/update': {
    headers: { 'x-uid': uid },
    body: { displayname: fc.constantFrom('Ada L', 'Countess'), email, password, perms: permissionLists },
  },
  'DELETE /user/delete': { headers: { 'x-uid': uid } },
  'POST /token/create': {
    body: {
      firebaseuid: uid,
      permissions: permissionLists,
      name: fc.constantFrom('ci', 'deploy key', ''),
      expiresIn: fc.constantFrom<unknown>('30d', '1h', 3600, '0d', '600w', 0, -5, 1.5, 315_360_001),
      rateLimit: fc.constantFrom<unknown>(
        { requests: 100, perSeconds: 10 },
        { requests: 1, perSeconds: 1 },
        { requests: 5000, perSeconds: 1 },
        { requests: 0, perSeconds: 10 },
        { requests: 10 },
        '100/10',
      ),
    },
  },
  'GET /token/info': { query: { id: tokenId } },
  'POST /mail/send': {
    headers: { 'idempotency-key': fc.constantFrom('order-1', 'order-2', 'k'.repeat(255)) },
    body: {
      to: recipients,
      subject: fc.constantFrom('Hello', 'Order 42 ☕', 'Hello', 'Hi {{name}}'),
      content: fc.constantFrom(
        '# Hello\n\nThanks for your *order*.',
        '<script>alert(1)</script>',
        'Thanks',
        'Dear {{name}}',
      ),
      cc: recipients,
      bcc: recipients,
      replyTo: fc.constantFrom('help@example.com', ['help@example.com']),
      fromName: fc.constantFrom('Support', 'Zoë at Support'),
    },
  },
  'GET /mail/status': { query: { id: messageId } },
  'GET /token/list': { headers: { 'x-uid': uid } },
  'DELETE /token/delete': { query: { id: tokenId } },
  'PATCH /token/update': {
    query: { id: tokenId },
    body: {
      disabled: fc.constantFrom<unknown>(true, false, 'true', 0, null),
      name: fc.constantFrom<unknown>('ci', '', 'x'.repeat(101), 7),
    },
  },
  'GET /metrics': {},
  // Asked without a token: they take nothing.
  ...Object.fromEntries(
    [
      '/openapi.json',
      '/changelog',
      '/livez',
      '/readyz',
      '/docs',
      '/docs/start.js',
      '/docs/swagger-ui.css',
      '/docs/swagger-ui-bundle.js',
    ].map((path) => [`GET ${path}`, {}]),
  ),
  ...Object.fromEntries(
    [
      '/facts/cat',
      '/facts/dog',
      '/facts/chucknorris',
      '/facts/random',
      '/quotes/random',
      '/quotes/kanye',
      '/quotes/ronswanson',
    ].map((path) => [`GET ${path}`, { query: { type: contentFormat } }]),
  ),
};

/** Fields that mean the same wherever a route declares them. */
const EVERYWHERE: Required<Pick<RouteSamples, 'headers'>> = { headers: { 'x-uid': uid } };

export function samplesOf(route: Route): RouteSamples {
  const samples = SAMPLES[`${route.method} ${route.path}`];
  if (!samples)
    throw new Error(`route-samples: no samples for ${route.method} ${route.path}: add its well-formed values`);
  return { ...samples, headers: { ...EVERYWHERE.headers, ...samples.headers } };
}
