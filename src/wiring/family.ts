import type { ContainerModule } from 'inversify';
import type { Permission } from '../domain/permissions.js';
import type { FamilyCommands } from '../platform/cli/commands.js';
import type { SettingsSection } from '../platform/config/codecs.js';
import type { RouteSampleTable } from '../platform/http/route-samples.js';
import type { PlatformSettings } from '../platform/config/platform-settings.js';
import type { Migration } from '../platform/persistence/migrations.js';
import type { UseCasesIdentifier } from './identifiers.js';

/**
 * One family, whole: what the server, the CLI, the library entry, the settings loader and the
 * migrations read of it. A new family is its folder, with one of these in its `family.ts`, and
 * one line in src/families/index.ts.
 */
export interface Family<
  Name extends string = string,
  Key extends string = string,
  Settings = unknown,
  UseCases = unknown,
> {
  /** The name a library user chooses it by, and the key of its use cases in what `buildUseCases` answers. */
  readonly name: Name;
  /** Its section of the settings files, if it has settings. */
  readonly settings?: SettingsSection<Key, Settings>;
  /** Its permissions, by the names its code uses (`{ WeatherCurrent: 'Weather::Current' }`). */
  readonly permissions: Readonly<Record<string, Permission>>;
  /** Its bindings and routes, given its own settings and the platform's. */
  readonly module: (settings: Settings, platform: PlatformSettings) => ContainerModule;
  /** Its use cases bound as one typed bundle. */
  readonly useCases: UseCasesIdentifier<UseCases>;
  /** Its schema changes (see Migration for how names order them across families). */
  readonly migrations?: readonly Migration[];
  /**
   * Values for the fields of its routes, for the fuzz suite (tests/fuzz): every field a route
   * declares needs some, or the suite stops and names it.
   */
  readonly samples: RouteSampleTable;
  /** Its commands of the CLI, if any, given its use cases. */
  readonly commands?: FamilyCommands<UseCases>;
}

/** A family of any name, settings and use cases, as the lists that hold several read it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFamily = Family<string, string, any, any>;

export const defineFamily = <
  const Name extends string,
  const Key extends string = never,
  Settings = undefined,
  UseCases = unknown,
>(
  family: Family<Name, Key, Settings, UseCases>,
): Family<Name, Key, Settings, UseCases> => family;

/** The use cases of a family. */
export type UseCasesOfFamily<F> = F extends { readonly useCases: UseCasesIdentifier<infer UseCases> }
  ? UseCases
  : never;
