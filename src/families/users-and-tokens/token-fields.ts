import * as t from 'io-ts';
import { TOKEN_ORIGINS } from '../../domain/identity/token.js';
import {
  isRateLimit,
  MAX_RATE_LIMIT_REQUESTS,
  MAX_RATE_LIMIT_WINDOW_SECONDS,
  type RateLimit,
} from '../../domain/identity/rate-limit.js';
import { quotaView } from './quota-fields.js';
import { checked, Network } from '../../platform/config/codecs.js';
import { described, orNull } from '../../platform/http/codecs.js';
import { DURATION_PATTERN, MAX_LIFETIME_MS, parseDuration } from './domain/tokens/duration.js';
import { MAX_ROTATION_GRACE_MS } from './domain/tokens/rotate-token.js';

/** The codecs of the token routes' fields and answers. */

/** `"30d"`-style text, or a number of seconds; decoded to milliseconds. */
export const lifetime = described(
  new t.Type<number, number, unknown>(
    'a lifetime such as "12h", "90d" or "1y" (s, m, h, d, w or y) or a whole number of seconds',
    (u): u is number => typeof u === 'number',
    (u, c) => {
      const ms =
        typeof u === 'string'
          ? parseDuration(u)
          : typeof u === 'number' && Number.isInteger(u) && u > 0
            ? u * 1000
            : undefined;
      return ms === undefined || ms > MAX_LIFETIME_MS ? t.failure(u, c) : t.success(ms);
    },
    t.identity,
  ),
  {
    anyOf: [
      { type: 'string', pattern: DURATION_PATTERN.source },
      { type: 'integer', minimum: 1, maximum: MAX_LIFETIME_MS / 1000 },
    ],
  },
);

/** Exactly `requests` and `perSeconds` in range: a stray field is refused, never dropped. */
const isRateLimitObject = (u: unknown): u is RateLimit =>
  typeof u === 'object' &&
  u !== null &&
  !Array.isArray(u) &&
  Object.keys(u).length === 2 &&
  isRateLimit(u as RateLimit);
/** `{requests, perSeconds}`: whole numbers, at most a billion requests in a window of at most a day. */
export const rateLimitField = described(
  checked(
    `{requests: 1 to ${MAX_RATE_LIMIT_REQUESTS}, perSeconds: 1 to ${MAX_RATE_LIMIT_WINDOW_SECONDS}}`,
    isRateLimitObject,
  ),
  {
    type: 'object',
    required: ['requests', 'perSeconds'],
    additionalProperties: false,
    properties: {
      requests: { type: 'integer', minimum: 1, maximum: MAX_RATE_LIMIT_REQUESTS },
      perSeconds: { type: 'integer', minimum: 1, maximum: MAX_RATE_LIMIT_WINDOW_SECONDS },
    },
  },
);
/** A token's own limit as answered, or null where the default policy applies. */
const rateLimitView = t.union([t.strict({ requests: t.number, perSeconds: t.number }), t.null]);

const userName = t.strict({ uid: t.string, username: t.string });

/** Token metadata as clients see it (`TokenView`): never the secret or its hash. */
export const tokenView = t.strict({
  id: t.string,
  prefix: t.string,
  license: t.string,
  name: t.union([t.string, t.null]),
  username: t.string,
  associatedFirebaseUID: t.string,
  permissions: t.readonlyArray(t.string),
  createdAt: t.string,
  lastUsedAt: t.union([t.string, t.null]),
  expiresAt: t.union([t.string, t.null]),
  uses: t.number,
  disabled: t.boolean,
  issuedBy: t.union([userName, t.null]),
  rateLimit: rateLimitView,
  quota: quotaView,
  origin: t.union([t.literal(TOKEN_ORIGINS[0]!), t.literal(TOKEN_ORIGINS[1]!), t.literal(TOKEN_ORIGINS[2]!)]),
  allowedAddresses: t.union([t.readonlyArray(t.string), t.null]),
  rotatedTo: t.union([t.string, t.null]),
  rotationEndsAt: t.union([t.string, t.null]),
  rotatedFrom: t.union([t.string, t.null]),
});

export const issuedToken = t.strict({
  token: t.string,
  id: t.string,
  prefix: t.string,
  license: t.string,
  username: t.string,
  firebaseuid: t.string,
  permissions: t.readonlyArray(t.string),
  expiresAt: t.union([t.string, t.null]),
  issuedBy: t.union([userName, t.null]),
  rateLimit: rateLimitView,
  quota: quotaView,
  allowedAddresses: t.union([t.readonlyArray(t.string), t.null]),
});

/** A rotation's answer: a new token as `token/create` answers one, and the token it replaces, until when. */
export const rotatedToken = t.strict({
  ...issuedToken.type.props,
  rotatedFrom: t.string,
  rotationEndsAt: t.string,
});

/** The most networks one token may be bound to: enough for any real deployment, small enough to check per request. */
export const MAX_ALLOWED_ADDRESSES = 50;

const isNetworkList = (u: unknown): u is readonly string[] =>
  Array.isArray(u) && u.length >= 1 && u.length <= MAX_ALLOWED_ADDRESSES && u.every((item) => Network.is(item));
const networkListSchema = {
  type: 'array',
  minItems: 1,
  maxItems: MAX_ALLOWED_ADDRESSES,
  items: { type: 'string', description: 'a network in CIDR notation, written as its first address' },
};

/** 1 to 50 IPv4 or IPv6 networks in CIDR notation, each written as its first address (`203.0.113.0/24`). */
export const allowedAddresses = described(
  checked(
    `1 to ${MAX_ALLOWED_ADDRESSES} networks such as "203.0.113.0/24" or "2001:db8::/32" (CIDR, each its first address)`,
    isNetworkList,
  ),
  networkListSchema,
);

/** As `allowedAddresses`, or null: usable from anywhere again. */
export const allowedAddressesOrNull = orNull(allowedAddresses);

const MAX_GRACE_SECONDS = MAX_ROTATION_GRACE_MS / 1000;
const isGrace = (u: unknown): u is number =>
  typeof u === 'number' && Number.isInteger(u) && u >= 0 && u <= MAX_GRACE_SECONDS;
/** How long a rotated token keeps working, in whole seconds from 0 to a week; decoded to milliseconds. */
export const graceSeconds = described(
  new t.Type<number, number, unknown>(
    `a whole number of seconds from 0 to ${MAX_GRACE_SECONDS}`,
    (u): u is number => typeof u === 'number',
    (u, c) => (isGrace(u) ? t.success(u * 1000) : t.failure(u, c)),
    t.identity,
  ),
  { type: 'integer', minimum: 0, maximum: MAX_GRACE_SECONDS },
);
