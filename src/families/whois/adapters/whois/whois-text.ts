import { domainStatus, isoDate, type Registration } from '../../domain/registration.js';

/**
 * Reading port-43 WHOIS text. There is no standard format: gTLDs follow ICANN's `Key: value`
 * layout, ccTLDs their own, some with a key on one line and its values indented below. This reads
 * the common keys of all of them, and leaves a field null rather than guessing.
 */

/** Keys (lower case) of each field, in order of preference. */
const KEYS = {
  registrar: ['registrar', 'registrar name', 'sponsoring registrar', 'registrar organization'],
  ianaId: ['registrar iana id', 'sponsoring registrar iana id'],
  registrarUrl: ['registrar url', 'referral url'],
  created: [
    'creation date',
    'created',
    'created on',
    'registered on',
    'registration date',
    'registration time',
    'domain registration date',
    'registered',
  ],
  updated: ['updated date', 'last updated', 'last modified', 'last updated on', 'changed', 'modified', 'last-update'],
  expires: [
    'registry expiry date',
    'registrar registration expiration date',
    'expiry date',
    'expiration date',
    'expires',
    'expires on',
    'paid-till',
    'renewal date',
    'expire date',
  ],
  status: ['domain status', 'status', 'registration status', 'state'],
  nameservers: ['name server', 'name servers', 'nameserver', 'nameservers', 'nserver'],
  dnssec: ['dnssec', 'dnssec signed'],
  organization: ['registrant organization', 'registrant organisation'],
  country: ['registrant country', 'registrant country code'],
  referral: ['refer', 'whois', 'registrar whois server', 'whois server'],
} as const;

/** What registries answer for a name they do not hold. */
const NO_MATCH = [
  /^\s*no match\b/im,
  /^\s*not found\b/im,
  /^\s*no entries found/im,
  /^\s*no data found/im,
  /^\s*no object found/im,
  /^\s*domain not found/im,
  /^\s*%+\s*(?:no match|not found|no entries found)/im,
  /^\s*status:\s*(?:free|available)\s*$/im,
  /^\s*the queried object does not exist/im,
  /^\s*this domain name has not been registered/im,
];

export type WhoisFields = ReadonlyMap<string, readonly string[]>;

/** Every `Key: value` of the text by lower-case key, and values indented below a key with none. */
export function whoisFields(text: string): WhoisFields {
  const fields = new Map<string, string[]>();
  const add = (key: string, value: string) => {
    const values = fields.get(key) ?? [];
    values.push(value);
    fields.set(key, values);
  };
  let openKey: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(?:%|#|>>>)/.test(line) || line.trim() === '') {
      if (line.trim() === '') openKey = undefined;
      continue;
    }
    const pair = /^\s*([A-Za-z][A-Za-z0-9 ./()_-]{0,60}?)\s*:(?:\s+(.*?)|)\s*$/.exec(line);
    if (pair) {
      const key = pair[1]!.toLowerCase().replace(/\.+$/, '').trim();
      const value = pair[2]?.trim() ?? '';
      if (value === '') openKey = key;
      else {
        openKey = undefined;
        add(key, value);
      }
      continue;
    }
    // A value under a key that had none on its line (`Name servers:` then one per line).
    if (openKey !== undefined && /^\s+\S/.test(line)) add(openKey, line.trim());
  }
  return fields;
}

export function isNoMatch(text: string): boolean {
  return NO_MATCH.some((pattern) => pattern.test(text));
}

const first = (fields: WhoisFields, keys: readonly string[]): string | null => {
  for (const key of keys) {
    const value = fields.get(key)?.find((candidate) => candidate.trim() !== '');
    if (value !== undefined) return value;
  }
  return null;
};
const all = (fields: WhoisFields, keys: readonly string[]): readonly string[] => {
  for (const key of keys) {
    const values = fields.get(key);
    if (values !== undefined && values.length > 0) return values;
  }
  return [];
};

/** The server a WHOIS answer refers the question to (`refer:`, `whois:`, `Registrar WHOIS Server:`), if any. */
export function referralOf(fields: WhoisFields): string | undefined {
  const server = first(fields, KEYS.referral);
  // Some registries write a URL here; a port-43 server is a host (or host:port).
  return server === null ? undefined : server.replace(/^(?:whois|rwhois):\/\//i, '').replace(/\/+$/, '');
}

const DNSSEC_SIGNED = /^(?:yes|signed|signeddelegation|true|active)\b/i;
const DNSSEC_UNSIGNED = /^(?:no|unsigned|unsigneddelegation|false|inactive)\b/i;

/** A registration as WHOIS text tells it. */
export function registrationOf(fields: WhoisFields, whoisServer: string, text: string): Registration {
  const registrarName = first(fields, KEYS.registrar);
  const ianaId = first(fields, KEYS.ianaId);
  const registrarUrl = first(fields, KEYS.registrarUrl);
  const dnssec = first(fields, KEYS.dnssec);
  const organization = first(fields, KEYS.organization);
  const country = first(fields, KEYS.country);
  const nameservers = all(fields, KEYS.nameservers).flatMap((line) => {
    // `ns1.example.com 192.0.2.1`: the name first, addresses after it.
    const name = line.split(/\s+/)[0]!.toLowerCase().replace(/\.$/, '');
    return /^[a-z0-9_.-]+$/.test(name) ? [name] : [];
  });
  return {
    source: 'whois',
    registrar:
      registrarName === null && ianaId === null && registrarUrl === null
        ? null
        : { name: registrarName, ianaId, url: registrarUrl },
    created: isoDate(first(fields, KEYS.created)),
    updated: isoDate(first(fields, KEYS.updated)),
    expires: isoDate(first(fields, KEYS.expires)),
    status: all(fields, KEYS.status).map(domainStatus),
    nameservers: [...new Set(nameservers)],
    dnssec: dnssec === null ? null : DNSSEC_SIGNED.test(dnssec) ? true : DNSSEC_UNSIGNED.test(dnssec) ? false : null,
    registrant: organization === null && country === null ? null : { organization, country },
    whoisServer,
    raw: text,
  };
}
