import { getTimezone } from 'countries-and-timezones';

/**
 * A zone's current IANA name: ICU and libphonenumber's data still write names IANA has since
 * replaced (Asia/Calcutta, Europe/Kiev, Asia/Saigon, America/Godthab). A name IANA keeps only as
 * a link to a zone of another country (Europe/Amsterdam to Europe/Brussels, since their clocks
 * have agreed since 1970) stays as it is: the number is in the Netherlands, not Belgium.
 */
export function currentZoneName(zone: string): string {
  let name = renamed.get(zone);
  if (name === undefined) {
    name = zone;
    const entry = getTimezone(zone);
    const target = entry?.aliasOf ? getTimezone(entry.aliasOf) : null;
    if (entry && target) {
      const principal = target.countries[0];
      if (entry.countries.length === 0 || (principal !== undefined && entry.countries.includes(principal)))
        name = target.name;
    }
    renamed.set(zone, name);
  }
  return name;
}

/** At most one entry a name the data and ICU use, about 600. */
const renamed = new Map<string, string>();

/** The zones once each, by their current names, in their first order. */
export const currentZoneNames = (zones: readonly string[]): readonly string[] =>
  Object.freeze([...new Set(zones.map(currentZoneName))]);
