/**
 * Permission names and how they match. A permission is `Family::Name`; a holder may also have
 * the wildcards `Family::*` (every permission of the family) and `*` (everything). Each family
 * names its own permissions (its `domain/permissions.ts`, listed by its descriptor); which ones
 * an installation knows is the catalogue the composition makes of them all.
 */

/** A permission's name: `Family::Name`. */
export type Permission = `${string}::${string}`;

/** The platform's own: reading the metrics. */
export const SystemPermission = {
  SystemMetrics: 'System::Metrics',
} as const;

export const ALL = '*';

const familyOf = (name: string): string | undefined => {
  const separator = name.indexOf('::');
  return separator > 0 ? name.slice(0, separator) : undefined;
};

/** The family of a permission: `Weather` for `Weather::Current`. */
export const permissionFamilyOf = (permission: Permission): string => familyOf(permission)!;

/**
 * True when `pattern` (held) covers `requested`, which may itself be a wildcard:
 * `Cryptography::*` covers `Cryptography::Encrypt` and `Cryptography::*`, never `*`.
 */
export function covers(pattern: string, requested: string): boolean {
  if (pattern === ALL || pattern === requested) return true;
  if (!pattern.endsWith('::*')) return false;
  const family = pattern.slice(0, -'::*'.length);
  return familyOf(requested) === family;
}

export function grantedBy(held: readonly string[], requested: string): boolean {
  return held.some((pattern) => covers(pattern, requested));
}

/** Every permission an installation knows, in a stable order, and what may be granted of them. */
export class PermissionCatalogue {
  /** Every family of permissions (`Cryptography`, `Users`, … `System`), in the order of `known`. */
  readonly families: readonly string[];
  private readonly knownFamilies: ReadonlySet<string | undefined>;
  private readonly knownNames: ReadonlySet<string>;

  constructor(readonly known: readonly Permission[]) {
    this.families = [...new Set(known.map(permissionFamilyOf))];
    this.knownFamilies = new Set(this.families);
    this.knownNames = new Set(known);
  }

  /** A name a user or token may hold: a known permission, a known family's wildcard, or `*`. */
  isGrantable(name: string): boolean {
    if (name === ALL) return true;
    if (name.endsWith('::*')) return this.knownFamilies.has(familyOf(name));
    return this.knownNames.has(name);
  }
}
