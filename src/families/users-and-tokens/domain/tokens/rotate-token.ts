import { tokenEvent } from '../events.js';
import { auditEntry, changesBetween } from '../../../../domain/audit.js';
import { tokenTarget } from '../audit-views.js';
import * as E from 'fp-ts/lib/Either.js';
import type { Actor } from '../../../../domain/identity/actor.js';
import type { DomainError, OutageError } from '../../../../domain/errors.js';
import { lineageOf, type TokenRecord } from '../../../../domain/identity/token.js';
import type { User } from '../../../../domain/identity/user.js';
import { orOutage } from '../../../../domain/outage.js';
import type { Clock, Randomness } from '../../../../domain/ports.js';
import type { AccessChanges } from '../auth/access-changes.js';
import { UsersAndTokensPermission } from '../permissions.js';
import type { UserStore } from '../users/ports.js';
import type { TokenReader } from './manage-tokens.js';
import type { TokenStore } from './ports.js';
import { issueLicense, issueSecret } from './secret.js';

/** How long a rotated token keeps working unless asked otherwise: a day to roll the new one out. */
export const DEFAULT_ROTATION_GRACE_MS = 86_400_000;
/** The longest overlap: a week, so that a forgotten old key does not live on for long. */
export const MAX_ROTATION_GRACE_MS = 7 * 86_400_000;

export interface RotatedToken {
  /** The new secret: shown once, here, and never again. */
  readonly secret: string;
  readonly record: TokenRecord;
  /** The token replaced, as it now is: it stops at its `rotationEndsAt`. */
  readonly previous: TokenRecord;
  readonly user: User;
  readonly issuer: User | null;
}

const UPDATE_FAILED: OutageError = { _tag: 'TokenUpdateFailed' };

/**
 * Replaces a token by a new one (new id, new secret) that holds what it held: owner, name,
 * permissions, issuer and the chain it hangs on, rate limit, allowed addresses, expiry and origin.
 * The old one keeps working for the grace, then is unknown (401 code 4) on every process, as an
 * expired token is; what was minted through it ends with it. Your own token, or anyone's with
 * `Tokens::Update`; a token rotates once (409 code 26 after): its replacement is the one to rotate.
 */
export class RotateToken {
  constructor(
    private readonly tokens: TokenStore,
    private readonly users: UserStore,
    private readonly reader: TokenReader,
    private readonly accessChanges: AccessChanges,
    private readonly clock: Clock,
    private readonly randomness: Randomness,
    /** How many live tokens one user may hold; the token replaced is not counted. null: no limit. */
    private readonly maxTokensPerUser: number | null = null,
  ) {}

  async execute(
    actor: Actor,
    tokenId: string,
    graceMs = DEFAULT_ROTATION_GRACE_MS,
  ): Promise<E.Either<DomainError, RotatedToken>> {
    const found = await this.reader.findForActor(actor, tokenId, UsersAndTokensPermission.TokensUpdate, UPDATE_FAILED);
    if (E.isLeft(found)) return found;
    const previous = found.right;
    if (previous.rotatedTo !== null) return E.left(alreadyRotated(previous.rotatedTo));
    const people = await orOutage(
      Promise.all([
        this.users.findById(previous.userId),
        previous.issuedBy === null ? null : this.users.findById(previous.issuedBy),
      ]),
      UPDATE_FAILED,
    );
    if (E.isLeft(people)) return people;
    const [user, issuer] = people.right;
    if (!user || issuer === undefined) return E.left({ _tag: 'TokenNotFound', token: tokenId });

    const now = this.clock.now();
    const { secret, secretHash, prefix } = issueSecret(this.randomness);
    const record: TokenRecord = {
      ...previous,
      id: this.randomness.uuid(),
      secretHash,
      prefix,
      license: issueLicense(this.randomness),
      createdAt: now,
      lastUsedAt: null,
      uses: 0,
      rotatedTo: null,
      rotationEndsAt: null,
      rotatedFrom: previous.id,
      lineage: lineageOf(previous),
    };
    const endsAt = now + graceMs;
    const entry = {
      ...auditEntry(
        actor,
        this.clock.now(),
        'token.rotate',
        tokenTarget(previous),
        previous.userId,
        changesBetween(
          { rotatedTo: null, rotationEndsAt: null },
          { rotatedTo: record.id, rotationEndsAt: new Date(endsAt).toISOString() },
        ),
      ),
      // The replacement, which names the token it replaced in rotatedFrom.
      events: [tokenEvent('token.rotated', now, record, user, issuer)],
    };
    const rotated = await orOutage(
      this.tokens.rotate(previous.id, record, endsAt, this.maxTokensPerUser ?? undefined, entry),
      UPDATE_FAILED,
    );
    // Every process forgets the old token, so that each reads when it stops.
    await this.accessChanges.announce({ kind: 'token', id: previous.id });
    if (E.isLeft(rotated)) return rotated;
    const outcome = rotated.right;
    if (!outcome.rotated) {
      if (outcome.refused === 'notFound') return E.left({ _tag: 'TokenNotFound', token: tokenId });
      if (outcome.refused === 'liveTokenLimit') return E.left({ _tag: 'TooManyTokens', limit: this.maxTokensPerUser! });
      const again = await orOutage(this.tokens.findById(previous.id), UPDATE_FAILED);
      return E.isLeft(again) ? again : E.left(alreadyRotated(again.right?.rotatedTo ?? null));
    }
    return E.right({ secret, record, previous: outcome.previous, user, issuer });
  }
}

const alreadyRotated = (replacement: string | null): DomainError => ({
  _tag: 'Conflict',
  details:
    replacement === null
      ? 'This token is already being rotated'
      : `This token is already being rotated: rotate its replacement, ${replacement}, instead`,
});
