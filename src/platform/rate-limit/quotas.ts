import { lineageOf } from '../../domain/identity/token.js';
import type { Actor } from '../../domain/identity/actor.js';
import { describeQuota, quotaPeriodAt, type Quota, type QuotaPeriod } from '../../domain/identity/quota.js';
import type { Clock } from '../../domain/ports.js';
import type { RateLimitPolicy, RateLimitStanding } from '../pipeline/ports.js';
import type { QuotaCharge, QuotaSpend } from './quota-counter.js';
import type { QuotaRequest } from './request-counter.js';

/** The shares of a quota whose passing is announced (quota.threshold). */
export const QUOTA_THRESHOLDS = [80, 100] as const;

/** A quota's count passing one of QUOTA_THRESHOLDS in a period. */
export interface QuotaThreshold {
  readonly scope: 'token' | 'user';
  /** The token (the first of its rotations) or user whose quota it is. */
  readonly id: string;
  /** The user it concerns: the token's owner, or the user. */
  readonly userId: string;
  readonly quota: Quota;
  readonly used: number;
  readonly percent: (typeof QUOTA_THRESHOLDS)[number];
  readonly startsAt: number;
  readonly endsAt: number;
}

const NONE_CROSSED: readonly QuotaThreshold[] = [];

/** The policy name the RateLimit fields announce a quota under. */
export const QUOTA_POLICY = 'quota';

type Standing = RateLimitStanding | undefined;
/** A period with the end of the keys that count in it, made once a period rather than once a request. */
interface Period {
  readonly startsAt: number;
  readonly endsAt: number;
  readonly keySuffix: string;
  readonly perSeconds: number;
}

interface Charged {
  readonly quota: Quota;
  readonly charge: QuotaCharge;
  /** Whose quota it is: a token's (by the first token of its rotations) or a user's, and the user it concerns. */
  readonly owner: { readonly scope: 'token' | 'user'; readonly id: string; readonly userId: string };
  readonly startsAt: number;
  /** The period's length in whole seconds, as the policy announces it. */
  readonly perSeconds: number;
}

/** A request's quota charges, with the quotas they stand for so that its standing can be told. */
export interface QuotasDue extends QuotaRequest {
  readonly charged: readonly Charged[];
}

const wholeSeconds = (ms: number): number => Math.max(Math.ceil(ms / 1000), 0);

/**
 * The quotas of tokens and of users (shared by all of that user's tokens), by UTC day or calendar
 * month: what a request is charged against them, and where that leaves it. The tighter quota is
 * announced as a second policy beside the rate limit's, and a request either quota has no room
 * for is refused (429 code 25) until its period ends, spending nothing. The rate limiter counts
 * a request's quotas in the same step as its windows (see `RequestCounter`), and not at all when
 * a window refuses it.
 */
export class Quotas {
  /**
   * One policy object per quota and period length, so that its announced field is made once; by
   * requests, then by period length, so that no number is written out on a request's way.
   */
  private readonly policies = new Map<number, Map<number, RateLimitPolicy>>();
  private readonly periods: { day?: Period; month?: Period } = {};

  constructor(
    private readonly clock: Clock,
    /** What an operation costs (`METHOD /path`); 1 when not named. */
    private readonly costs: ReadonlyMap<string, number> = new Map(),
  ) {}

  /** What `actor` asking for `operation` is charged against its token's and its user's quotas; undefined when neither has one. */
  due(operation: string, actor: Actor): QuotasDue | undefined {
    const tokenQuota = actor.kind === 'principal' ? actor.principal.token.quota : null;
    const user = actor.kind === 'principal' ? actor.principal.user : actor.kind === 'password' ? actor.user : null;
    const userQuota = user?.quota ?? null;
    if (tokenQuota === null && userQuota === null) return undefined;
    const now = this.clock.now();
    const charged: Charged[] = [];
    if (tokenQuota !== null && actor.kind === 'principal') {
      const { token } = actor.principal;
      const owner = { scope: 'token' as const, id: lineageOf(token), userId: token.userId };
      charged.push(this.chargeOf(`quota:token:${owner.id}`, tokenQuota, now, owner));
    }
    if (userQuota !== null)
      charged.push(
        this.chargeOf(`quota:user:${user!.id}`, userQuota, now, { scope: 'user', id: user!.id, userId: user!.id }),
      );
    return {
      charges: charged.map(({ charge }) => charge),
      cost: this.costs.get(operation) ?? 1,
      now,
      charged,
    };
  }

