/**
 * Permission names and how they match. A permission is `Family::Name`; a holder may also have
 * the wildcards `Family::*` (every permission of the family) and `*` (everything).
 */

export const Permission = {
  CryptographyEncrypt: 'Cryptography::Encrypt',
  CryptographyDecrypt: 'Cryptography::Decrypt',
  UsersCreate: 'Users::Create',
  UsersRead: 'Users::Read',
  UsersUpdate: 'Users::Update',
  UsersDelete: 'Users::Delete',
  /** Changing anyone's permissions, your own included. */
  UsersPermissions: 'Users::Permissions',
  TokensCreate: 'Tokens::Create',
  TokensRead: 'Tokens::Read',
  TokensDelete: 'Tokens::Delete',
  /** Disabling, enabling or renaming somebody else's token (your own need nothing). */
  TokensUpdate: 'Tokens::Update',
  GameNetworkMap: 'Game::Network.Map',
  GameNetworkPlayer: 'Game::Network.Player',
  BarcodeGenerate: 'Barcode::Generate',
  PhoneDetails: 'Phone::Details',
  LocationCoords: 'Location::Coords',
  LocationAddress: 'Location::Address',
  LocationPlusCode: 'Location::PlusCode',
  WeatherCurrent: 'Weather::Current',
  WeatherForecast: 'Weather::Forecast',
  DictionaryDefinitions: 'Dictionary::Definitions',
  DictionarySynonyms: 'Dictionary::Synonyms',
  DictionaryAntonyms: 'Dictionary::Antonyms',
  WhoisDns: 'Whois::DNS',
  WhoisWhois: 'Whois::Whois',
  WhoisFull: 'Whois::Full',
  FactsCat: 'Facts::Cat',
  FactsDog: 'Facts::Dog',
  FactsChuckNorris: 'Facts::ChuckNorris',
  FactsRandom: 'Facts::Random',
  QuotesRandom: 'Quotes::Random',
  QuotesKanye: 'Quotes::Kanye',
  QuotesRonSwanson: 'Quotes::RonSwanson',
  MailSend: 'Mail::Send',
  /** Reading messages others sent. */
  MailRead: 'Mail::Read',
  /** Reading the Prometheus metrics of the instance. */
  SystemMetrics: 'System::Metrics',
} as const;

export type Permission = (typeof Permission)[keyof typeof Permission];

export const ALL = '*';

/** Every concrete permission the service knows, in a stable order. */
export const knownPermissions: readonly Permission[] = Object.values(Permission);

const familyOf = (name: string): string | undefined => {
  const separator = name.indexOf('::');
  return separator > 0 ? name.slice(0, separator) : undefined;
};

/** The family of a permission: `Weather` for `Weather::Current`. */
export const permissionFamilyOf = (permission: Permission): string => familyOf(permission)!;

/** Every family of permissions (`Cryptography`, `Users`, … `System`), in the order of the list above. */
export const PERMISSION_FAMILIES: readonly string[] = [...new Set(knownPermissions.map(permissionFamilyOf))];

const knownFamilies = new Set<string | undefined>(PERMISSION_FAMILIES);

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

/** A name a user or token may hold: a known permission, a known family's wildcard, or `*`. */
export function isGrantablePermission(name: string): boolean {
  if (name === ALL) return true;
  if (name.endsWith('::*')) return knownFamilies.has(familyOf(name));
  return (knownPermissions as readonly string[]).includes(name);
}
