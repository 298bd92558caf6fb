import * as E from 'fp-ts/lib/Either.js';
import type { DomainError } from '../errors.js';
import { orOutage, TOKEN_STORE_DOWN } from '../outage.js';
import type { Clock } from '../ports.js';
import type { TokenStore } from '../tokens/ports.js';
import { hashSecret, looksLikeSecret } from '../tokens/secret.js';
import type { TokenUsageMeter } from '../tokens/usage-meter.js';
import type { UserStore } from '../users/ports.js';
import { principalHolds } from './actor.js';
import type { Principal } from './principal.js';
import type { VerifiedTokenCache } from './verified-token-cache.js';

/**
 * Decides whether a presented secret may use a permission. The order of the checks is part
 * of the contract: no key (3), unknown or expired key (4), disabled key (5), blocked user (2),
 * missing permission (1). A token issued for somebody else is valid only while its issuer
 * exists (else it is unknown, 4) and is not blocked (else it is disabled, 5), and grants only
 * what token, user and issuer all hold.
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
  execute(secret: string | undefined, permission: string | null): E.Either<DomainError, Principal> | Promise<E.Either<DomainError, Principal>> {
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
    const user = await this.users.findById(token.userId);
    if (!user) return undefined;
    const issuer = token.issuedBy === null ? null : await this.users.findById(token.issuedBy);
    // A deleted issuer's tokens for others are deleted with it; one read in between is unknown too.
    if (issuer === undefined) return undefined;
    const principal: Principal = { token, user, issuer };
    this.cache.remember(secret, principal, generation);
    return principal;
  }
}

export function authorize(principal: Principal, permission: string | null, now: number): E.Either<DomainError, Principal> {
  const { token, user } = principal;
  if (token.expiresAt !== null && token.expiresAt <= now) return E.left({ _tag: 'InvalidApiKey' });
  if (token.disabled || principal.issuer?.blocked) return E.left({ _tag: 'DisabledApiKey' });
  if (user.blocked) return E.left({ _tag: 'Blocked' });
  if (permission !== null && !principalHolds(principal, permission)) return E.left({ _tag: 'NotAuthorized', permission });
  return E.right(principal);
}
