/**
 * The package's `utility-api/domain` entry: what a transport of one's own needs to call the use
 * cases `buildUseCases` returns and read their answers. Every use case answers an fp-ts Either,
 * `{ _tag: 'Right', right }` or `{ _tag: 'Left', left: DomainError }`. The ports are here as types,
 * to read what the use cases rest on; the composition picks their adapters. Here are the shared
 * words; each family's come from its public domain entry, gathered in family-entries.ts.
 */

// Who acts, and what they may do.
export { OPERATOR, type Actor } from './identity/actor.js';
export type { Principal } from './identity/principal.js';
export { ALL, covers, grantedBy, PermissionCatalogue, SystemPermission } from './permissions.js';
import { SystemPermission, type Permission as PermissionName } from './permissions.js';
import * as familyEntries from './family-entries.js';

/** A family's permissions, by the names its code uses: any export of its entry whose values are all permission names. */
type PermissionObject = Readonly<Record<string, PermissionName>>;
type FamilyEntries = typeof familyEntries;
type PermissionObjectsOfFamilies = {
  [Name in keyof FamilyEntries]: FamilyEntries[Name] extends PermissionObject ? FamilyEntries[Name] : never;
}[keyof FamilyEntries];
/** One object with the names of every object in a union: `{ a: 1 } | { b: 2 }` gives `{ a: 1 } & { b: 2 }`. */
type AllOf<Union> = (Union extends unknown ? (part: Union) => void : never) extends (all: infer All) => void
  ? All
  : never;

const isPermissionObject = (value: unknown): value is PermissionObject =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((name) => typeof name === 'string' && name.includes('::'));

/**
 * Every permission of the service's families and the platform, by the names code uses
 * (`Permission.WeatherCurrent`): every permission object of the families' entries, found by what
 * it holds rather than named here, so that a family's line in family-entries.ts is all it takes.
 */
export const Permission = Object.assign(
  {},
  ...Object.values(familyEntries).filter(isPermissionObject),
  SystemPermission,
) as AllOf<PermissionObjectsOfFamilies> & typeof SystemPermission;
export type Permission = (typeof Permission)[keyof typeof Permission];
/** Every permission of the service, in a stable order: each family's in turn, then the platform's. */
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

// The families' words (their use cases, what those take and answer, their ports and their
// permissions), each family's from its public domain entry.
export * from './family-entries.js';

// The shared words the use cases take and answer.
export type { User } from './identity/user.js';
export type { TokenOrigin, TokenRecord } from './identity/token.js';
export type { RateLimit } from './identity/rate-limit.js';
export type { Quota, QuotaPeriod } from './identity/quota.js';
export type { Fetched } from './fetched.js';
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

// The ports every family uses.
export type { Clock, Randomness } from './ports.js';
export type { AuditQuery, AuditTrail } from './audit.js';
export type { EventLog } from './events.js';
