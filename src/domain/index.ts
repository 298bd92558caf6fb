/**
 * The package's `utility-api/domain` entry: what a transport of one's own needs to call the use
 * cases `buildUseCases` returns and read their answers. Every use case answers an fp-ts Either,
 * `{ _tag: 'Right', right }` or `{ _tag: 'Left', left: DomainError }`. The ports are here as types,
 * to read what the use cases rest on; the composition picks their adapters.
 */

// Who acts, and what they may do.
export { OPERATOR, type Actor } from './auth/actor.js';
export type { Principal } from './auth/principal.js';
export { knownPermissions, Permission } from './permissions.js';

// The error catalogue, and how a transport tells its errors apart: input is refused by its fields
// (InputError), which a transport places (HTTP: PlacedInputError, the codes 6 to 11).
export {
  catalogueEntryOf,
  detailsOf,
  errorCatalogue,
  type CatalogueEntry,
  type CatalogueError,
  type DomainError,
  type DomainErrorTag,
  type InputError,
  type PlacedInputError,
} from './errors.js';

// The use cases and what they take and give, family by family.
export type { EncryptText, DecryptText } from './crypto/crypt-text.js';
export type { Authenticate } from './auth/authenticate.js';
export type { LogInWithPassword, PasswordLogin } from './auth/log-in-with-password.js';
export type { CreateUser, CreateUserInput } from './users/create-user.js';
export type { DeleteUser, GetUser, ListUsers, UpdateUser, UserUpdate } from './users/manage-users.js';
export type { UserRef } from './users/target-user.js';
export type { User } from './users/user.js';
export { viewOfUser, type UserView } from './users/user-view.js';
export type { IssuedToken, IssueToken, IssueTokenInput } from './tokens/issue-token.js';
export type { RevokeToken, TokenReader, TokenView } from './tokens/manage-tokens.js';
export type { TokenRecord } from './tokens/token.js';
export type { RateLimit } from './tokens/rate-limit.js';
export type { Fetched } from './fetched.js';
export type { GetMaps, GetPlayerStats } from './game/game-queries.js';
export type { MapEntry, PlayerStats } from './game/game.js';
export type { GetPhoneDetails, PhoneDetails, PhoneDetailsQuery } from './phone/phone-details.js';
export type {
  DecodedPlusCode,
  EncodedPlusCode,
  FindNearbyPlaces,
  FindPlaces,
  LookUpPlusCode,
  NearbyPlaces,
  PlusCodeRequest,
} from './location/location-queries.js';
export type { NearbyPlace, Place } from './location/places.js';
export type {
  Antonyms,
  DefineWord,
  Definitions,
  FindAntonyms,
  FindSynonyms,
  Synonyms,
} from './dictionary/dictionary-queries.js';
export type { GenerateBarcode, GenerateBarcodeInput, ListSymbologies } from './barcode/generate-barcode.js';
export type { RenderedBarcode, Symbology } from './barcode/barcode.js';
export type {
  DnsAnswer,
  DomainQuery,
  FullAnswer,
  LookUpDns,
  LookUpDomain,
  LookUpRegistration,
  RegistrationAnswer,
  RegistrationQuery,
} from './whois/domain-lookups.js';
export type { DomainName } from './whois/domain-name.js';
export type { DnsRecords } from './whois/records.js';
export type { DomainStatus, Registrant, Registrar, Registration } from './whois/registration.js';
export type { ContentEntry, ContentInput, ContentKind } from './content/content.js';
export type { Feed, LiveContent, Provenance, RandomContent, Served } from './content/content-queries.js';
export type {
  ImportContent,
  ImportFile,
  ImportFormat,
  ImportRecord,
  ImportReport,
  LineOutcome,
} from './content/import-content.js';
export type { ManageContent } from './content/manage-content.js';
export type {
  ForecastRequest,
  GetCurrentWeather,
  GetForecast,
  PlaceAsked,
  WeatherRequest,
} from './weather/weather-queries.js';
export type {
  Conditions,
  ConditionUnits,
  CurrentWeather,
  DayForecast,
  DayUnits,
  DescribedDay,
  Forecast,
  ForecastQuery,
  ObservedConditions,
  ObservedForecast,
  Point,
  Units,
  WeatherLocation,
  WeatherQuery,
} from './weather/weather.js';
export type { Accepted, SendMail, SendMailInput } from './mail/send-mail.js';
export type { MessageReader, MessageStatusView, RetryMessage } from './mail/manage-mail.js';
export type { CheckedMail, MailRequest, MessageStatus } from './mail/message.js';
export type { VariableValue, Variables } from './mail/variables.js';
export type { CallContext } from './call-context.js';

// The ports.
export type { Clock, Randomness } from './ports.js';
export type { Cipher, CipherError } from './crypto/ports.js';
export type { Passwords, UserStore } from './users/ports.js';
export type { TokenStore, TokenUsage } from './tokens/ports.js';
export type { LoginThrottle } from './auth/ports.js';
export type { GameData } from './game/ports.js';
export type { PhoneNumbering } from './phone/ports.js';
export type { Gazetteer, PlusCodes } from './location/ports.js';
export type { Lexicon } from './dictionary/ports.js';
export type { BarcodeRenderer } from './barcode/ports.js';
export type {
  CategoryCount,
  ContentFilter,
  ContentSource,
  ContentStore,
  ImportFileReader,
  SourceResult,
} from './content/ports.js';
export type { MailOutboxDepth, Metrics, RateLimiter, RateLimitPolicy, RateLimitStanding } from './pipeline/ports.js';
export type { DependencyCheck } from './health/ports.js';
export type { DnsLookup, PublicSuffixes, RegistrationSource } from './whois/ports.js';
export type { WeatherResult, WeatherSource } from './weather/ports.js';
export type {
  DeliveryOutcome,
  Mailer,
  MarkdownRenderer,
  NewMessage,
  Outbox,
  OutboxMessage,
  RenderedMessage,
  Settlement,
} from './mail/ports.js';
