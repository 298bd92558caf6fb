import type { Actor } from '../../domain/identity/actor.js';
import { describeQuota, quotaPeriodAt, type Quota } from '../../domain/identity/quota.js';
import type { Clock } from '../../domain/ports.js';
import type { RateLimiter, RateLimitPolicy, RateLimitStanding } from '../pipeline/ports.js';
import type { QuotaCharge, QuotaCounter, QuotaSpend } from './quota-counter.js';

/** The policy name the RateLimit fields announce a quota under. */
export const QUOTA_POLICY = 'quota';

type Standing = RateLimitStanding | undefined;

interface Charged {
  readonly quota: Quota;
  readonly charge: QuotaCharge;
}

const wholeSeconds = (ms: number): number => Math.max(Math.ceil(ms / 1000), 0);

/**
 * Counts each request against the quotas of its token and of its user (shared by all of that
 * user's tokens), by UTC day or calendar month, after the rate limit `inner` has admitted it: the
 * tighter quota is announced as a second policy beside the rate limit's, and a request either
 * quota has no room for is refused (429 code 25) until its period ends, spending nothing.
 *
 * A request with no quota to count is passed through as `inner` answered it, at no cost.
 */
export class QuotaCountingLimiter implements RateLimiter {
  /** One policy object per quota and period length, so that its announced field is made once. */
  private readonly policies = new Map<string, RateLimitPolicy>();

  constructor(
    private readonly inner: RateLimiter,
    private readonly counter: QuotaCounter,
    private readonly clock: Clock,
    /** What an operation costs (`METHOD /path`); 1 when not named. */
    private readonly costs: ReadonlyMap<string, number> = new Map(),
  ) {}

  admit(operation: string, actor: Actor, clientAddress: string): Standing | Promise<Standing> {
    const tokenQuota = actor.kind === 'principal' ? actor.principal.token.quota : null;
    const user = actor.kind === 'principal' ? actor.principal.user : actor.kind === 'password' ? actor.user : null;
    const userQuota = user?.quota ?? null;
    const limited = this.inner.admit(operation, actor, clientAddress);
    if (tokenQuota === null && userQuota === null) return limited;
    const quotas = (rate: Standing): Standing | Promise<Standing> => {
      if (rate?.refusal) return rate;
      const now = this.clock.now();
      const charged: Charged[] = [];
      if (tokenQuota !== null && actor.kind === 'principal')
        charged.push(chargeOf(`quota:token:${actor.principal.token.id}`, tokenQuota, now));
      if (userQuota !== null) charged.push(chargeOf(`quota:user:${user!.id}`, userQuota, now));
      const spent = this.counter.spend(
        charged.map(({ charge }) => charge),
        this.costs.get(operation) ?? 1,
        now,
      );
      if (!(spent instanceof Promise)) return this.beside(rate, charged, spent, now);
      return spent.then((settled) => this.beside(rate, charged, settled, now));
    };
    return limited instanceof Promise ? limited.then(quotas) : quotas(limited);
  }

  /** The rate limit's standing with the tighter quota's beside it (or the quota's alone), refused when a quota had no room. */
  private beside(rate: Standing, charged: readonly Charged[], { admitted, used }: QuotaSpend, now: number): Standing {
    let tightest = 0;
    const left = charged.map(({ quota }, i) => Math.max(quota.requests - used[i]!, 0));
    for (let i = 1; i < charged.length; i++) if (left[i]! < left[tightest]!) tightest = i;
    const { quota, charge } = charged[tightest]!;
    const resetSeconds = Math.max(wholeSeconds(charge.endsAt - now), 1);
    const standing: RateLimitStanding = {
      policy: this.policyOf(quota, charge),
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
    return rate === undefined ? standing : { ...rate, also: standing, refusal: standing.refusal };
  }

  private policyOf(quota: Quota, { endsAt }: QuotaCharge): RateLimitPolicy {
    const perSeconds = (endsAt - quotaPeriodAt(endsAt - 1, quota.per).startsAt) / 1000;
    const id = `${quota.requests}/${perSeconds}`;
    let policy = this.policies.get(id);
    if (policy === undefined) {
      policy = { name: QUOTA_POLICY, requests: quota.requests, perSeconds };
      this.policies.set(id, policy);
    }
    return policy;
  }
}

/** The key names the period it counts, so that a new day or month starts from nothing wherever it is counted. */
function chargeOf(owner: string, quota: Quota, now: number): Charged {
  const { startsAt, endsAt } = quotaPeriodAt(now, quota.per);
  return { quota, charge: { key: `${owner}:${quota.per}:${startsAt}`, limit: quota.requests, endsAt } };
}
