import type { ContainerModule } from 'inversify';
import { defaultRateLimitOf, type AppConfig } from '../config/config.js';
import { barcodeModule, BarcodeUseCases } from '../families/barcode/barcode-module.js';
import { contentModule, ContentUseCases } from '../families/content/content-module.js';
import { cryptoModule, CryptoUseCases } from '../families/crypto/crypto-module.js';
import { dictionaryModule, DictionaryUseCases } from '../families/dictionary/dictionary-module.js';
import { gameModule, GameUseCases } from '../families/game/game-module.js';
import type { UseCasesIdentifier } from './identifiers.js';
import { locationModule, LocationUseCases } from '../families/location/location-module.js';
import { mailModule, MailUseCases } from '../families/mail/mail-module.js';
import { phoneModule, PhoneUseCases } from '../families/phone/phone-module.js';
import { usersAndTokensModule, UsersAndTokensUseCases } from '../families/users-and-tokens/users-and-tokens-module.js';
import { weatherModule, WeatherUseCases } from '../families/weather/weather-module.js';
import { whoisModule, WhoisUseCases } from '../families/whois/whois-module.js';

/** A family: its bindings and routes, given its own settings; its use cases as one binding, what a library user receives under its name. */
interface Family<UseCases> {
  readonly module: (config: AppConfig) => ContainerModule;
  readonly useCases: UseCasesIdentifier<UseCases>;
}
const family = <UseCases>(
  module: Family<UseCases>['module'],
  useCases: UseCasesIdentifier<UseCases>,
): Family<UseCases> => ({ module, useCases });

/**
 * Every family, by the name a library user chooses it by. A new family is its module plus one
 * line here; this order is that of the route table and of the start of background work (stopped
 * in reverse), whatever order a library user names them in.
 */
export const FAMILIES = {
  crypto: family((config) => cryptoModule({ ...config.encryption, dataDir: config.dataDir }), CryptoUseCases),
  usersAndTokens: family(
    (config) => usersAndTokensModule({ ...config.auth, defaultRateLimit: defaultRateLimitOf(config) }),
    UsersAndTokensUseCases,
  ),
  game: family((config) => gameModule(config.hive), GameUseCases),
  phone: family(() => phoneModule(), PhoneUseCases),
  location: family(() => locationModule(), LocationUseCases),
  weather: family((config) => weatherModule(config.weather), WeatherUseCases),
  dictionary: family(() => dictionaryModule(), DictionaryUseCases),
  barcode: family((config) => barcodeModule(config.barcode), BarcodeUseCases),
  whois: family((config) => whoisModule(config.whois), WhoisUseCases),
  content: family((config) => contentModule(config.content), ContentUseCases),
  mail: family(
    (config) =>
      mailModule({ ...config.mail, dataDir: config.dataDir, drainDeadlineMs: config.shutdown.drainDeadlineMs }),
    MailUseCases,
  ),
};

export type FamilyName = keyof typeof FAMILIES;
export const FAMILY_NAMES = Object.keys(FAMILIES) as readonly FamilyName[];

/** The use cases of the chosen families, each under its family's name. */
export type UseCasesOf<Chosen extends FamilyName> = {
  readonly [Name in Chosen]: (typeof FAMILIES)[Name] extends Family<infer UseCases> ? UseCases : never;
};

/** The families named (all of them when none are), each once, in the order of FAMILIES whatever order they were named in. */
export const chosenFamilies = <Chosen extends FamilyName>(named?: readonly Chosen[]): Chosen[] =>
  (FAMILY_NAMES as readonly Chosen[]).filter((name) => named === undefined || named.includes(name));

export const familyModules = (config: AppConfig, families: readonly FamilyName[]): ContainerModule[] =>
  families.map((name) => FAMILIES[name].module(config));
