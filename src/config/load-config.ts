import { fileURLToPath } from 'node:url';
import type * as E from 'fp-ts/lib/Either.js';
import type { AnyFamily } from '../wiring/family.js';
import { permissionCatalogueOf } from '../composition/families.js';
import { FAMILIES } from '../families/index.js';
import { environmentOf, loadSettings, type LoadSettingsOptions } from '../platform/config/load-settings.js';
import type { SettingsSection } from '../platform/config/codecs.js';
import type { AppConfig } from './config.js';

/** `config/` at the project root, found from this file both in `src/` and in `dist/`. */
export const CONFIG_DIR = fileURLToPath(new URL('../../config/', import.meta.url));

const sectionsOf = (families: readonly AnyFamily[]): SettingsSection[] =>
  families.flatMap((family) => (family.settings ? [family.settings] : []));

/** Every environment variable the service reads, and the setting it overrides. */
export const ENVIRONMENT_VARIABLES = environmentOf(sectionsOf(FAMILIES));

export interface LoadConfigOptions extends Partial<Omit<LoadSettingsOptions, 'permissionFamilies'>> {
  /** The families whose settings are read besides the platform's (default: every family). */
  readonly families?: readonly AnyFamily[];
}

/**
 * The platform's and every family's settings: their defaults, default.json, then <NODE_ENV>.json,
 * then environment variables, decoded into AppConfig. On failure: one line per bad setting,
 * naming it and what is wrong (never a secret value).
 */
export function loadConfig(options: LoadConfigOptions = {}): E.Either<string[], AppConfig> {
  const { families = FAMILIES, configDir = CONFIG_DIR, ...rest } = options;
  return loadSettings<AppConfig>(sectionsOf(families), {
    ...rest,
    configDir,
    permissionFamilies: permissionCatalogueOf(families).families,
  });
}
