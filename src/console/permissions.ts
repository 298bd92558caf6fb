/**
 * Whether held permissions cover a requested one, as the server matches them (docs/permissions.md):
 * `Family::*` covers every permission of its family and `*` everything. The console imports
 * nothing of the server, so the rule is written here in its few lines; the server still decides.
 */
export const ALL = '*';

const familyOf = (permission: string): string => permission.split('::')[0] ?? permission;

/** True when `held` covers `requested`, which may itself be a family's wildcard (never `*` unless held). */
export function covers(held: string, requested: string): boolean {
  if (held === ALL || held === requested) return true;
  return held.endsWith('::*') && requested !== ALL && familyOf(held) === familyOf(requested);
}

/**
 * True when any of `held` covers `requested`, or one of them when it is a list (a page some of
 * whose permissions each show it); a null requirement is met by anyone signed in.
 */
export const holds = (held: readonly string[], requested: string | readonly string[] | null): boolean =>
  requested === null ||
  (typeof requested === 'string' ? [requested] : requested).some((one) =>
    held.some((permission) => covers(permission, one)),
  );
