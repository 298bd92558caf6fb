import * as t from 'io-ts';
import {
  asList,
  asString,
  checked,
  DnsServer,
  httpUrl,
  intInRange,
  type SettingsSection,
} from '../../platform/config/codecs.js';

/** A port-43 server: a host name or IP address, optionally with a port. */
const WhoisServer = checked(
  'a host or host:port',
  (u): u is string => typeof u === 'string' && /^(?:\[[0-9a-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/i.test(u),
);

export const WhoisSettingsCodec = t.type({
  /** The resolvers asked for DNS records; none means the system's. */
  dnsServers: t.array(DnsServer),
  /** Deadline of one name's lookup, all record types together. */
  dnsTimeoutMs: intInRange(100, 60_000),
  /** IANA's RDAP bootstrap file for domains. */
  rdapBootstrapUrl: httpUrl,
  /** IANA's RDAP bootstrap files for IPv4 and IPv6 addresses and for AS numbers. */
  rdapIpv4BootstrapUrl: httpUrl,
  rdapIpv6BootstrapUrl: httpUrl,
  rdapAsnBootstrapUrl: httpUrl,
  /** Where port-43 WHOIS questions start; its referrals lead to each TLD's server. */
  whoisServer: WhoisServer,
  /** Deadline of each RDAP call and of each WHOIS server asked. */
  registrationTimeoutMs: intInRange(100, 60_000),
  /** How long a registration is kept. */
  registrationTtlMs: intInRange(0, 86_400_000),
  /** How many names' records, and how many registrations, are kept at most. */
  cacheEntries: intInRange(1, 1_000_000),
});
export type WhoisSettings = t.TypeOf<typeof WhoisSettingsCodec>;

/** The `whois` section of the settings files: its codec, its defaults and the environment variables that override it. */
export const whoisSettings: SettingsSection<'whois', WhoisSettings> = {
  key: 'whois',
  codec: WhoisSettingsCodec,
  defaults: {
    dnsServers: [],
    dnsTimeoutMs: 3000,
    rdapBootstrapUrl: 'https://data.iana.org/rdap/dns.json',
    rdapIpv4BootstrapUrl: 'https://data.iana.org/rdap/ipv4.json',
    rdapIpv6BootstrapUrl: 'https://data.iana.org/rdap/ipv6.json',
    rdapAsnBootstrapUrl: 'https://data.iana.org/rdap/asn.json',
    whoisServer: 'whois.iana.org:43',
    registrationTimeoutMs: 5000,
    registrationTtlMs: 3600000,
    cacheEntries: 1000,
  },
  environment: [
    { name: 'UTILITY_API_DNS_SERVERS', path: 'dnsServers', parse: asList },
    { name: 'UTILITY_API_RDAP_BOOTSTRAP_URL', path: 'rdapBootstrapUrl', parse: asString },
    { name: 'UTILITY_API_RDAP_IPV4_BOOTSTRAP_URL', path: 'rdapIpv4BootstrapUrl', parse: asString },
    { name: 'UTILITY_API_RDAP_IPV6_BOOTSTRAP_URL', path: 'rdapIpv6BootstrapUrl', parse: asString },
    { name: 'UTILITY_API_RDAP_ASN_BOOTSTRAP_URL', path: 'rdapAsnBootstrapUrl', parse: asString },
    { name: 'UTILITY_API_WHOIS_SERVER', path: 'whoisServer', parse: asString },
  ],
};
