import type { NewDomainEvent } from '../../../../domain/events.js';
import { describedTokenEvent } from '../events.js';
import { auditEntry, changesBetween } from '../../../../domain/audit.js';
import type { Clock } from '../../../../domain/ports.js';
import { tokenAuditFields, tokenTarget } from '../audit-views.js';
import * as E from 'fp-ts/lib/Either.js';
import { actorHolds, type Actor } from '../../../../domain/identity/actor.js';
import type { AccessChanges } from '../auth/access-changes.js';
import { missingInput, type DomainError, type OutageError } from '../../../../domain/errors.js';
import { orOutage, TOKEN_STORE_DOWN, USER_STORE_DOWN } from '../../../../domain/outage.js';
import { UsersAndTokensPermission } from '../permissions.js';
import { checkText } from '../users/user-rules.js';
import type { UserStore } from '../users/ports.js';
import type { User } from '../../../../domain/identity/user.js';
import { targetUser, type UserRef } from '../users/target-user.js';
import { checkAllowedAddresses, ownsToken } from './issue-token.js';
import { LISTED_NETWORKS_ONLY, type ClientNetworks, type TokenChanges, type TokenStore } from './ports.js';
import type { TokenOrigin, TokenRecord } from '../../../../domain/identity/token.js';
import type { TokenUsageMeter } from './usage-meter.js';
import type { Quota } from '../../../../domain/identity/quota.js';
import { checkQuota } from '../quota-rules.js';
import type { RateLimit } from '../../../../domain/identity/rate-limit.js';

/** Token metadata as clients see it: never the secret or its hash. */
export interface TokenView {
  readonly id: string;
  readonly prefix: string;
  readonly license: string;
  readonly name: string | null;
  readonly username: string;
  readonly associatedFirebaseUID: string;
  readonly permissions: readonly string[];
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly expiresAt: string | null;
  readonly uses: number;
  readonly disabled: boolean;
  /** The user whose token minted it, when it hangs on that token; null for the owner's own, which hang on nothing. */
  readonly issuedBy: UserName | null;
  /** Its own request rate limit, or null when the installation's default policy applies. */
  readonly rateLimit: RateLimit | null;
  /** Its own quota, or null when only its user's (if any) counts its requests. */
  readonly quota: Quota | null;
  /** How it was issued: `password` (a session, ended by a change of password), `token` or `cli`. */
  readonly origin: TokenOrigin;
  /** The client networks it may be used from; null: from anywhere. */
  readonly allowedAddresses: readonly string[] | null;
  /** The token that replaced it by rotation, and when this one stops. */
  readonly rotatedTo: string | null;
  readonly rotationEndsAt: string | null;
  /** The token it replaced by rotation. */
  readonly rotatedFrom: string | null;
}

export interface UserName {
  readonly uid: string;
  readonly username: string;
}

export const userNameOf = (user: UserName): UserName => ({ uid: user.uid, username: user.username });

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A token as clients see it, with the uses counted in memory but not yet written, if any, added in. */
export function tokenViewOf(
  record: TokenRecord,
  owner: UserName,
  issuer: UserName | null,
  unwritten?: { readonly uses: number; readonly lastUsedAt: number },
): TokenView {
  const lastUsedAt = Math.max(record.lastUsedAt ?? 0, unwritten?.lastUsedAt ?? 0);
  return {
    id: record.id,
    prefix: record.prefix,
    license: record.license,
    name: record.name,
    username: owner.username,
    associatedFirebaseUID: owner.uid,
    permissions: record.scopes,
    createdAt: iso(record.createdAt)!,
    lastUsedAt: lastUsedAt === 0 ? null : iso(lastUsedAt),
    expiresAt: iso(record.expiresAt),
    uses: record.uses + (unwritten?.uses ?? 0),
    disabled: record.disabled,
    issuedBy: issuer && userNameOf(issuer),
    rateLimit: record.rateLimit,
    quota: record.quota,
    origin: record.origin,
    allowedAddresses: record.allowedAddresses,
    rotatedTo: record.rotatedTo,
    rotationEndsAt: iso(record.rotationEndsAt),
    rotatedFrom: record.rotatedFrom,
  };
}

