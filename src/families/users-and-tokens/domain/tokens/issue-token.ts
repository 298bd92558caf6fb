import { tokenEvent } from '../events.js';
import { auditEntry, changesBetween } from '../../../../domain/audit.js';
import { tokenAuditFields, tokenTarget } from '../audit-views.js';
import * as E from 'fp-ts/lib/Either.js';
import { actorHolds, actorUserId, callingTokenId, type Actor } from '../../../../domain/identity/actor.js';
import { invalidInput, type DomainError } from '../../../../domain/errors.js';
import { orOutage } from '../../../../domain/outage.js';
import { covers, grantedBy, type PermissionCatalogue } from '../../../../domain/permissions.js';
import { UsersAndTokensPermission } from '../permissions.js';
import type { Clock, Randomness } from '../../../../domain/ports.js';
import type { UserStore } from '../users/ports.js';
import { checkOutranks, targetUser, type UserRef } from '../users/target-user.js';
import type { User } from '../../../../domain/identity/user.js';
import { checkGrant, checkText } from '../users/user-rules.js';
import { LISTED_NETWORKS_ONLY, type ClientNetworks, type TokenStore } from './ports.js';
import { describeRateLimit, withinRateLimit, type RateLimit } from '../../../../domain/identity/rate-limit.js';
import type { Quota } from '../../../../domain/identity/quota.js';
import { checkQuota, ownQuotaOf } from '../quota-rules.js';
import { issueLicense, issueSecret } from './secret.js';
import { hangsOnAnother, type TokenOrigin, type TokenRecord } from '../../../../domain/identity/token.js';

export interface IssueTokenInput {
  readonly actor: Actor;
  /** Whose token it is. */
  readonly owner: UserRef;
  /** Narrows the token below its owner; default: every permission of the owner the actor holds too. */
  readonly scopes?: readonly string[];
  readonly expiresInMs?: number;
  readonly name?: string;
  /** Its own request rate limit, never above the caller's; default: the caller token's own, if it has one. */
  readonly rateLimit?: RateLimit;
  /** The client networks it may be used from, within the caller token's own; default: the caller token's own, if it has any. */
  readonly allowedAddresses?: readonly string[];
  /** Its own quota, within the caller's and its owner's; default: the caller token's own, if it has one. */
  readonly quota?: Quota;
}

export interface IssuedToken {
  /** The secret: shown once, here, and never again. */
  readonly secret: string;
  readonly record: TokenRecord;
  readonly user: User;
  /** The user whose token minted it, when it hangs on that token (`record.issuedBy`). */
  readonly issuer: User | null;
}

export class IssueToken {
  constructor(
    private readonly users: UserStore,
    private readonly tokens: TokenStore,
    private readonly clock: Clock,
    private readonly randomness: Randomness,
    private readonly permissions: PermissionCatalogue,
    /** The installation's policy for tokens without a limit of their own; null: such tokens are not limited. */
    private readonly defaultRateLimit: RateLimit | null = null,
    /** How many unexpired tokens one user may hold, whoever issues them; null: no limit. */
    private readonly maxTokensPerUser: number | null = null,
    private readonly networks: ClientNetworks = LISTED_NETWORKS_ONLY,
  ) {}

  async execute(input: IssueTokenInput): Promise<E.Either<DomainError, IssuedToken>> {
    const { actor } = input;
    // A password is the user's own key to everything they hold: it needs no permission to issue a token of theirs.
    if (actor.kind !== 'password' && !actorHolds(actor, UsersAndTokensPermission.TokensCreate))
      return E.left({ _tag: 'NotAuthorized', permission: UsersAndTokensPermission.TokensCreate });
    const found = await targetUser(this.users, actor, input.owner, UsersAndTokensPermission.UsersRead, {
      _tag: 'TokenCreateFailed',
    });
    if (E.isLeft(found)) return found;
    const user = found.right;
    if (user.id !== actorUserId(actor)) {
      const outranked = checkOutranks(actor, user);
      if (outranked) return E.left(outranked);
    }

    const scopes = [...new Set(input.scopes ?? defaultScopes(actor, user, this.permissions))];
    // A token may hold only what its owner holds, and nobody gives away what they do not hold.
    const refused =
      checkGrant(actor, scopes, [], this.permissions) ??
      checkText('name', input.name) ??
      this.checkRateLimit(actor, input.rateLimit) ??
      checkAllowedAddresses(actor, input.allowedAddresses, this.networks) ??
      checkQuota(actor, input.quota, user);
    if (refused) return E.left(refused);
    const beyondOwner = scopes.find((p) => !grantedBy(user.permissions, p));
    if (beyondOwner !== undefined) return E.left({ _tag: 'NotAuthorized', permission: beyondOwner });

    const now = this.clock.now();
    const { issuer, issuedThrough } = mintedBy(actor, user);
    const { secret, secretHash, prefix } = issueSecret(this.randomness);
    const record: TokenRecord = {
      id: this.randomness.uuid(),
      userId: user.id,
      secretHash,
      prefix,
      license: issueLicense(this.randomness),
      name: input.name ?? null,
      scopes,
      createdAt: now,
      expiresAt: expiryFor(actor, now, input.expiresInMs),
      lastUsedAt: null,
      uses: 0,
      disabled: false,
      issuedBy: issuer?.id ?? null,
      issuedThrough,
      rateLimit: input.rateLimit ?? ownRateLimitOf(actor),
      origin: originOf(actor),
      allowedAddresses: input.allowedAddresses ?? allowedAddressesOf(actor),
      rotatedTo: null,
      rotationEndsAt: null,
      rotatedFrom: null,
      lineage: null,
      quota: input.quota ?? ownQuotaOf(actor),
    };
    const entry = {
      ...auditEntry(
        actor,
        this.clock.now(),
        'token.create',
        tokenTarget(record),
        user.id,
        changesBetween({}, tokenAuditFields(record)),
      ),
      events: [tokenEvent('token.created', now, record, user, issuer)],
    };
    const inserted = await orOutage(this.tokens.insert(record, this.maxTokensPerUser ?? undefined, entry), {
      _tag: 'TokenCreateFailed',
    });
    if (E.isLeft(inserted)) return inserted;
    const outcome = inserted.right;
    if (!outcome.inserted) {
      if ('refused' in outcome) {
        // The calling token was revoked while this one was being made: it is unknown from now on.
        return E.left(
          outcome.refused === 'liveTokenLimit'
            ? { _tag: 'TooManyTokens', limit: this.maxTokensPerUser! }
            : { _tag: 'InvalidApiKey' },
        );
      }
      // A collision of 256 random bits or 80-bit licences means something is badly wrong; never retry silently.
      return E.left({ _tag: 'TokenCreateFailed' });
    }
    return E.right({ secret, record, user, issuer });
  }

