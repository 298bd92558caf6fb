/**
 * The package's `utility-api/domain` entry: what a transport of one's own needs to call the use
 * cases `buildUseCases` returns and read their answers. Every use case answers an fp-ts Either,
 * `{ _tag: 'Right', right }` or `{ _tag: 'Left', left: DomainError }`. The ports are here as types,
 * to read what the use cases rest on; the composition picks their adapters.
 */

// Who acts, and what they may do.
export { OPERATOR, type Actor } from './identity/actor.js';
export type { Principal } from './identity/principal.js';
export { ALL, covers, grantedBy, PermissionCatalogue, SystemPermission } from './permissions.js';
import { SystemPermission } from './permissions.js';
import { BarcodePermission } from '../families/barcode/domain/permissions.js';
import { ContentPermission } from '../families/content/domain/permissions.js';
import { CryptoPermission } from '../families/crypto/domain/permissions.js';
import { DictionaryPermission } from '../families/dictionary/domain/permissions.js';
import { GamePermission } from '../families/game/domain/permissions.js';
import { LocationPermission } from '../families/location/domain/permissions.js';
import { MailPermission } from '../families/mail/domain/permissions.js';
import { PhonePermission } from '../families/phone/domain/permissions.js';
import { UsersAndTokensPermission } from '../families/users-and-tokens/domain/permissions.js';
import { WeatherPermission } from '../families/weather/domain/permissions.js';
import { WhoisPermission } from '../families/whois/domain/permissions.js';
import { AuditPermission } from '../families/audit/domain/permissions.js';
import { WebhooksPermission } from '../families/webhooks/domain/permissions.js';

/** Every permission of the service's families and the platform, by the names code uses (`Permission.WeatherCurrent`). */
export const Permission = {
  ...CryptoPermission,
  ...UsersAndTokensPermission,
  ...GamePermission,
  ...BarcodePermission,
  ...PhonePermission,
  ...LocationPermission,
  ...WeatherPermission,
  ...DictionaryPermission,
  ...WhoisPermission,
  ...ContentPermission,
  ...MailPermission,
  ...AuditPermission,
  ...WebhooksPermission,
  ...SystemPermission,
} as const;
export type Permission = (typeof Permission)[keyof typeof Permission];
/** Every permission of the service, in a stable order. */
export const knownPermissions: readonly Permission[] = Object.values(Permission);

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
export type { EncryptText, DecryptText } from '../families/crypto/domain/crypt-text.js';
export type { Authenticate } from '../families/users-and-tokens/domain/auth/authenticate.js';
export type {
  LogInWithPassword,
  PasswordLogin,
} from '../families/users-and-tokens/domain/auth/log-in-with-password.js';
export type { CreateUser, CreateUserInput } from '../families/users-and-tokens/domain/users/create-user.js';
export type {
  DeleteUser,
  GetUser,
  UpdateUser,
  UserUpdate,
} from '../families/users-and-tokens/domain/users/manage-users.js';
export type { ListUsers, UserListing, UserPage } from '../families/users-and-tokens/domain/users/list-users.js';
export type { UserRef } from '../families/users-and-tokens/domain/users/target-user.js';
export type { User } from './identity/user.js';
export { viewOfUser, type UserView } from '../families/users-and-tokens/domain/users/user-view.js';
export type {
  IssuedToken,
  IssueToken,
  IssueTokenInput,
} from '../families/users-and-tokens/domain/tokens/issue-token.js';
export type { RevokeToken, TokenReader, TokenView } from '../families/users-and-tokens/domain/tokens/manage-tokens.js';
export type { RotatedToken, RotateToken } from '../families/users-and-tokens/domain/tokens/rotate-token.js';
export type { TokenOrigin, TokenRecord } from './identity/token.js';
export type { RateLimit } from './identity/rate-limit.js';
export type { Quota, QuotaPeriod } from './identity/quota.js';
export type { Fetched } from './fetched.js';
export type { GetMaps, GetPlayerStats } from '../families/game/domain/game-queries.js';
export type { MapEntry, PlayerStats } from '../families/game/domain/game.js';
export type { GetPhoneDetails, PhoneDetails, PhoneDetailsQuery } from '../families/phone/domain/phone-details.js';
export type {
  DecodedPlusCode,
  EncodedPlusCode,
  FindNearbyPlaces,
  FindPlaces,
  LookUpPlusCode,
  NearbyPlaces,
  PlusCodeRequest,
} from '../families/location/domain/location-queries.js';
export type { NearbyPlace, Place } from '../families/location/domain/places.js';
export type {
  Antonyms,
  DefineWord,
  Definitions,
  FindAntonyms,
  FindSynonyms,
  Synonyms,
} from '../families/dictionary/domain/dictionary-queries.js';
export type {
  GenerateBarcode,
  GenerateBarcodeInput,
  ListSymbologies,
} from '../families/barcode/domain/generate-barcode.js';
export type { RenderedBarcode, Symbology } from '../families/barcode/domain/barcode.js';
export type {
  DnsAnswer,
  DomainQuery,
  FullAnswer,
  LookUpDns,
  LookUpDomain,
  LookUpRegistration,
  RegistrationAnswer,
  RegistrationQuery,
} from '../families/whois/domain/domain-lookups.js';
export type { DomainName } from '../families/whois/domain/domain-name.js';
export type { DnsRecords } from '../families/whois/domain/records.js';
export type { DomainStatus, Registrant, Registrar, Registration } from '../families/whois/domain/registration.js';
export type { ContentEntry, ContentInput, ContentKind } from '../families/content/domain/content.js';
export type {
  Feed,
  LiveContent,
  Provenance,
  RandomContent,
  Served,
} from '../families/content/domain/content-queries.js';
export type { ImportContent, ImportReport, LineOutcome } from '../families/content/domain/import-content.js';
export type { ImportFile, ImportFormat, ImportRecord } from '../families/content/domain/import-file.js';
export type { ManageContent } from '../families/content/domain/manage-content.js';
export type {
  ForecastRequest,
  GetCurrentWeather,
  GetForecast,
  PlaceAsked,
  WeatherRequest,
} from '../families/weather/domain/weather-queries.js';
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
} from '../families/weather/domain/weather.js';
export type { Accepted, SendMail, SendMailInput } from '../families/mail/domain/send-mail.js';
export type { MessageReader, MessageStatusView, RetryMessage } from '../families/mail/domain/manage-mail.js';
export type { CheckedMail, MailRequest, MessageStatus } from '../families/mail/domain/message.js';
export type { VariableValue, Variables } from '../families/mail/domain/variables.js';
export type { AuditEntryView, AuditPage, AuditRequest, ReadAudit } from '../families/audit/domain/read-audit.js';
export type {
  CreatedEndpoint,
  EndpointUpdate,
  ManageWebhooks,
  NewEndpointInput,
  RotatedSecret,
  WebhookEndpointView,
} from '../families/webhooks/domain/manage-webhooks.js';
export type { TestOutcome, TestWebhook } from '../families/webhooks/domain/test-webhook.js';
export type {
  DeliveryPage,
  DeliveryRequest,
  DeliveryView,
  ReadDeliveries,
} from '../families/webhooks/domain/read-deliveries.js';
export type { DomainEvent, EventType, NewDomainEvent } from './events.js';
export type {
  AuditAction,
  AuditActor,
  AuditChange,
  AuditEntry,
  AuditOutcome,
  AuditTarget,
  AuditValue,
  AuditVia,
  RequestOrigin,
  StoredAuditEntry,
} from './audit.js';
export type { CallContext } from './call-context.js';

