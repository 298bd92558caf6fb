import type { EventLog, NewDomainEvent } from '../../../domain/events.js';
import type { Clock } from '../../../domain/ports.js';
import { tokenEvent, type TokenStore, type UserStore } from '../../users-and-tokens/domain/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The notices of a token about to expire, latest first: a week before, then a day before. */
const NOTICES = [1, 7] as const;
/** Tokens read per page; pages go on until one is not full. */
const PAGE = 500;
const MAX_PAGES = 20;

/**
 * Announces `token.expiring` for tokens in use that expire within 7 days, and again within 1 day:
 * once each, whoever notices (every instance looks; the event log keeps one event per notice and
 * token). A token found with a day or less left gets only the day's notice. The event carries
 * the token as token/info shows it and `noticeDays`, 7 or 1.
 */
export class ExpiryNotices {
  constructor(
    private readonly tokens: TokenStore,
    private readonly users: UserStore,
    private readonly events: EventLog,
    private readonly clock: Clock,
  ) {}

  /** Looks once; answers how many notices it appended (some may have been written before). */
  async announce(): Promise<number> {
    const now = this.clock.now();
    let appended = 0;
    let after = now;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const expiring = await this.tokens.expiringBetween(after, now + 7 * DAY_MS, PAGE);
      const notices: NewDomainEvent[] = [];
      const owners = new Map<string, Awaited<ReturnType<UserStore['findById']>>>();
      for (const record of expiring) {
        const noticeDays = NOTICES.find((days) => record.expiresAt! - now <= days * DAY_MS)!;
        if (!owners.has(record.userId)) owners.set(record.userId, await this.users.findById(record.userId));
        const owner = owners.get(record.userId);
        const issuer = record.issuedBy === null ? null : await this.users.findById(record.issuedBy);
        if (owner === undefined || issuer === undefined) continue;
        const event = tokenEvent('token.expiring', now, record, owner, issuer);
        notices.push({
          ...event,
          data: { ...event.data, noticeDays },
          key: `token.expiring:${noticeDays}d:${record.id}`,
        });
      }
      await this.events.append(notices);
      appended += notices.length;
      if (expiring.length < PAGE) break;
      after = expiring.at(-1)!.expiresAt!;
    }
    return appended;
  }
}
