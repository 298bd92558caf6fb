import { invalidInput, type DomainError } from './errors.js';

/**
 * Lists read a page at a time (users, audit entries, webhook deliveries, mail): a request names
 * at most how many it wants and where the page before ended; the store is asked for one more than
 * that, so that the answer says whether another page follows without asking again.
 */

/** How many rows to ask a store for, for a page of `limit`: one more. */
export const withLookahead = (limit: number): number => limit + 1;

/** The page that rows read with `withLookahead` make, and the cursor of the next page (null on the last). */
export function pageOf<Row>(
  rows: readonly Row[],
  limit: number,
  cursorOf: (last: Row) => string,
): { readonly rows: readonly Row[]; readonly nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}

/** A page's size as asked, refused unless a whole number from 1 to `max`. */
export const checkPageLimit = (limit: number, max: number): DomainError | undefined =>
  Number.isInteger(limit) && limit >= 1 && limit <= max
    ? undefined
    : invalidInput('limit', `limit must be a whole number from 1 to ${max}`);