// The ports.
export type { Clock, Randomness } from './ports.js';
export type { AuditQuery, AuditTrail } from './audit.js';
export type { Cipher, CipherError } from '../families/crypto/domain/ports.js';
export type { Passwords, UserStore } from '../families/users-and-tokens/domain/users/ports.js';
export type { TokenStore, TokenUsage } from '../families/users-and-tokens/domain/tokens/ports.js';
export type { LoginThrottle } from '../families/users-and-tokens/domain/auth/ports.js';
export type { GameData } from '../families/game/domain/ports.js';
export type { PhoneNumbering } from '../families/phone/domain/ports.js';
export type { Gazetteer, PlusCodes } from '../families/location/domain/ports.js';
export type { Lexicon } from '../families/dictionary/domain/ports.js';
export type { BarcodeRenderer } from '../families/barcode/domain/ports.js';
export type {
  CategoryCount,
  ContentFilter,
  ContentSource,
  ContentStore,
  ImportFileReader,
  SourceResult,
} from '../families/content/domain/ports.js';
export type { DnsLookup, PublicSuffixes, RegistrationSource } from '../families/whois/domain/ports.js';
export type { WeatherResult, WeatherSource } from '../families/weather/domain/ports.js';
export type {
  DeliveryOutcome,
  Mailer,
  MarkdownRenderer,
  NewMessage,
  Outbox,
  OutboxMessage,
  RenderedMessage,
  Settlement,
} from '../families/mail/domain/ports.js';
export type { EventLog } from './events.js';
export type {
  AttemptOutcome,
  OwnerNotices,
  WebhookDeliveries,
  WebhookDestinations,
  WebhookEndpoints,
  WebhookRequest,
  WebhookSender,
} from '../families/webhooks/domain/ports.js';
