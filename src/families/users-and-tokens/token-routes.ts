import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { callingTokenId } from '../../domain/identity/actor.js';
import { invalidInput, missingInput, type DomainError } from '../../domain/errors.js';
import { UsersAndTokensPermission } from './domain/permissions.js';
import type { TokenRecord } from '../../domain/identity/token.js';
import type { User } from '../../domain/identity/user.js';
import type { IssuedToken, IssueToken } from './domain/tokens/issue-token.js';
import { userNameOf, type RevokeToken, type TokenReader, type UpdateToken } from './domain/tokens/manage-tokens.js';
import type { RotatedToken, RotateToken } from './domain/tokens/rotate-token.js';
import { jsonFlag, names, text, tokenId, userUid } from '../../platform/http/codecs.js';
import { optional, required } from '../../platform/http/fields.js';
import { defineRoute, json, jsonOf, type Route } from '../../platform/http/route-table.js';
import { noUidHeader, refOf, uidHeader } from './user-routes.js';
import { quotaField, quotaOrNull } from './quota-fields.js';
import {
  allowedAddresses,
  allowedAddressesOrNull,
  graceSeconds,
  issuedToken,
  lifetime,
  rateLimitField,
  rotatedToken,
  tokenView,
} from './token-fields.js';

export interface TokenRouteDependencies {
  readonly issueToken: IssueToken;
  readonly reader: TokenReader;
  readonly revokeToken: RevokeToken;
  readonly updateToken: UpdateToken;
  readonly rotateToken: RotateToken;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A new token as its issuer sees it, the one time its secret is shown. */
const issuedAnswer = (secret: string, record: TokenRecord, user: User, issuer: User | null) => ({
  token: secret,
  id: record.id,
  prefix: record.prefix,
  license: record.license,
  username: user.username,
  firebaseuid: user.uid,
  permissions: record.scopes,
  expiresAt: iso(record.expiresAt),
  issuedBy: issuer && userNameOf(issuer),
  rateLimit: record.rateLimit,
  quota: record.quota,
  allowedAddresses: record.allowedAddresses,
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
        allowedAddresses: optional(
          allowedAddresses,
          "the client networks it may be used from (403 code 1 from any other), within your token's own; default: your token's own, if it has any, else anywhere",
        ),
        quota: optional(
          quotaField,
          "the token's own quota of requests a UTC day or calendar month (its user's quota counts them too), within your token's and your user's and the owner's; default: your token's own, if it has one",
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
          allowedAddresses: body.allowedAddresses,
          quota: body.quota,
        });
        return E.map(({ secret, record, user, issuer }: IssuedToken) =>
          json(issuedAnswer(secret, record, user, issuer)),
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
      summary: `Disable, enable, rename or bind to client networks a token: the calling token by default, any of yours, or anyone's with ${UsersAndTokensPermission.TokensUpdate}; a disabled token answers 403 code 5`,
      query: { id: optional(tokenId, 'the token id; default: the calling token') },
      headers: noUidHeader,
      body: {
        disabled: optional(jsonFlag, 'true refuses the token from its next use, false serves it again'),
        name: optional(text(1, 100), 'a label to recognise the token by'),
        allowedAddresses: optional(
          allowedAddressesOrNull,
          "the client networks it may be used from, within your token's own; null: from anywhere again",
        ),
        quota: optional(
          quotaOrNull,
          "the token's own quota, within your token's and your user's and the owner's; null: none",
        ),
      },
      response: tokenView,
      errors: ['MissingBodyParameter', 'InvalidBodyParameter', 'TokenNotFound', 'TokenUpdateFailed'],
      handle: async ({ query, body, actor }) => {
        const id = query.id ?? callingTokenId(actor);
        if (id === undefined) return E.left(missingInput('id'));
        const { disabled, name, allowedAddresses: networks, quota } = body;
        return jsonOf(await deps.updateToken.execute(actor, id, { disabled, name, allowedAddresses: networks, quota }));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/token/rotate',
      permission: null,
      family: 'Tokens',
      summary:
        `Replace a token by a new one (new id and secret, in this answer only) holding what it held: the calling token by default, ` +
        `any of yours, or anyone's with ${UsersAndTokensPermission.TokensUpdate}. The old one keeps working for the grace, ` +
        'then answers 401 code 4; a token already rotated answers 409 code 26, and so does a rotation that would leave ' +
        'the owner more than auth.maxTokensPerUser live tokens (the token replaced not counted)',
      query: { id: optional(tokenId, 'the token id; default: the calling token') },
      headers: noUidHeader,
      body: {
        graceSeconds: optional(
          graceSeconds,
          'how long the old token keeps working, 0 to 604800 seconds; default 86400',
        ),
      },
      status: 201,
      response: rotatedToken,
      errors: ['InvalidBodyParameter', 'TokenNotFound', 'Conflict', 'TooManyTokens', 'TokenUpdateFailed'],
      handle: async ({ query, body, actor }) => {
        const id = query.id ?? callingTokenId(actor);
        if (id === undefined) return E.left(missingInput('id'));
        return E.map(({ secret, record, previous, user, issuer }: RotatedToken) =>
          json({
            ...issuedAnswer(secret, record, user, issuer),
            rotatedFrom: previous.id,
            rotationEndsAt: iso(previous.rotationEndsAt)!,
          }),
        )(await deps.rotateToken.execute(actor, id, body.graceSeconds));
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
