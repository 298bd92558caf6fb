/**
 * How many recipients one user's messages may have within a sliding window (an hour, a day):
 * counted from the outbox, so that every instance counts the same messages, and counted in
 * recipients (to, cc and bcc together), since that is what a mail server and its reputation see.
 */
export interface QuotaWindow {
  /** As the answer names it: "an hour", "a day". */
  readonly name: string;
  readonly lengthMs: number;
  readonly limit: number;
}

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

/** A message of the sender's accepted earlier: when, and with how many recipients. */
export interface EarlierMessage {
  readonly createdAt: number;
  readonly recipients: number;
}

/** A message refused by a window: which, and when enough of it will have passed. */
export interface QuotaRefusal {
  readonly window: QuotaWindow;
  readonly retryAt: number;
}

/** Where a window that ends at `now` begins: a message created after it is in the window. */
export const windowStart = (window: QuotaWindow, now: number): number => now - window.lengthMs;

/** Whether `asked` more recipients fit in the window beside the `used` ones of the sender's messages in it. */
export const fitsIn = (window: QuotaWindow, used: number, asked: number): boolean => used + asked <= window.limit;

/**
 * When `asked` more recipients fit in a window they do not fit in now: once its oldest messages
 * have left it, one after another, until enough room is free. `inWindow` are the sender's
 * messages in the window, oldest first. A window's limit is never below one message's largest
 * count of recipients, so an empty window always has room.
 */
export function roomAt(window: QuotaWindow, inWindow: readonly EarlierMessage[], asked: number): number {
  let used = inWindow.reduce((sum, message) => sum + message.recipients, 0);
  for (const message of inWindow) {
    used -= message.recipients;
    if (fitsIn(window, used, asked)) return message.createdAt + window.lengthMs;
  }
  return (inWindow.at(-1)?.createdAt ?? 0) + window.lengthMs;
}

/** The refusal that lasts longest among those of the windows (room is needed in every one), if any window refuses. */
export const longestOf = (refusals: readonly QuotaRefusal[]): QuotaRefusal | undefined =>
  refusals.reduce<QuotaRefusal | undefined>(
    (longest, refusal) => (longest === undefined || refusal.retryAt > longest.retryAt ? refusal : longest),
    undefined,
  );
