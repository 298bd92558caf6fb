/** What other families and library users may use of domain lookups: its use cases, what they take and answer, its ports and its permissions. */
export type {
  DnsAnswer,
  DomainQuery,
  FullAnswer,
  LookUpDns,
  LookUpDomain,
  LookUpRegistration,
  RegistrationAnswer,
  RegistrationQuery,
} from './domain-lookups.js';
export type { DomainName } from './domain-name.js';
export type { DnsRecords } from './records.js';
export type { DomainStatus, Registrant, Registrar, Registration } from './registration.js';
export type { DnsLookup, PublicSuffixes, RegistrationSource } from './ports.js';
export { WhoisPermission } from './permissions.js';
