import * as t from 'io-ts';
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
 * they fill in. Only an answer that is not a domain object at all is refused.
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
      const bases = arrayOf(urls).filter(
        (url): url is string => typeof url === 'string' && URL.canParse(url) && /^https?:$/.test(new URL(url).protocol),
      );
      const base = bases.find((url) => url.startsWith('https:')) ?? bases[0];
      if (base === undefined) continue;
      for (const tld of arrayOf(tlds)) if (typeof tld === 'string') services.set(tld.toLowerCase(), base);
    }
    return t.success(services);
  },
  t.identity,
);

/** A registration as an RDAP domain object tells it; `rdapUrl` is set by whoever asked. */
export const RdapDomain = new t.Type<Omit<Registration, 'rdapUrl'>, unknown, unknown>(
  'an RDAP domain object',
  (u): u is Omit<Registration, 'rdapUrl'> => isObject(u),
  (u, context) => {
    if (!isObject(u) || (u.objectClassName !== 'domain' && typeof u.ldhName !== 'string'))
      return t.failure(u, context, 'expected a domain object');
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
