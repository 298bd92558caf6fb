import * as E from 'fp-ts/lib/Either.js';
import { actorHolds, type Actor } from '../../../domain/identity/actor.js';
import { invalidInput, type DomainError, type OutageError } from '../../../domain/errors.js';
import { orOutage, TOKEN_STORE_DOWN, USER_STORE_DOWN } from '../../../domain/outage.js';
import type { Clock } from '../../../domain/ports.js';
import {
  ownsToken,
  targetUser,
  UsersAndTokensPermission,
  type TokenStore,
  type UserRef,
  type UserStore,
} from '../../users-and-tokens/domain/index.js';
import type { UsageHistory } from './ports.js';
import {
  bucketMsOf,
  bucketStart,
  DAY_MS,
  type Granularity,
  type Grouping,
  type UsageQuery,
  type UsageScope,
} from './usage.js';

/** What a caller asks: every part may be left out. */
export interface UsageRequest {
  readonly from?: number;
  readonly to?: number;
  readonly by?: Granularity;
  readonly group?: Grouping;
}

/** The answer as clients see it: the range as whole buckets, the series, and its sum. */
export interface UsageView {
  readonly from: string;
  readonly to: string;
  readonly by: Granularity;
  readonly series: readonly { at: string; operation?: string; status?: string; count: number }[];
  readonly total: number;
}

/** The longest range by hour (31 days of hours) and by day (a year and a day). */
export const MAX_SPAN_MS: Readonly<Record<Granularity, number>> = { hour: 31 * DAY_MS, day: 366 * DAY_MS };
/** The range when none is given: the last 24 hours by hour, the last 30 days by day. */
export const DEFAULT_SPAN_MS: Readonly<Record<Granularity, number>> = { hour: DAY_MS, day: 30 * DAY_MS };

const USAGE_STORE_DOWN: OutageError = { _tag: 'Unknown', details: 'usage history unavailable' };
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The range asked for, as whole buckets: `from` down to its bucket's start, `to` up to its
 * bucket's end (the current hour counts up to now), answered as such so the client sees what was summed.
 */
export function rangeOf(request: UsageRequest, now: number): E.Either<DomainError, Omit<UsageQuery, 'scope'>> {
  const by = request.by ?? 'hour';
  const bucketMs = bucketMsOf(by);
  const to = request.to ?? (request.from === undefined ? now : Math.max(now, request.from));
  const from = request.from ?? to - DEFAULT_SPAN_MS[by];
  if (from > to) return E.left(invalidInput('from', 'from must not be after to'));
  const alignedFrom = bucketStart(from, bucketMs);
  const toStart = bucketStart(to, bucketMs);
  const alignedTo = toStart === to ? to : toStart + bucketMs;
  if (alignedTo - alignedFrom > MAX_SPAN_MS[by]) {
    const days = MAX_SPAN_MS[by] / DAY_MS;
    const hint = by === 'hour' ? '; ask by=day for longer' : '';
    return E.left(invalidInput('from', `by=${by} covers at most ${days} days from from to to${hint}`));
  }
  return E.right({ from: alignedFrom, to: alignedTo, by, group: request.group });
}

/**
 * Reads usage history: a token's, as token/info shows a token (your own, or anyone's with
 * `Tokens::Read`; another's is answered as an unknown id), or a user's over all their tokens
 * (yourself, or anyone with `Users::Read`).
 */
export class ReadUsage {
  constructor(
    private readonly history: UsageHistory,
    private readonly tokens: TokenStore,
    private readonly users: UserStore,
    private readonly clock: Clock,
  ) {}

  async ofToken(actor: Actor, tokenId: string, request: UsageRequest): Promise<E.Either<DomainError, UsageView>> {
    const range = rangeOf(request, this.clock.now());
    if (E.isLeft(range)) return range;
    const found = await orOutage(this.tokens.findById(tokenId), TOKEN_STORE_DOWN);
    if (E.isLeft(found)) return found;
    const token = found.right;
    if (!token || (!ownsToken(actor, token) && !actorHolds(actor, UsersAndTokensPermission.TokensRead)))
      return E.left({ _tag: 'TokenNotFound', token: tokenId });
    return this.answer({ tokenId }, range.right);
  }

  async ofUser(actor: Actor, ref: UserRef, request: UsageRequest): Promise<E.Either<DomainError, UsageView>> {
    const range = rangeOf(request, this.clock.now());
    if (E.isLeft(range)) return range;
    const user = await targetUser(this.users, actor, ref, UsersAndTokensPermission.UsersRead, USER_STORE_DOWN);
    if (E.isLeft(user)) return user;
    return this.answer({ userId: user.right.id }, range.right);
  }

  private async answer(scope: UsageScope, range: Omit<UsageQuery, 'scope'>): Promise<E.Either<DomainError, UsageView>> {
    const points = await orOutage(this.history.series({ scope, ...range }), USAGE_STORE_DOWN);
    if (E.isLeft(points)) return points;
    return E.right({
      from: iso(range.from),
      to: iso(range.to),
      by: range.by,
      series: points.right.map(({ at, count, ...group }) => ({ at: iso(at), ...group, count })),
      total: points.right.reduce((sum, { count }) => sum + count, 0),
    });
  }
}
