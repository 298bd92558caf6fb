const UNIT_MS = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
  // A year of 365 days: a lifetime, not a calendar date, so leap days do not move it.
  y: 31_536_000_000,
} as const;
/** Ten years: far enough for any real use, near enough to stay a safe integer date. */
export const MAX_LIFETIME_MS = 10 * UNIT_MS.y;

/** A number and a unit, as in `30d`. */
export const DURATION_PATTERN = /^(\d{1,6})([smhdwy])$/;

/** Parses `90s`, `15m`, `12h`, `30d`, `2w`, `1y`; undefined for anything else or out of range. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION_PATTERN.exec(text);
  if (!match) return undefined;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms > 0 && ms <= MAX_LIFETIME_MS ? ms : undefined;
}
