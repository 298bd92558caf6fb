import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import {
  networkHolds,
  networksOfRange,
  networkText,
  parseIpAddress,
  parseNetwork,
  type IpAddress,
  type IpNetwork,
} from '../../domain/ip-address.js';
import type {
  AbuseContact,
  AutonomousSystemRegistration,
  NetworkRegistration,
  NumberHolder,
} from '../../domain/number-registration.js';
import {
  domainStatus,
  isoDate,
  type Registrant,
  type Registrar,
  type Registration,
} from '../../domain/registration.js';

/**
 * Readers of RDAP's JSON (RFC 9083, bootstrap RFC 9224). They are tolerant: a member of the wrong
 * shape is read as absent rather than failing the whole answer, since registries differ in what
 * they fill in. Only an answer that is not an object of the class asked (domain, ip network,
 * autnum) at all is refused.
 */

type Json = Record<string, unknown>;
const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u);
const arrayOf = (u: unknown): unknown[] => (Array.isArray(u) ? u : []);
const stringOf = (u: unknown): string | null => (typeof u === 'string' && u.trim() !== '' ? u.trim() : null);

/** Each TLD (lower case, A-labels) → the base URL of its RDAP service, https preferred. */
export type RdapServices = ReadonlyMap<string, string>;

/** IANA's `dns.json`: `services` is a list of `[[tlds...], [base URLs...]]`. */
export const RdapBootstrap = new t.Type<RdapServices, unknown, unknown>(
  'an RDAP bootstrap file',
  (u): u is RdapServices => u instanceof Map,
  (u, context) => {
    if (!isObject(u) || !Array.isArray(u.services)) return t.failure(u, context, 'expected an object with services');
    const services = new Map<string, string>();
    for (const service of u.services) {
      const [tlds, urls] = arrayOf(service);
      const base = preferredBase(urls);
      if (base === undefined) continue;
      for (const tld of arrayOf(tlds)) if (typeof tld === 'string') services.set(tld.toLowerCase(), base);
    }
    return t.success(services);
  },
  t.identity,
);

/** Of a service's base URLs, an https one, else an http one; none of another scheme. */
function preferredBase(urls: unknown): string | undefined {
  const bases = arrayOf(urls).filter(
    (url): url is string => typeof url === 'string' && URL.canParse(url) && /^https?:$/.test(new URL(url).protocol),
  );
  return bases.find((url) => url.startsWith('https:')) ?? bases[0];
}

/** An object's events, the first date of each action. */
function eventsOf(u: Json): Map<string, string> {
  const events = new Map<string, string>();
  for (const event of arrayOf(u.events)) {
    if (
      isObject(event) &&
      typeof event.eventAction === 'string' &&
      typeof event.eventDate === 'string' &&
      !events.has(event.eventAction)
    )
      events.set(event.eventAction, event.eventDate);
  }
  return events;
}

/** A registration as an RDAP domain object tells it; `rdapUrl` is set by whoever asked. */
export const RdapDomain = new t.Type<Omit<Registration, 'rdapUrl'>, unknown, unknown>(
  'an RDAP domain object',
  (u): u is Omit<Registration, 'rdapUrl'> => isObject(u),
  (u, context) => {
    if (!isObject(u) || (u.objectClassName !== 'domain' && typeof u.ldhName !== 'string'))
      return t.failure(u, context, 'expected a domain object');
    const events = eventsOf(u);
    const entities = allEntities(arrayOf(u.entities));
    const withRole = (role: string) => entities.find((entity) => arrayOf(entity.roles).includes(role));
    return t.success({
      source: 'rdap',
      registrar: registrarOf(withRole('registrar')),
      created: isoDate(events.get('registration')),
      updated: isoDate(events.get('last changed')),
      expires: isoDate(events.get('expiration')),
      status: arrayOf(u.status).flatMap((status) =>
        typeof status === 'string' && status.trim() !== '' ? [domainStatus(status)] : [],
      ),
      nameservers: arrayOf(u.nameservers).flatMap((server) => {
        const name = isObject(server) ? stringOf(server.ldhName) : null;
        return name === null ? [] : [name.toLowerCase().replace(/\.$/, '')];
      }),
      dnssec:
        isObject(u.secureDNS) && typeof u.secureDNS.delegationSigned === 'boolean'
          ? u.secureDNS.delegationSigned
          : null,
      registrant: registrantOf(withRole('registrant')),
    });
  },
  t.identity,
);

/** Entities and the entities they hold (a registrar's abuse contact, say), depth first. */
function allEntities(entities: unknown[], depth = 0): Json[] {
  if (depth > 3) return [];
  return entities.filter(isObject).flatMap((entity) => [entity, ...allEntities(arrayOf(entity.entities), depth + 1)]);
}

