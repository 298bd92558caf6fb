import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { NodeDnsLookup } from './adapters/dns/node-dns-lookup.js';
import { whoisRoutes } from './whois-routes.js';
import { RdapRegistrationSource } from './adapters/rdap/rdap-registration-source.js';
import { TldtsPublicSuffixes } from './adapters/tldts/tldts-public-suffixes.js';
import type { OutboundGuard } from '../../platform/upstream/outbound-guard.js';
import { WhoisRegistrationSource } from './adapters/whois/whois-registration-source.js';
import { Clock } from '../../domain/ports.js';
import { LookUpDns, LookUpDomain, LookUpRegistration } from './domain/domain-lookups.js';
import { DnsLookup, PublicSuffixes, RdapSource, WhoisSource, type RegistrationSource } from './domain/ports.js';
import {
  Log,
  OutboundConnections,
  RouteContribution,
  UpstreamCalls,
  useCasesIdentifier,
} from '../../composition/identifiers.js';

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
  new ContainerModule(({ bind }) => {
    bind(DnsLookup).toConstantValue(new NodeDnsLookup({ servers: dnsServers, timeoutMs: dnsTimeoutMs }));
    bind(RdapSource)
      .toResolvedValue(
        (logger: Logger, clock: Clock, countCall: UpstreamCalls, guard: OutboundGuard) =>
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
        [Log, Clock, UpstreamCalls, OutboundConnections],
      )
      .inSingletonScope();
    bind(WhoisSource)
      .toResolvedValue(
        (logger: Logger, guard: OutboundGuard) =>
          new WhoisRegistrationSource({ server: whoisServer, timeoutMs: registrationTimeoutMs }, { guard, logger }),
        [Log, OutboundConnections],
      )
      .inSingletonScope();
    bind(PublicSuffixes).toConstantValue(new TldtsPublicSuffixes());
    bind(LookUpDns)
      .toResolvedValue((dns: DnsLookup, clock: Clock) => new LookUpDns(dns, clock, cacheEntries), [DnsLookup, Clock])
      .inSingletonScope();
    bind(LookUpRegistration)
      .toResolvedValue(
        (rdap: RegistrationSource, whois: RegistrationSource, suffixes: PublicSuffixes, clock: Clock) =>
          new LookUpRegistration(rdap, whois, suffixes, clock, { ttlMs: registrationTtlMs, maxEntries: cacheEntries }),
        [RdapSource, WhoisSource, PublicSuffixes, Clock],
      )
      .inSingletonScope();
    bind(LookUpDomain)
      .toResolvedValue(
        (dns: LookUpDns, registration: LookUpRegistration) => new LookUpDomain(dns, registration),
        [LookUpDns, LookUpRegistration],
      )
      .inSingletonScope();
    bind(WhoisUseCases).toResolvedValue(
      (lookUpDns: LookUpDns, lookUpRegistration: LookUpRegistration, lookUpDomain: LookUpDomain): WhoisUseCases => ({
        lookUpDns,
        lookUpRegistration,
        lookUpDomain,
      }),
      [LookUpDns, LookUpRegistration, LookUpDomain],
    );
    bind(RouteContribution).toResolvedValue(
      (
        lookUpDns: LookUpDns,
        lookUpRegistration: LookUpRegistration,
        lookUpDomain: LookUpDomain,
      ): RouteContribution => ({ routes: whoisRoutes({ lookUpDns, lookUpRegistration, lookUpDomain }) }),
      [LookUpDns, LookUpRegistration, LookUpDomain],
    );
  });
