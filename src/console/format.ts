/** A moment as the reader's browser writes dates, or a word for none. */
export const when = (iso: string | null, none = 'never'): string =>
  iso === null ? none : new Date(iso).toLocaleString();

/** An ISO instant `days` before now, to the hour: where "the last N days" of usage start. */
export const daysAgo = (days: number): string => {
  const start = new Date(Date.now() - days * 86_400_000);
  start.setUTCMinutes(0, 0, 0);
  return start.toISOString();
};