  /** Nobody lends a faster rate than they have: a limit asked for stays within the caller's own. */
  private checkRateLimit(actor: Actor, limit: RateLimit | undefined): DomainError | undefined {
    if (limit === undefined) return undefined;
    const ceiling = this.rateLimitOf(actor);
    return withinRateLimit(limit, ceiling)
      ? undefined
      : invalidInput('rateLimit', `rateLimit may not exceed your own, ${describeRateLimit(ceiling!)}`);
  }

  /** The limit the actor's own requests are counted under: none for the operator, who is no HTTP client. */
  private rateLimitOf(actor: Actor): RateLimit | null {
    switch (actor.kind) {
      case 'operator':
        return null;
      case 'password':
        return this.defaultRateLimit;
      case 'principal':
        return actor.principal.token.rateLimit ?? this.defaultRateLimit;
    }
  }
}

/** A password login's token is a session, which a change of password ends; the operator works at the command line. */
const originOf = (actor: Actor): TokenOrigin =>
  actor.kind === 'password' ? 'password' : actor.kind === 'operator' ? 'cli' : 'token';

/** A token bound to client networks binds the tokens it issues to them too, so none escapes them. */
const allowedAddressesOf = (actor: Actor): readonly string[] | null =>
  actor.kind === 'principal' ? actor.principal.token.allowedAddresses : null;

/** Nobody lends a key to places they may not reach themselves: the networks asked for stay within the caller token's. */
export function checkAllowedAddresses(
  actor: Actor,
  asked: readonly string[] | null | undefined,
  networks: ClientNetworks,
): DomainError | undefined {
  const own = allowedAddressesOf(actor);
  if (asked === undefined || own === null) return undefined;
  return asked !== null && networks.within(asked, own)
    ? undefined
    : invalidInput('allowedAddresses', `allowedAddresses must lie within your token's own: ${own.join(', ')}`);
}

/** A token with a limit of its own passes it on to the tokens it issues, so none outpaces it. */
const ownRateLimitOf = (actor: Actor): RateLimit | null =>
  actor.kind === 'principal' ? actor.principal.token.rateLimit : null;

/**
 * Every permission of the owner the actor holds too. An owner's wildcard the actor does not hold
 * whole is narrowed to the permissions under it that the actor does hold.
 */
function defaultScopes(actor: Actor, owner: User, catalogue: PermissionCatalogue): string[] {
  return owner.permissions.flatMap((held) =>
    actorHolds(actor, held)
      ? [held]
      : catalogue.known.filter((known) => covers(held, known) && actorHolds(actor, known)),
  );
}

/** How long a token got with a password lives unless asked otherwise: a password is not to be typed daily. */
export const PASSWORD_TOKEN_LIFETIME_MS = 30 * 86_400_000;

/** A token never outlives the token that issued it; one got with a password expires by default. */
function expiryFor(actor: Actor, now: number, lifetimeMs: number | undefined): number | null {
  const defaultLifetime = actor.kind === 'password' ? PASSWORD_TOKEN_LIFETIME_MS : undefined;
  const lifetime = lifetimeMs ?? defaultLifetime;
  const requested = lifetime === undefined ? null : now + lifetime;
  const ceiling = actor.kind === 'principal' ? actor.principal.token.expiresAt : null;
  if (ceiling === null) return requested;
  return requested === null ? ceiling : Math.min(requested, ceiling);
}

/**
 * What a new token for `owner` hangs on. The operator's, a password's and the tokens an owner's
 * own independent token mints for them hang on nothing. A token minted for somebody else, or
 * through a token that itself hangs on another, hangs on the token that minted it and names that
 * token's user as its issuer: it lives and grants only while every link above it does, and can
 * never give its owner the full self-access its chain did not.
 */
function mintedBy(actor: Actor, owner: User): { readonly issuer: User | null; readonly issuedThrough: string | null } {
  if (actor.kind !== 'principal') return { issuer: null, issuedThrough: null };
  const { token, user } = actor.principal;
  return user.id === owner.id && !hangsOnAnother(token)
    ? { issuer: null, issuedThrough: null }
    : { issuer: user, issuedThrough: token.id };
}

/**
 * Whether the token belongs to the actor (the operator owns nothing and may do everything), or
 * is the very token the actor presents: a token issued by somebody else may still read and revoke itself.
 */
export const ownsToken = (actor: Actor, record: TokenRecord): boolean =>
  actorUserId(actor) === record.userId || callingTokenId(actor) === record.id;
