import { ContainerModule } from 'inversify';
import { NodeDnsLookup } from './adapters/dns/node-dns-lookup.js';
import { whoisRoutes } from './whois-routes.js';
import { RdapRegistrationSource } from './adapters/rdap/rdap-registration-source.js';
import { TldtsPublicSuffixes } from './adapters/tldts/tldts-public-suffixes.js';
import { WhoisRegistrationSource } from './adapters/whois/whois-registration-source.js';
import { Clock } from '../../domain/ports.js';
import { LookUpDns, LookUpDomain, LookUpRegistration } from './domain/domain-lookups.js';
import { DnsLookup, PublicSuffixes, RdapSource, WhoisSource } from './domain/ports.js';
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
  whoisServer,
  registrationTimeoutMs,
  registrationTtlMs,
  cacheEntries,
}: WhoisSettings): ContainerModule =>
  new ContainerModule((options) => {
    const { provide, constant } = typedBindings(options);
    constant(DnsLookup, new NodeDnsLookup({ servers: dnsServers, timeoutMs: dnsTimeoutMs }));
    provide(
      RdapSource,
      [Log, Clock, UpstreamCalls, OutboundConnections],
      (logger, clock, countCall, guard) =>
        new RdapRegistrationSource(
          {
            bootstrapUrl: rdapBootstrapUrl,
            timeoutMs: registrationTimeoutMs,
            ttlMs: registrationTtlMs,
            maxEntries: cacheEntries,
          },
          logger,
          { guard, clock, countCall },
        ),
    ).inSingletonScope();
    provide(
      WhoisSource,
      [Log, OutboundConnections],
      (logger, guard) =>
        new WhoisRegistrationSource({ server: whoisServer, timeoutMs: registrationTimeoutMs }, { guard, logger }),
    ).inSingletonScope();
    constant(PublicSuffixes, new TldtsPublicSuffixes());
    provide(
      WhoisUseCases,
      [DnsLookup, RdapSource, WhoisSource, PublicSuffixes, Clock],
      (dns, rdap, whois, suffixes, clock) => {
        const lookUpDns = new LookUpDns(dns, clock, cacheEntries);
        const lookUpRegistration = new LookUpRegistration(rdap, whois, suffixes, clock, {
          ttlMs: registrationTtlMs,
          maxEntries: cacheEntries,
        });
        return { lookUpDns, lookUpRegistration, lookUpDomain: new LookUpDomain(lookUpDns, lookUpRegistration) };
      },
    ).inSingletonScope();
    provide(RouteContribution, [WhoisUseCases], (useCases) => ({
      section: {
        name: 'Domain lookup',
        description: "A domain's DNS records and its registration (RDAP, then WHOIS).",
      },
      routes: whoisRoutes(useCases),
    }));
  });