/** A jCard property's value (RFC 7095: `[name, parameters, type, value...]`), by name. */
function vcardProperty(entity: Json, name: string): { parameters: Json; values: unknown[] } | undefined {
  const [, properties] = arrayOf(entity.vcardArray);
  for (const property of arrayOf(properties)) {
    const [propertyName, parameters, , ...values] = arrayOf(property);
    if (propertyName === name) return { parameters: isObject(parameters) ? parameters : {}, values };
  }
  return undefined;
}

const vcardText = (entity: Json, name: string): string | null => {
  const [value] = vcardProperty(entity, name)?.values ?? [];
  // `org` may be structured: its first component is the organisation's name.
  return stringOf(Array.isArray(value) ? value[0] : value);
};

function registrarOf(entity: Json | undefined): Registrar | null {
  if (entity === undefined) return null;
  const ianaId = arrayOf(entity.publicIds).find((id) => isObject(id) && id.type === 'IANA Registrar ID');
  const about = arrayOf(entity.links).find(
    (link) => isObject(link) && link.rel === 'about' && typeof link.href === 'string',
  );
  return {
    name: vcardText(entity, 'fn') ?? vcardText(entity, 'org'),
    ianaId: isObject(ianaId) ? stringOf(ianaId.identifier) : null,
    url: vcardText(entity, 'url') ?? (isObject(about) ? stringOf(about.href) : null),
  };
}

function registrantOf(entity: Json | undefined): Registrant | null {
  if (entity === undefined) return null;
  const address = vcardProperty(entity, 'adr');
  // The country as a code (`cc` parameter, RFC 8605) or the address's last component, its name.
  const [structured] = address?.values ?? [];
  const country = stringOf(address?.parameters.cc) ?? (Array.isArray(structured) ? stringOf(structured[6]) : null);
  return { organization: vcardText(entity, 'org'), country };
}

/** One entry of a number bootstrap file: a block and the base URL of the RDAP service that serves it. */
interface NumberService<B> {
  readonly block: B;
  readonly base: string;
}

/** IANA's `ipv4.json` and `ipv6.json`, each network with its service; the most specific holding an address wins. */
export interface RdapNetworkServices {
  readonly networks: readonly NumberService<IpNetwork>[];
  /** The origins of every service the file names, where a redirect may lead. */
  readonly origins: ReadonlySet<string>;
}

/** IANA's `asn.json`, each range of AS numbers with its service. */
export interface RdapAsnServices {
  readonly ranges: readonly NumberService<{ readonly from: number; readonly to: number }>[];
  readonly origins: ReadonlySet<string>;
}

/** Each entry's blocks, read by `blockOf` (undefined for one that cannot be read, which is skipped), with its base URL. */
function numberServices<B>(u: unknown, blockOf: (text: string) => B | undefined): NumberService<B>[] | undefined {
  if (!isObject(u) || !Array.isArray(u.services)) return undefined;
  const services: NumberService<B>[] = [];
  for (const service of u.services) {
    const [blocks, urls] = arrayOf(service);
    const base = preferredBase(urls);
    if (base === undefined) continue;
    for (const text of arrayOf(blocks)) {
      const block = typeof text === 'string' ? blockOf(text.trim()) : undefined;
      if (block !== undefined) services.push({ block, base });
    }
  }
  return services;
}

const originsOf = (services: readonly NumberService<unknown>[]): ReadonlySet<string> =>
  new Set(services.map(({ base }) => new URL(base).origin));

/** IANA's `ipv4.json` or `ipv6.json` (RFC 9224 §5.1, §5.2): `services` is a list of `[[CIDRs...], [base URLs...]]`. */
export const RdapNetworkBootstrap = new t.Type<RdapNetworkServices, unknown, unknown>(
  'an RDAP bootstrap file for IP addresses',
  (u): u is RdapNetworkServices => isObject(u) && Array.isArray(u.networks),
  (u, context) => {
    const networks = numberServices(u, parseNetwork);
    return networks === undefined
      ? t.failure(u, context, 'expected an object with services')
      : t.success({ networks, origins: originsOf(networks) });
  },
  t.identity,
);

/** IANA's `asn.json` (RFC 9224 §5.3): `services` is a list of `[["1-1876", "3333"...], [base URLs...]]`. */
export const RdapAsnBootstrap = new t.Type<RdapAsnServices, unknown, unknown>(
  'an RDAP bootstrap file for AS numbers',
  (u): u is RdapAsnServices => isObject(u) && Array.isArray(u.ranges),
  (u, context) => {
    const ranges = numberServices(u, (text) => {
      const match = /^(\d{1,10})(?:-(\d{1,10}))?$/.exec(text);
      if (match === null) return undefined;
      const from = Number(match[1]);
      const to = Number(match[2] ?? match[1]);
      return from <= to ? { from, to } : undefined;
    });
    return ranges === undefined
      ? t.failure(u, context, 'expected an object with services')
      : t.success({ ranges, origins: originsOf(ranges) });
  },
  t.identity,
);

