/**
 * The package's main entry, `utility-api`: the use cases of chosen families, built from a settings
 * object on memory, SQLite or PostgreSQL storage, for a transport of one's own (a queue consumer,
 * a WebSocket server, a serverless function). `utility-api/domain` has the types they take and
 * answer; `utility-api/http` serves them over HTTP as the server does. See docs/library.md.
 */
export {
  buildUseCases,
  FAMILY_NAMES,
  InvalidSettings,
  type BarcodeUseCases,
  type Closed,
  type ContentUseCases,
  type CryptoUseCases,
  type DictionaryUseCases,
  type FamilyName,
  type GameUseCases,
  type LibrarySettings,
  type LocationUseCases,
  type MailUseCases,
  type PhoneUseCases,
  type UseCasesOf,
  type UsersAndTokensUseCases,
  type UtilityApi,
  type WeatherUseCases,
  type WhoisUseCases,
} from './library.js';
