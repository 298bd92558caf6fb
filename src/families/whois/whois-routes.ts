import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { catalogueEntryOf, type CatalogueError, type DomainError } from '../../domain/errors.js';
import { WhoisPermission } from './domain/permissions.js';
import { DOMAIN_NAME_RULE } from './domain/domain-name.js';
import {
  ADDRESS_FIELD,
  DOMAIN_FIELDS,
  type DomainQuery,
  type FullAnswer,
  type LookUpDns,
  type LookUpDomain,
  type LookUpRegistration,
} from './domain/domain-lookups.js';
import { AS_NUMBER_RULE, IP_ADDRESS_RULE } from './domain/ip-address.js';
import { NUMBER_FIELDS, type LookUpAutonomousSystem, type LookUpIpNetwork } from './domain/number-lookups.js';
import { trueOrFalse } from '../../platform/http/codecs.js';
import { optional, required } from '../../platform/http/fields.js';
import { defineRoute, jsonOf, type Route } from '../../platform/http/route-table.js';

export interface WhoisRouteDependencies {
  readonly lookUpDns: LookUpDns;
  readonly lookUpRegistration: LookUpRegistration;
  readonly lookUpDomain: LookUpDomain;
  readonly lookUpIpNetwork: LookUpIpNetwork;
  readonly lookUpAutonomousSystem: LookUpAutonomousSystem;
}

/** Any text: whether it is a domain name is the domain's to say, with its reason. */
const domainText = t.string;

/** The original service's header, which gives the `legacyDomain` field. */
const DOMAIN_HEADER = 'x-domain';

const domainInput = {
  query: {
    [DOMAIN_FIELDS.domain]: optional(
      domainText,
      `the name to look up: ${DOMAIN_NAME_RULE}; required unless the x-domain header gives it`,
    ),
  },
  headers: {
    [DOMAIN_HEADER]: optional(
      domainText,
      'the name, as the original service took it (ASCII: an IDN as xn-- labels); when both are given they must name the same domain',
    ),
  },
};

/** The name as asked, the header mapped to its field and named as the client wrote it. */
const domainQueryOf = (query: { domain?: string | undefined }, headers: { [DOMAIN_HEADER]?: string | undefined }) =>
  ({
    domain: query.domain,
    legacyDomain: headers[DOMAIN_HEADER],
    fieldNames: { legacyDomain: DOMAIN_HEADER },
  }) satisfies DomainQuery;

const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);
const strings = t.readonlyArray(t.string);

const records = t.strict({
  A: strings,
  AAAA: strings,
  CNAME: strings,
  MX: t.readonlyArray(t.strict({ exchange: t.string, priority: t.number })),
  NS: strings,
  TXT: strings,
  SOA: nullable(
    t.strict({
      nsname: t.string,
      hostmaster: t.string,
      serial: t.number,
      refresh: t.number,
      retry: t.number,
      expire: t.number,
      minttl: t.number,
    }),
  ),
  CAA: t.readonlyArray(t.strict({ critical: t.boolean, tag: t.string, value: t.string })),
  SRV: t.readonlyArray(t.strict({ name: t.string, port: t.number, priority: t.number, weight: t.number })),
  PTR: strings,
});

const dnsAnswer = t.exact(
  t.intersection([t.type({ domain: t.string, unicodeDomain: t.string, records }), t.partial({ address: t.string })]),
);

const registration = t.exact(
  t.intersection([
    t.type({
      domain: t.string,
      unicodeDomain: t.string,
      source: t.keyof({ rdap: null, whois: null }),
      registrar: nullable(t.strict({ name: nullable(t.string), ianaId: nullable(t.string), url: nullable(t.string) })),
      created: nullable(t.string),
      updated: nullable(t.string),
      expires: nullable(t.string),
      status: t.readonlyArray(t.strict({ code: t.string, description: t.string })),
      nameservers: strings,
      dnssec: nullable(t.boolean),
      registrant: nullable(t.strict({ organization: nullable(t.string), country: nullable(t.string) })),
    }),
    t.partial({ rdapUrl: t.string, whoisServer: t.string, raw: t.string }),
  ]),
);

const numberHolder = nullable(
  t.strict({ handle: nullable(t.string), name: nullable(t.string), country: nullable(t.string) }),
);
const abuseContact = nullable(
  t.strict({
    handle: nullable(t.string),
    name: nullable(t.string),
    email: nullable(t.string),
    phone: nullable(t.string),
  }),
);
/** What a network and an AS block share. */
const numberRegistration = {
  handle: nullable(t.string),
  name: nullable(t.string),
  type: nullable(t.string),
  country: nullable(t.string),
  status: strings,
  registrant: numberHolder,
  abuse: abuseContact,
  created: nullable(t.string),
  updated: nullable(t.string),
  rdapUrl: t.string,
};