/** The service of the most specific network that holds the address, if any does. */
export function networkServiceOf(services: RdapNetworkServices, address: IpAddress): string | undefined {
  let best: NumberService<IpNetwork> | undefined;
  for (const service of services.networks)
    if (
      networkHolds(service.block, address) &&
      (best === undefined || service.block.prefixLength > best.block.prefixLength)
    )
      best = service;
  return best?.base;
}

export function asnServiceOf(services: RdapAsnServices, asn: number): string | undefined {
  return services.ranges.find(({ block }) => asn >= block.from && asn <= block.to)?.base;
}

/** What an IP network and an autnum object share (RFC 9083 §5.4, §5.5). */
function numberRegistrationOf(u: Json) {
  const events = eventsOf(u);
  const entities = allEntities(arrayOf(u.entities));
  const withRole = (role: string) => entities.find((entity) => arrayOf(entity.roles).includes(role));
  return {
    handle: stringOf(u.handle),
    name: stringOf(u.name),
    type: stringOf(u.type),
    country: stringOf(u.country),
    status: arrayOf(u.status).flatMap((status) => {
      const text = stringOf(status);
      return text === null ? [] : [text];
    }),
    registrant: holderOf(withRole('registrant')),
    abuse: abuseContactOf(withRole('abuse')),
    created: isoDate(events.get('registration')),
    updated: isoDate(events.get('last changed')),
  };
}

/** A network as an RDAP IP network object tells it; `rdapUrl` is set by whoever asked. */
export const RdapIpNetwork = new t.Type<Omit<NetworkRegistration, 'rdapUrl'>, unknown, unknown>(
  'an RDAP IP network object',
  (u): u is Omit<NetworkRegistration, 'rdapUrl'> => isObject(u),
  (u, context) => {
    if (!isObject(u) || u.objectClassName !== 'ip network') return t.failure(u, context, 'expected an ip network');
    const address = (member: unknown) => {
      const text = stringOf(member);
      const parsed = text === null ? undefined : parseIpAddress(text, 'address');
      return parsed !== undefined && E.isRight(parsed) ? parsed.right : undefined;
    };
    const start = address(u.startAddress);
    const end = address(u.endAddress);
    const fromRange = start !== undefined && end !== undefined ? networksOfRange(start, end) : [];
    const version = u.ipVersion === 'v6' || start?.version === 6 ? 'v6' : 'v4';
    return t.success({
      ipVersion: version,
      startAddress: start?.text ?? null,
      endAddress: end?.text ?? null,
      // The range says exactly what is held; the cidr0 extension (RFC 9083 leaves CIDRs out) only where it is missing.
      cidrs: (fromRange.length > 0 ? fromRange : cidr0Networks(u.cidr0_cidrs)).map(networkText),
      parentHandle: stringOf(u.parentHandle),
      ...numberRegistrationOf(u),
    });
  },
  t.identity,
);

/** An AS block as an RDAP autnum object tells it; `rdapUrl` is set by whoever asked. */
export const RdapAutnum = new t.Type<Omit<AutonomousSystemRegistration, 'rdapUrl'>, unknown, unknown>(
  'an RDAP autnum object',
  (u): u is Omit<AutonomousSystemRegistration, 'rdapUrl'> => isObject(u),
  (u, context) => {
    if (!isObject(u) || u.objectClassName !== 'autnum') return t.failure(u, context, 'expected an autnum');
    const asNumber = (member: unknown) =>
      typeof member === 'number' && Number.isInteger(member) && member >= 0 && member <= 4_294_967_295 ? member : null;
    return t.success({
      startAutnum: asNumber(u.startAutnum),
      endAutnum: asNumber(u.endAutnum),
      ...numberRegistrationOf(u),
    });
  },
  t.identity,
);

/** The networks of the cidr0 extension: `[{v4prefix | v6prefix, length}]`. */
function cidr0Networks(u: unknown): IpNetwork[] {
  return arrayOf(u).flatMap((entry) => {
    if (!isObject(entry)) return [];
    const prefix = stringOf(entry.v4prefix) ?? stringOf(entry.v6prefix);
    const network =
      prefix === null || typeof entry.length !== 'number' ? undefined : parseNetwork(`${prefix}/${entry.length}`);
    return network === undefined ? [] : [network];
  });
}

function holderOf(entity: Json | undefined): NumberHolder | null {
  if (entity === undefined) return null;
  const address = vcardProperty(entity, 'adr');
  const [structured] = address?.values ?? [];
  return {
    handle: stringOf(entity.handle),
    name: vcardText(entity, 'fn') ?? vcardText(entity, 'org'),
    country: stringOf(address?.parameters.cc) ?? (Array.isArray(structured) ? stringOf(structured[6]) : null),
  };
}

function abuseContactOf(entity: Json | undefined): AbuseContact | null {
  if (entity === undefined) return null;
  return {
    handle: stringOf(entity.handle),
    name: vcardText(entity, 'fn'),
    email: vcardText(entity, 'email'),
    phone: vcardText(entity, 'tel'),
  };
}