/** Reads tokens with the uses counted in memory but not yet written added in. */
export class TokenReader {
  constructor(
    private readonly tokens: TokenStore,
    private readonly users: UserStore,
    private readonly meter: TokenUsageMeter,
  ) {}

  view(record: TokenRecord, owner: UserName, issuer: UserName | null): TokenView {
    return tokenViewOf(record, owner, issuer, this.meter.unwritten(record.id));
  }

  /**
   * A token as `info` shows it, its owner and issuer read: for an event about it. Undefined when
   * its owner or issuer is gone.
   */
  async described(record: TokenRecord): Promise<E.Either<DomainError, TokenView | undefined>> {
    const owner = await orOutage(this.users.findById(record.userId), USER_STORE_DOWN);
    if (E.isLeft(owner)) return owner;
    const issuers = await this.issuersOf([record]);
    if (E.isLeft(issuers)) return issuers;
    const issuer = issuers.right(record);
    return E.right(owner.right && issuer !== undefined ? this.view(record, owner.right, issuer) : undefined);
  }

  /** One token: your own, or anyone's with `Tokens::Read`; 404 for an unknown id or one you may not see. */
  async info(actor: Actor, tokenId: string): Promise<E.Either<DomainError, TokenView>> {
    const found = await this.findForActor(actor, tokenId, UsersAndTokensPermission.TokensRead, TOKEN_STORE_DOWN);
    if (E.isLeft(found)) return found;
    const owner = await orOutage(this.users.findById(found.right.userId), USER_STORE_DOWN);
    if (E.isLeft(owner)) return owner;
    const issuers = await this.issuersOf([found.right]);
    if (E.isLeft(issuers)) return issuers;
    const issuer = issuers.right(found.right);
    if (!owner.right || issuer === undefined) return E.left({ _tag: 'TokenNotFound', token: tokenId });
    return E.right(this.view(found.right, owner.right, issuer));
  }

  /** A user's tokens, newest first: your own, or anyone's with `Tokens::Read`. */
  async list(actor: Actor, ref: UserRef): Promise<E.Either<DomainError, TokenView[]>> {
    const user = await targetUser(this.users, actor, ref, UsersAndTokensPermission.TokensRead, USER_STORE_DOWN);
    if (E.isLeft(user)) return user;
    const records = await orOutage(this.tokens.listByUser(user.right.id), TOKEN_STORE_DOWN);
    if (E.isLeft(records)) return records;
    const issuers = await this.issuersOf(records.right);
    if (E.isLeft(issuers)) return issuers;
    return E.right(
      records.right.flatMap((record) => {
        const issuer = issuers.right(record);
        return issuer === undefined ? [] : [this.view(record, user.right, issuer)];
      }),
    );
  }

  /**
   * The issuer of each record, looked up once per issuer: null for the owner's own tokens,
   * undefined for a token whose issuer is gone (deleted with it, unless read in between).
   */
  private async issuersOf(
    records: readonly TokenRecord[],
  ): Promise<E.Either<DomainError, (record: TokenRecord) => User | null | undefined>> {
    const ids = [...new Set(records.flatMap((record) => (record.issuedBy === null ? [] : [record.issuedBy])))];
    const found = await orOutage(Promise.all(ids.map((id) => this.users.findById(id))), USER_STORE_DOWN);
    if (E.isLeft(found)) return found;
    const byId = new Map(ids.map((id, i) => [id, found.right[i]]));
    return E.right((record) => (record.issuedBy === null ? null : byId.get(record.issuedBy)));
  }

  /**
   * A token the actor may see: their own, or anyone's with `permissionForOthers`. Somebody else's
   * token without it is answered exactly as an unknown id, so that ids cannot be probed.
   */
  async findForActor(
    actor: Actor,
    tokenId: string,
    permissionForOthers: string,
    outage: OutageError,
  ): Promise<E.Either<DomainError, TokenRecord>> {
    const found = await orOutage(this.tokens.findById(tokenId), outage);
    if (E.isLeft(found)) return found;
    if (!found.right || (!ownsToken(actor, found.right) && !actorHolds(actor, permissionForOthers)))
      return E.left({ _tag: 'TokenNotFound', token: tokenId });
    return E.right(found.right);
  }
}