const networkAnswer = t.strict({
  address: t.string,
  ipVersion: t.keyof({ v4: null, v6: null }),
  startAddress: nullable(t.string),
  endAddress: nullable(t.string),
  cidrs: strings,
  parentHandle: nullable(t.string),
  ...numberRegistration,
});

const autonomousSystemAnswer = t.strict({
  asn: t.number,
  startAutnum: nullable(t.number),
  endAutnum: nullable(t.number),
  ...numberRegistration,
});

const partError = t.strict({ code: t.number, message: t.string });
const fullAnswer = t.strict({
  domain: t.string,
  unicodeDomain: t.string,
  dns: nullable(records),
  registration: nullable(registration),
  errors: t.exact(t.partial({ dns: partError, registration: partError })),
});

/** A failed part, as the catalogue names it (no input error reaches here: the name was read first). */
const asPartError = (error: DomainError) => {
  const { code, message } = catalogueEntryOf(error as CatalogueError);
  return { code, message };
};

const withPartErrors = ({ errors, ...answer }: FullAnswer) => ({
  ...answer,
  errors: {
    ...(errors.dns && { dns: asPartError(errors.dns) }),
    ...(errors.registration && { registration: asPartError(errors.registration) }),
  },
});

/**
 * Beyond what the fields imply: no name at all (neither field is required alone), a name that
 * does not exist or is not registered, and the outside services failing (in time).
 */
const lookupErrors = [
  'MissingQueryParameter',
  'InformationNotFound',
  'UpstreamUnavailable',
  'UpstreamTimeout',
] as const;

/** Beyond what its one field implies: nobody registering the number, and the registries failing (in time). */
const numberErrors = ['InformationNotFound', 'UpstreamUnavailable', 'UpstreamTimeout'] as const;

export function whoisRoutes(deps: WhoisRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/whois/dns',
      permission: WhoisPermission.WhoisDns,
      summary: "A name's DNS records: A, AAAA, CNAME, MX, NS, TXT, SOA, CAA, SRV and PTR; or an address's PTR records",
      query: {
        ...domainInput.query,
        [ADDRESS_FIELD]: optional(
          t.string,
          `instead of a name, ${IP_ADDRESS_RULE}: the records of its reverse name (its PTR records), answered with the address`,
        ),
      },
      headers: domainInput.headers,
      response: dnsAnswer,
      errors: lookupErrors,
      handle: async ({ query, headers, requestId }) =>
        jsonOf(
          await deps.lookUpDns.execute({ ...domainQueryOf(query, headers), address: query.address }, { requestId }),
        ),
    }),
    defineRoute({
      method: 'GET',
      path: '/whois/whois',
      permission: WhoisPermission.WhoisWhois,
      summary: 'The registration of the domain a name belongs to, over RDAP or else port-43 WHOIS',
      query: {
        ...domainInput.query,
        raw: optional(
          trueOrFalse,
          "add the WHOIS server's text (WHOIS answers only: asked of an RDAP answer, 400 code 7; default false)",
        ),
      },
      headers: domainInput.headers,
      response: registration,
      errors: lookupErrors,
      handle: async ({ query, headers, requestId }) =>
        jsonOf(
          await deps.lookUpRegistration.execute({ ...domainQueryOf(query, headers), raw: query.raw }, { requestId }),
        ),
    }),
    defineRoute({
      method: 'GET',
      path: '/whois/full',
      permission: WhoisPermission.WhoisFull,
      summary: 'DNS records and registration at once; a part that fails is named in errors beside the other',
      ...domainInput,
      response: fullAnswer,
      errors: lookupErrors,
      handle: async ({ query, headers, requestId }) =>
        jsonOf(E.map(withPartErrors)(await deps.lookUpDomain.execute(domainQueryOf(query, headers), { requestId }))),
    }),
    defineRoute({
      method: 'GET',
      path: '/whois/ip',
      permission: WhoisPermission.WhoisIp,
      summary: 'Who holds an IP address: the registry’s network that holds it, over RDAP',
      query: { [NUMBER_FIELDS.address]: required(t.string, IP_ADDRESS_RULE) },
      response: networkAnswer,
      errors: numberErrors,
      handle: async ({ query, requestId }) =>
        jsonOf(await deps.lookUpIpNetwork.execute({ address: query.address }, { requestId })),
    }),
    defineRoute({
      method: 'GET',
      path: '/whois/asn',
      permission: WhoisPermission.WhoisAsn,
      summary: 'Who holds an autonomous system number, over RDAP',
      query: { [NUMBER_FIELDS.asn]: required(t.string, AS_NUMBER_RULE) },
      response: autonomousSystemAnswer,
      errors: numberErrors,
      handle: async ({ query, requestId }) =>
        jsonOf(await deps.lookUpAutonomousSystem.execute({ asn: query.asn }, { requestId })),
    }),
  ];
}
