/** What other families and library users may use of domain lookups: its use cases, what they take and answer, its ports and its permissions. */
export type {
  DnsAnswer,
  DnsQuery,
  DomainQuery,
  FullAnswer,
  LookUpDns,
  LookUpDomain,
  LookUpRegistration,
  RegistrationAnswer,
  RegistrationQuery,
} from './domain-lookups.js';
export type { DomainName } from './domain-name.js';
export type { IpAddress } from './ip-address.js';
export type {
  AutonomousSystemAnswer,
  AutonomousSystemQuery,
  LookUpAutonomousSystem,
  LookUpIpNetwork,
  NetworkAnswer,
  NetworkQuery,
} from './number-lookups.js';
export type {
  AbuseContact,
  AutonomousSystemRegistration,
  NetworkRegistration,
  NumberHolder,
} from './number-registration.js';
export type { DnsRecords } from './records.js';
export type { DomainStatus, Registrant, Registrar, Registration } from './registration.js';
export type {
  DnsLookup,
  NumberRegistrationResult,
  NumberRegistrationSource,
  PublicSuffixes,
  RegistrationSource,
} from './ports.js';
export { WhoisPermission } from './permissions.js';