/**
 * Disables a token (it answers 403/5 from its next use, here and, once they hear of it, on every
 * other process), enables it again, renames it, or binds it to client networks (within the
 * caller token's own) or frees it: your own, or anyone's with `Tokens::Update`.
 */
export class UpdateToken {
  constructor(
    private readonly tokens: TokenStore,
    private readonly reader: TokenReader,
    private readonly accessChanges: AccessChanges,
    /** Where a token's owner is read, for the quota rule. */
    private readonly users: UserStore,
    private readonly clock: Clock,
    private readonly networks: ClientNetworks = LISTED_NETWORKS_ONLY,
  ) {}

  async execute(actor: Actor, tokenId: string, changes: TokenChanges): Promise<E.Either<DomainError, TokenView>> {
    if (Object.values(changes).every((value) => value === undefined))
      return E.left(missingInput('disabled', 'name', 'allowedAddresses', 'quota'));
    const refused =
      checkText('name', changes.name) ?? checkAllowedAddresses(actor, changes.allowedAddresses, this.networks);
    if (refused) return E.left(refused);
    const found = await this.reader.findForActor(actor, tokenId, UsersAndTokensPermission.TokensUpdate, {
      _tag: 'TokenUpdateFailed',
    });
    if (E.isLeft(found)) return found;
    if (changes.quota !== undefined) {
      const owner = await orOutage(this.users.findById(found.right.userId), { _tag: 'TokenUpdateFailed' });
      if (E.isLeft(owner)) return owner;
      const beyond = checkQuota(actor, changes.quota, owner.right);
      if (beyond) return E.left(beyond);
    }
    const now = this.clock.now();
    // Disabling announces token.disabled, with the token as it will be.
    let events: readonly NewDomainEvent[] = [];
    if (changes.disabled === true && !found.right.disabled) {
      const described = await this.reader.described({ ...found.right, disabled: true });
      if (E.isLeft(described)) return described;
      if (described.right !== undefined)
        events = [describedTokenEvent('token.disabled', now, found.right.userId, described.right)];
    }
    const audited = auditEntry(
      actor,
      now,
      'token.update',
      tokenTarget(found.right),
      found.right.userId,
      changesBetween(tokenAuditFields(found.right), {
        disabled: changes.disabled,
        name: changes.name,
        allowedAddresses: changes.allowedAddresses && [...changes.allowedAddresses],
        quota: changes.quota && { ...changes.quota },
      }),
    );
    const entry = events.length === 0 ? audited : { ...audited, events };
    const updated = await orOutage(this.tokens.update(tokenId, changes, entry), { _tag: 'TokenUpdateFailed' });
    await this.accessChanges.announce({ kind: 'token', id: tokenId });
    if (E.isLeft(updated)) return updated;
    return updated.right ? this.reader.info(actor, tokenId) : E.left({ _tag: 'TokenNotFound', token: tokenId });
  }
}

/** Deletes a token; it answers 401/4 on its very next use through this process, and through the others once they hear of it. */
export class RevokeToken {
  constructor(
    private readonly tokens: TokenStore,
    private readonly reader: TokenReader,
    private readonly accessChanges: AccessChanges,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, tokenId: string): Promise<E.Either<DomainError, TokenRecord>> {
    const found = await this.reader.findForActor(actor, tokenId, UsersAndTokensPermission.TokensDelete, {
      _tag: 'TokenDeleteFailed',
    });
    if (E.isLeft(found)) return found;
    const now = this.clock.now();
    const described = await this.reader.described(found.right);
    if (E.isLeft(described)) return described;
    const audited = auditEntry(actor, now, 'token.delete', tokenTarget(found.right), found.right.userId);
    const entry =
      described.right === undefined
        ? audited
        : { ...audited, events: [describedTokenEvent('token.deleted', now, found.right.userId, described.right)] };
    const deleted = await orOutage(this.tokens.delete(tokenId, entry), { _tag: 'TokenDeleteFailed' });
    await this.accessChanges.announce({ kind: 'token', id: tokenId });
    if (E.isLeft(deleted)) return deleted;
    return deleted.right ? E.right(found.right) : E.left({ _tag: 'TokenNotFound', token: tokenId });
  }
}
