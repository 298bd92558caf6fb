import type { IncomingMessage, ServerResponse } from 'node:http';
import * as E from 'fp-ts/lib/Either.js';
import type { AppConfig } from './config/config.js';
import { loadConfig } from './config/load-config.js';
import { buildApplication } from './container.js';
import { FAMILIES, FAMILY_NAMES, type FamilyName, type UseCasesOf } from './composition/families.js';
import type { AnyFamily } from './wiring/family.js';
import type { Closed } from './platform/lifecycle.js';

export type { BarcodeUseCases } from './families/barcode/barcode-module.js';
export type { ContentUseCases } from './families/content/content-module.js';
export type { CryptoUseCases } from './families/crypto/crypto-module.js';
export type { DictionaryUseCases } from './families/dictionary/dictionary-module.js';
export type { GameUseCases } from './families/game/game-module.js';
export type { LocationUseCases } from './families/location/location-module.js';
export type { MailUseCases } from './families/mail/mail-module.js';
export type { PhoneUseCases } from './families/phone/phone-module.js';
export type { UsersAndTokensUseCases } from './families/users-and-tokens/users-and-tokens-module.js';
export type { WeatherUseCases } from './families/weather/weather-module.js';
export type { WhoisUseCases } from './families/whois/whois-module.js';
export { FAMILY_NAMES, type Closed, type FamilyName, type UseCasesOf };

type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K];
};

/**
 * What a library user builds from: the families wanted, and any settings of config/default.json
 * to change (the same names and rules as the server's config files). No environment variable and
 * no other config file is read: what is passed is what is used.
 */
export type LibrarySettings<Chosen extends FamilyName> = DeepPartial<AppConfig> & {
  readonly families: readonly Chosen[];
};

/** Settings that cannot be built from, each problem one line naming the setting (never a secret value). */
export class InvalidSettings extends Error {
  override readonly name = 'InvalidSettings';

  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

/** The chosen families, built: their use cases, and `close()` once done with them. */
export interface UtilityApi<Chosen extends FamilyName> {
  /** Each chosen family's use cases under its name: `useCases.crypto.encryptText.execute('hi')`. */
  readonly useCases: UseCasesOf<Chosen>;
  /** Stops background work (writing token use counts), closes the database and writes out buffered logs. */
  close(): Promise<Closed>;
}

/** A Koa application serving the API; `callback()` is a request listener for node:http's `createServer`. */
export interface HttpApp {
  callback(): (request: IncomingMessage, response: ServerResponse) => unknown;
}

/** The HTTP app of each UtilityApi handed out, built at the first createHttpApp; a user never sees the container. */
const httpAppsOf = new WeakMap<object, { readonly families: readonly FamilyName[]; readonly httpApp: () => HttpApp }>();

/**
 * Builds the chosen families' use cases on the storage the settings name (`memory`, `sqlite` or
 * `postgres`, migrated first). Rejects with InvalidSettings when the settings are wrong, or with
 * the failure when a database cannot be opened.
 */
export function buildUseCases<Chosen extends FamilyName>(
  settings: LibrarySettings<Chosen>,
): Promise<UtilityApi<Chosen>> {
  return buildUseCasesFrom(FAMILIES, settings);
}

/**
 * buildUseCases over a list of families other than the service's own (a test's family beside
 * them): the same checks, settings and build. Not part of the package's entries.
 */
export async function buildUseCasesFrom<Chosen extends string>(
  familyList: readonly AnyFamily[],
  settings: DeepPartial<AppConfig> & { readonly families: readonly Chosen[] } & Record<string, unknown>,
): Promise<UtilityApi<Chosen & FamilyName>> {
  const { families, ...overrides } = settings;
  const names = familyList.map((family) => family.name);
  // Plain JavaScript callers get no type check: a misspelt family is refused, not skipped.
  if (!Array.isArray(families) || !families.every((name: unknown) => (names as readonly unknown[]).includes(name))) {
    throw new InvalidSettings([
      `Invalid setting families: expected a list of ${names.join(', ')}, got ${JSON.stringify(families)}`,
    ]);
  }
  const config = loadConfig({ env: {}, overrides, families: familyList });
  if (E.isLeft(config)) throw new InvalidSettings(config.left);
  // The server may generate a key into its data folder; a library has no folder of its own to
  // keep one in, and a key lost with a container's disk would make every ciphertext unreadable.
  if (families.includes('crypto' as Chosen) && config.right.encryption.key === null) {
    throw new InvalidSettings(['Missing setting encryption.key: the crypto family needs base64 of 32 random bytes']);
  }

  const application = await buildApplication(config.right, {
    families: families as Chosen[] & FamilyName[],
    familyList,
  });
  const api: UtilityApi<Chosen & FamilyName> = { useCases: application.useCases, close: () => application.close() };
  httpAppsOf.set(api, { families, httpApp: application.httpApp });
  return api;
}

/**
 * The HTTP transport over what buildUseCases built: the same routes, errors and OpenAPI document
 * as the server, for the families built. It needs usersAndTokens, which checks every request's token.
 */
export function createHttpApp(api: UtilityApi<'usersAndTokens'>): HttpApp {
  const built = httpAppsOf.get(api);
  if (built === undefined) throw new TypeError('createHttpApp takes what buildUseCases returned');
  if (!built.families.includes('usersAndTokens')) {
    throw new InvalidSettings([
      'Invalid setting families: the HTTP app needs usersAndTokens, which checks every request’s token',
    ]);
  }
  return built.httpApp();
}
