import type { ContainerModule } from 'inversify';
import type { AppConfig } from '../config/config.js';
import { FAMILIES } from '../families/index.js';
import { PLATFORM_MIGRATIONS, type Migration } from '../platform/persistence/migrations.js';
import type { AnyFamily, UseCasesOfFamily } from '../wiring/family.js';
import { PermissionCatalogue, SystemPermission } from '../domain/permissions.js';

export { FAMILIES };
type Families = (typeof FAMILIES)[number];
export type FamilyName = Families['name'];
export const FAMILY_NAMES = FAMILIES.map((family) => family.name) as readonly FamilyName[];

/** The use cases of the chosen families, each under its family's name. */
export type UseCasesOf<Chosen extends FamilyName> = {
  readonly [Name in Chosen]: UseCasesOfFamily<Extract<Families, { readonly name: Name }>>;
};

/** The families named (all of them when none are), each once, in the order of the list whatever order they were named in. */
export const chosenFamilies = (
  named: readonly string[] | undefined,
  families: readonly AnyFamily[] = FAMILIES,
): AnyFamily[] => families.filter((family) => named === undefined || named.includes(family.name));

/** Each family's module, given its own section of the settings and the platform's. */
export const familyModules = (config: AppConfig, families: readonly AnyFamily[]): ContainerModule[] =>
  families.map((family) =>
    family.module(
      family.settings ? (config as unknown as Record<string, unknown>)[family.settings.key] : undefined,
      config,
    ),
  );

/**
 * Every permission the families in the list name, and the platform's own, in the list's order:
 * what users and tokens may be granted, and what a wildcard expands to.
 */
export const permissionCatalogueOf = (families: readonly AnyFamily[] = FAMILIES): PermissionCatalogue =>
  new PermissionCatalogue([
    ...families.flatMap((family) => Object.values(family.permissions)),
    ...Object.values(SystemPermission),
  ]);

/** Every schema change of the platform and of every family in the list, whichever of them a process builds. */
export const migrationsOf = (families: readonly AnyFamily[] = FAMILIES): Migration[] => [
  ...PLATFORM_MIGRATIONS,
  ...families.flatMap((family) => family.migrations ?? []),
];
