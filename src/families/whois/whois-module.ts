import { ContainerModule } from 'inversify';
import { NodeDnsLookup } from './adapters/dns/node-dns-lookup.js';
import { whoisRoutes } from './whois-routes.js';
import { RdapRegistrationSource } from './adapters/rdap/rdap-registration-source.js';
import { TldtsPublicSuffixes } from './adapters/tldts/tldts-public-suffixes.js';
import { WhoisRegistrationSource } from './adapters/whois/whois-registration-source.js';
import { Clock } from '../../domain/ports.js';
import { LookUpDns, LookUpDomain, LookUpRegistration } from './domain/domain-lookups.js';
import { LookUpAutonomousSystem, LookUpIpNetwork } from './domain/number-lookups.js';
import { DnsLookup, NumberSource, PublicSuffixes, RdapSource, WhoisSource } from './domain/ports.js';
import { typedBindings } from '../../wiring/typed-binding.js';
import {
  Log,
  OutboundConnections,
  RouteContribution,
  UpstreamCalls,
  useCasesIdentifier,
} from '../../wiring/identifiers.js';

import type { WhoisSettings } from './whois-settings.js';
export type { WhoisSettings };

/** What the family offers a library user. */
export interface WhoisUseCases {
  readonly lookUpDns: LookUpDns;
  readonly lookUpRegistration: LookUpRegistration;
  readonly lookUpDomain: LookUpDomain;
  readonly lookUpIpNetwork: LookUpIpNetwork;
  readonly lookUpAutonomousSystem: LookUpAutonomousSystem;
}
export const WhoisUseCases = useCasesIdentifier<WhoisUseCases>('WhoisUseCases');

/**
 * DNS records, and registration data over RDAP with port-43 WHOIS behind it. The configured
 * servers are trusted; the registries and registrars they name are reached through the guard.
 */
export const whoisModule = ({
  dnsServers,
  dnsTimeoutMs,
  rdapBootstrapUrl,
  rdapIpv4BootstrapUrl,
  rdapIpv6BootstrapUrl,
  rdapAsnBootstrapUrl,
  whoisServer,
  registrationTimeoutMs,
  registrationTtlMs,
  cacheEntries,
}: WhoisSettings): ContainerModule =>
  new ContainerModule((options) => {
    const { provide, constant } = typedBindings(options);
    constant(DnsLookup, new NodeDnsLookup({ servers: dnsServers, timeoutMs: dnsTimeoutMs }));
    // One source for domains and numbers: a regional registry's service is one upstream, whatever is asked of it.
    provide(
      RdapRegistrationSource,
      [Log, Clock, UpstreamCalls, OutboundConnections],
      (logger, clock, countCall, guard) =>
        new RdapRegistrationSource(
          {
            bootstrapUrl: rdapBootstrapUrl,
            ipv4BootstrapUrl: rdapIpv4BootstrapUrl,
            ipv6BootstrapUrl: rdapIpv6BootstrapUrl,
            asnBootstrapUrl: rdapAsnBootstrapUrl,
            timeoutMs: registrationTimeoutMs,
            ttlMs: registrationTtlMs,
            maxEntries: cacheEntries,
          },
          logger,
          { guard, clock, countCall },
        ),
    ).inSingletonScope();
    provide(RdapSource, [RdapRegistrationSource], (rdap) => rdap);
    provide(NumberSource, [RdapRegistrationSource], (rdap) => rdap);
    provide(
      WhoisSource,
      [Log, OutboundConnections],
      (logger, guard) =>
        new WhoisRegistrationSource({ server: whoisServer, timeoutMs: registrationTimeoutMs }, { guard, logger }),
    ).inSingletonScope();
    constant(PublicSuffixes, new TldtsPublicSuffixes());
    provide(
      WhoisUseCases,
      [DnsLookup, RdapSource, WhoisSource, NumberSource, PublicSuffixes, Clock],
      (dns, rdap, whois, numbers, suffixes, clock) => {
        const kept = { ttlMs: registrationTtlMs, maxEntries: cacheEntries };
        const lookUpDns = new LookUpDns(dns, clock, cacheEntries);
        const lookUpRegistration = new LookUpRegistration(rdap, whois, suffixes, clock, kept);
        return {
          lookUpDns,
          lookUpRegistration,
          lookUpDomain: new LookUpDomain(lookUpDns, lookUpRegistration),
          lookUpIpNetwork: new LookUpIpNetwork(numbers, clock, kept),
          lookUpAutonomousSystem: new LookUpAutonomousSystem(numbers, clock, kept),
        };
      },
    ).inSingletonScope();
    provide(RouteContribution, [WhoisUseCases], (useCases) => ({
      section: {
        name: 'Domain lookup',
        description:
          "A domain's DNS records and its registration (RDAP, then WHOIS); an address's PTR records; who holds an IP address or an AS number (RDAP).",
      },
      routes: whoisRoutes(useCases),
    }));
  });
