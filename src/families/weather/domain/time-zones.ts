/**
 * IANA time zone names as they are written (`Europe/Paris`, `America/Argentina/Buenos_Aires`,
 * `Etc/GMT+5`, `UTC`): each part starts with a capital. The JavaScript engine's own zone data says
 * which exist; it would also take `europe/paris`, which is refused here rather than corrected.
 */
const IANA_NAME_SHAPE = /^(?=.{1,64}$)[A-Z][A-Za-z0-9_+-]*(?:\/[A-Z][A-Za-z0-9_+-]*)*$/;

/** Names already found to exist: building a formatter to ask costs tens of microseconds. Bounded, as names come from clients. */
const known = new Set<string>();
const MAX_KNOWN = 1_000;

export function isTimeZoneName(name: string): boolean {
  if (known.has(name)) return true;
  if (!IANA_NAME_SHAPE.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
  } catch {
    return false;
  }
  if (known.size < MAX_KNOWN) known.add(name);
  return true;
}