  /** The rate limit's standing with the tighter quota's beside it (or the quota's alone), refused when a quota had no room. */
  beside(rate: Standing, { charged, now }: QuotasDue, { admitted, used }: QuotaSpend): RateLimitStanding {
    let tightest = 0;
    const left = charged.map(({ quota }, i) => Math.max(quota.requests - used[i]!, 0));
    for (let i = 1; i < charged.length; i++) if (left[i]! < left[tightest]!) tightest = i;
    const { quota, charge, perSeconds } = charged[tightest]!;
    const resetSeconds = Math.max(wholeSeconds(charge.endsAt - now), 1);
    const standing: RateLimitStanding = {
      policy: this.policyOf(quota, perSeconds),
      remaining: left[tightest]!,
      resetSeconds,
      refusal: admitted
        ? undefined
        : {
            _tag: 'QuotaExceeded',
            retryAfterSeconds: resetSeconds,
            details: `The quota of ${describeQuota(quota)} has no room for this request; it starts again at ${new Date(charge.endsAt).toISOString()}`,
          },
    };
    if (rate === undefined) return standing;
    // Spelled out: spreading a standing into a new object costs a request microseconds, not nanoseconds.
    const { policy, remaining } = rate;
    return { policy, remaining, resetSeconds: rate.resetSeconds, refusal: standing.refusal, also: standing };
  }

  /** The key names the period it counts, so that a new day or month starts from nothing wherever it is counted. */
  private chargeOf(key: string, quota: Quota, now: number, owner: Charged['owner']): Charged {
    const { startsAt, endsAt, keySuffix, perSeconds } = this.periodAt(now, quota.per);
    return { quota, charge: { key: key + keySuffix, limit: quota.requests, endsAt }, perSeconds, owner, startsAt };
  }

  /**
   * The thresholds (80 % and 100 % of a quota) this request's count passed: the one request of a
   * period whose cost took the count from below a threshold to it or past it, wherever it was
   * counted. Nothing when it was refused (it spent nothing).
   */
  crossed({ charged, cost }: QuotasDue, { admitted, used }: QuotaSpend): readonly QuotaThreshold[] {
    if (!admitted) return NONE_CROSSED;
    let crossed: QuotaThreshold[] | undefined;
    for (let i = 0; i < charged.length; i++) {
      const { quota, charge, owner, startsAt } = charged[i]!;
      const after = used[i]!;
      const before = after - cost;
      for (const percent of QUOTA_THRESHOLDS) {
        const mark = Math.ceil((quota.requests * percent) / 100);
        if (before < mark && after >= mark)
          (crossed ??= []).push({ ...owner, quota, used: after, percent, startsAt, endsAt: charge.endsAt });
      }
    }
    return crossed ?? NONE_CROSSED;
  }

  /** The current day and month, worked out again only once they end (or the clock goes back). */
  private periodAt(now: number, per: QuotaPeriod): Period {
    let period = this.periods[per];
    if (period === undefined || now >= period.endsAt || now < period.startsAt) {
      const { startsAt, endsAt } = quotaPeriodAt(now, per);
      period = { startsAt, endsAt, keySuffix: `:${per}:${startsAt}`, perSeconds: (endsAt - startsAt) / 1000 };
      this.periods[per] = period;
    }
    return period;
  }

  private policyOf(quota: Quota, perSeconds: number): RateLimitPolicy {
    let byLength = this.policies.get(quota.requests);
    if (byLength === undefined) this.policies.set(quota.requests, (byLength = new Map()));
    let policy = byLength.get(perSeconds);
    if (policy === undefined) {
      policy = { name: QUOTA_POLICY, requests: quota.requests, perSeconds };
      byLength.set(perSeconds, policy);
    }
    return policy;
  }
}
