import * as E from 'fp-ts/lib/Either.js';
import type { DomainError } from '../../../../domain/errors.js';
import { orOutage, TOKEN_STORE_DOWN } from '../../../../domain/outage.js';
import type { Clock } from '../../../../domain/ports.js';
import type { TokenStore } from '../tokens/ports.js';
import { hashSecret, looksLikeSecret } from '../tokens/secret.js';
import { endOf, type TokenRecord } from '../../../../domain/identity/token.js';
import type { TokenUsageMeter } from '../tokens/usage-meter.js';
import type { UserStore } from '../users/ports.js';
import type { User } from '../../../../domain/identity/user.js';
import { principalHolds } from '../../../../domain/identity/actor.js';
import type { Principal } from '../../../../domain/identity/principal.js';
import type { VerifiedTokenCache } from './verified-token-cache.js';

/**
 * Decides whether a presented secret may use a permission. The order of the checks is part
 * of the contract: no key (3), unknown or expired key (4), disabled key (5), blocked user (2),
 * missing permission (1). A token issued for somebody else is valid only while its issuer
 * exists (else it is unknown, 4) and is not blocked (else it is disabled, 5), and grants only
 * what token, user and issuer all hold. The same holds for every link of the chain a token was
 * minted through: each token up it must exist and be unexpired (else 4), be enabled and have
 * neither its user nor its issuer blocked (else 5), and grant the permission.
 */
export class Authenticate {
  constructor(
    private readonly tokens: TokenStore,
    private readonly users: UserStore,
    private readonly clock: Clock,
    private readonly cache: VerifiedTokenCache,
    private readonly usage: TokenUsageMeter,
  ) {}

  /** `permission` null: any valid token will do (management endpoints check the rest themselves). */
  execute(
    secret: string | undefined,
    permission: string | null,
  ): E.Either<DomainError, Principal> | Promise<E.Either<DomainError, Principal>> {
    if (secret === undefined) return E.left({ _tag: 'MissingApiKey' });
    const now = this.clock.now();
    // A secret verified moments ago is answered at once, without a store or a promise.
    const cached = this.cache.get(secret, now);
    if (cached) return this.verdict(cached, permission, now);
    // Only verified secrets are cached, so junk is turned away here before any store is asked.
    if (!looksLikeSecret(secret)) return E.left({ _tag: 'InvalidApiKey' });
    return orOutage(this.lookUp(secret), TOKEN_STORE_DOWN).then((found) => {
      if (E.isLeft(found)) return found;
      return found.right ? this.verdict(found.right, permission, now) : E.left({ _tag: 'InvalidApiKey' });
    });
  }

  private verdict(principal: Principal, permission: string | null, now: number): E.Either<DomainError, Principal> {
    const allowed = authorize(principal, permission, now);
    if (E.isRight(allowed)) this.usage.record(principal.token.id, now);
    return allowed;
  }

  private async lookUp(secret: string): Promise<Principal | undefined> {
    const generation = this.cache.currentGeneration();
    const token = await this.tokens.findBySecretHash(hashSecret(secret));
    if (!token) return undefined;
    const principal = await this.chainOf(token, new Map());
    if (principal) this.cache.remember(secret, principal, generation);
    return principal;
  }

  /**
   * The token with its user, its issuer and, read link by link, the chain it hangs on; undefined
   * when any of them is gone (deleted with what it hung on, unless read in between).
   */
  private async chainOf(
    token: TokenRecord,
    usersRead: Map<string, User | undefined>,
    seen = new Set<string>(),
  ): Promise<Principal | undefined> {
    // Ids are random and a token can only be minted through one that exists: a loop means a damaged store.
    if (seen.has(token.id)) return undefined;
    seen.add(token.id);
    const userById = async (id: string) => {
      if (!usersRead.has(id)) usersRead.set(id, await this.users.findById(id));
      return usersRead.get(id);
    };
    const user = await userById(token.userId);
    if (!user) return undefined;
    const issuer = token.issuedBy === null ? null : await userById(token.issuedBy);
    if (issuer === undefined) return undefined;
    if (token.issuedThrough === null) return { token, user, issuer, through: null };
    const parent = await this.tokens.findById(token.issuedThrough);
    const through = parent && (await this.chainOf(parent, usersRead, seen));
    return through ? { token, user, issuer, through } : undefined;
  }
}

export function authorize(
  principal: Principal,
  permission: string | null,
  now: number,
): E.Either<DomainError, Principal> {
  if (expiredAlongChain(principal, now)) return E.left({ _tag: 'InvalidApiKey' });
  if (disabledAlongChain(principal)) return E.left({ _tag: 'DisabledApiKey' });
  if (principal.user.blocked) return E.left({ _tag: 'Blocked' });
  if (permission !== null && !principalHolds(principal, permission))
    return E.left({ _tag: 'NotAuthorized', permission });
  return E.right(principal);
}

/** A token up the chain has expired, or its rotation's grace has ended. */
function expiredAlongChain(principal: Principal, now: number): boolean {
  for (let link: Principal | null | undefined = principal; link; link = link.through) {
    const end = endOf(link.token);
    if (end !== null && end <= now) return true;
  }
  return false;
}

/** The token is disabled, its issuer blocked, or so is a token, an owner or an issuer up its chain. */
function disabledAlongChain(principal: Principal): boolean {
  if (principal.token.disabled || principal.issuer?.blocked) return true;
  for (let link = principal.through; link; link = link.through) {
    if (link.token.disabled || link.user.blocked || link.issuer?.blocked) return true;
  }
  return false;
}
