import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { callingTokenId } from '../../domain/identity/actor.js';
import { invalidInput, missingInput, type DomainError } from '../../domain/errors.js';
import { UsersAndTokensPermission } from './domain/permissions.js';
import { DURATION_PATTERN, MAX_LIFETIME_MS, parseDuration } from './domain/tokens/duration.js';
import {
  isRateLimit,
  MAX_RATE_LIMIT_REQUESTS,
  MAX_RATE_LIMIT_WINDOW_SECONDS,
  type RateLimit,
} from '../../domain/identity/rate-limit.js';
import type { IssuedToken, IssueToken } from './domain/tokens/issue-token.js';
import { userNameOf, type RevokeToken, type TokenReader, type UpdateToken } from './domain/tokens/manage-tokens.js';
import { described, jsonFlag, names, text, tokenId, userUid } from '../../platform/http/codecs.js';
import { optional, required } from '../../platform/http/fields.js';
import { defineRoute, json, jsonOf, type Route } from '../../platform/http/route-table.js';
import { noUidHeader, refOf, uidHeader } from './user-routes.js';

export interface TokenRouteDependencies {
  readonly issueToken: IssueToken;
  readonly reader: TokenReader;
  readonly revokeToken: RevokeToken;
  readonly updateToken: UpdateToken;
}

/** `"30d"`-style text, or a number of seconds; decoded to milliseconds. */
const lifetime = described(
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
const rateLimitField = described(
  new t.Type<RateLimit, RateLimit, unknown>(
    `{requests: 1 to ${MAX_RATE_LIMIT_REQUESTS}, perSeconds: 1 to ${MAX_RATE_LIMIT_WINDOW_SECONDS}}`,
    isRateLimitObject,
    (u, c) => (isRateLimitObject(u) ? t.success(u) : t.failure(u, c)),
    t.identity,
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
const tokenView = t.strict({
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
});

const issuedToken = t.strict({
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
});

const passwordForOthers = (field: 'x-uid' | 'firebaseuid'): DomainError => {
  const details = `${field} must name your own user: a password gets a token for its own user only`;
  return invalidInput(field, details);
};

export function tokenRoutes(deps: TokenRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/token/create',
      permission: UsersAndTokensPermission.TokensCreate,
      passwordLogin: true,
      summary:
        `Issue a token for yourself, or for another user with ${UsersAndTokensPermission.UsersRead}; the secret is in this answer only. ` +
        'With Authorization: Basic (username or email, and password) instead of a token: a token of your own, ' +
        'expiring in 30 days by default, without needing this permission',
      headers: { 'x-uid': optional(userUid, 'the uid of the owner, as firebaseuid; default: yourself') },
      body: {
        firebaseuid: optional(userUid, 'the uid of the owner, as x-uid; default: yourself'),
        permissions: optional(
          names(50),
          'narrow the token to these; default: every permission of the owner you hold too',
        ),
        name: optional(text(1, 100), 'a label to recognise the token by'),
        expiresIn: optional(lifetime, 'lifetime; default: never expires (30 days with a password)'),
        rateLimit: optional(
          rateLimitField,
          "the token's own request rate limit, at most your own; default: your token's own limit, if it has one, else the installation's policy",
        ),
      },
      status: 201,
      response: issuedToken,
      // A password that is wrong too often is slowed down; the owner named may not exist.
      errors: [
        'RateLimited',
        'UserNotFound',
        'InvalidHeader',
        'InvalidBodyParameter',
        'TooManyTokens',
        'TokenCreateFailed',
      ],
      handle: async ({ headers, body, actor }) => {
        const { 'x-uid': headerUid } = headers;
        if (headerUid !== undefined && body.firebaseuid !== undefined && headerUid !== body.firebaseuid) {
          return E.left(invalidInput('x-uid', 'x-uid and firebaseuid name different users'));
        }
        if (actor.kind === 'password') {
          // A password gets a token of its own user only; naming anyone else is a mistake to point out.
          if (headerUid !== undefined && headerUid !== actor.user.uid) return E.left(passwordForOthers('x-uid'));
          if (body.firebaseuid !== undefined && body.firebaseuid !== actor.user.uid)
            return E.left(passwordForOthers('firebaseuid'));
        }
        const issued = await deps.issueToken.execute({
          actor,
          owner: refOf(headerUid ?? body.firebaseuid),
          scopes: body.permissions,
          name: body.name,
          expiresInMs: body.expiresIn,
          rateLimit: body.rateLimit,
        });
        return E.map(({ secret, record, user, issuer }: IssuedToken) =>
          json({
            token: secret,
            id: record.id,
            prefix: record.prefix,
            license: record.license,
            username: user.username,
            firebaseuid: user.uid,
            permissions: record.scopes,
            expiresAt: record.expiresAt === null ? null : new Date(record.expiresAt).toISOString(),
            issuedBy: issuer && userNameOf(issuer),
            rateLimit: record.rateLimit,
          }),
        )(issued);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/token/info',
      permission: null,
      family: 'Tokens',
      summary: `A token's metadata: the calling token by default, any of yours, or anyone's with ${UsersAndTokensPermission.TokensRead}`,
      query: { id: optional(tokenId, 'the token id; default: the calling token') },
      headers: noUidHeader,
      response: tokenView,
      errors: ['MissingQueryParameter', 'TokenNotFound'],
      handle: async ({ query, actor }) => {
        const id = query.id ?? callingTokenId(actor);
        return id === undefined ? E.left(missingInput('id')) : jsonOf(await deps.reader.info(actor, id));
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/token/update',
      permission: null,
      family: 'Tokens',
      summary: `Disable, enable or rename a token: the calling token by default, any of yours, or anyone's with ${UsersAndTokensPermission.TokensUpdate}; a disabled token answers 403 code 5`,
      query: { id: optional(tokenId, 'the token id; default: the calling token') },
      headers: noUidHeader,
      body: {
        disabled: optional(jsonFlag, 'true refuses the token from its next use, false serves it again'),
        name: optional(text(1, 100), 'a label to recognise the token by'),
      },
      response: tokenView,
      errors: ['MissingBodyParameter', 'TokenNotFound', 'TokenUpdateFailed'],
      handle: async ({ query, body, actor }) => {
        const id = query.id ?? callingTokenId(actor);
        if (id === undefined) return E.left(missingInput('id'));
        return jsonOf(await deps.updateToken.execute(actor, id, { disabled: body.disabled, name: body.name }));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/token/list',
      permission: null,
      family: 'Tokens',
      summary: `A user's tokens, newest first: yours, or anyone's with ${UsersAndTokensPermission.TokensRead}`,
      headers: uidHeader,
      response: t.readonlyArray(tokenView),
      errors: ['UserNotFound', 'MissingHeader'],
      handle: async ({ headers, actor }) => jsonOf(await deps.reader.list(actor, refOf(headers['x-uid']))),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/token/delete',
      permission: null,
      family: 'Tokens',
      summary: `Delete a token: any of yours, or anyone's with ${UsersAndTokensPermission.TokensDelete}; it is refused from its next use`,
      query: { id: required(tokenId, 'the token id') },
      headers: noUidHeader,
      response: t.strict({ deleted: t.literal(true), id: t.string }),
      errors: ['TokenNotFound', 'TokenDeleteFailed'],
      handle: async ({ query, actor }) =>
        E.map(({ id }: { id: string }) => json({ deleted: true as const, id }))(
          await deps.revokeToken.execute(actor, query.id),
        ),
    }),
  ];
}
