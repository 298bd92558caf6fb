import { domainToASCII } from 'node:url';

/**
 * Email addresses as a caller gives them: an RFC 5322 addr-spec (`local@domain`), its local part a
 * dot-atom of ASCII, its domain a host name, which may be internationalised (`bücher.example`):
 * checked as the ASCII form its labels take on the wire. No quoted local parts, no address
 * literals (`[192.0.2.1]`), nothing around the address: display names are mailboxes.ts's.
 */

/** RFC 5322's atext: what a dot-atom is made of. */
const ATEXT = "A-Za-z0-9!#$%&'*+/=?^_`{|}~-";
const LOCAL_PART = new RegExp(`^[${ATEXT}]+(?:\\.[${ATEXT}]+)*$`);
/** Letters, marks, digits, dots and hyphens: a domain as typed, before IDNA makes it ASCII. */
const DOMAIN_AS_TYPED = /^[\p{L}\p{M}\p{N}.-]+$/u;
const ASCII_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** RFC 5321's limits: 64 octets of local part, 254 of path. */
const MAX_LOCAL_OCTETS = 64;
const MAX_ADDRESS_OCTETS = 254;
const MAX_DOMAIN_OCTETS = 253;

/** The ASCII form of a domain as typed, if it is a host name. */
export function asciiDomain(domain: string): string | undefined {
  if (!DOMAIN_AS_TYPED.test(domain)) return undefined;
  const ascii = domainToASCII(domain);
  if (ascii === '' || ascii.length > MAX_DOMAIN_OCTETS) return undefined;
  const labels = ascii.split('.');
  // An all-digit last label would make it an IP address, which is no addr-spec domain.
  if (!labels.every((label) => ASCII_LABEL.test(label)) || /^\d+$/.test(labels.at(-1)!)) return undefined;
  return ascii;
}

/** Whether `address` is an addr-spec this service sends to or from. */
export function isAddress(address: string): boolean {
  const at = address.lastIndexOf('@');
  if (at <= 0) return false;
  const local = address.slice(0, at);
  const domain = asciiDomain(address.slice(at + 1));
  if (domain === undefined || !LOCAL_PART.test(local) || local.length > MAX_LOCAL_OCTETS) return false;
  return local.length + 1 + domain.length <= MAX_ADDRESS_OCTETS;
}

/** The domain of an address already checked, in ASCII: what a Message-ID made for it ends with. */
export const domainOf = (address: string): string => asciiDomain(address.slice(address.lastIndexOf('@') + 1))!;

/**
 * An address already checked as it goes on the wire: its domain in ASCII (`grace@xn--bcher-kva.example`),
 * which every SMTP server takes, where a UTF-8 domain needs one that speaks SMTPUTF8.
 */
export const asciiAddress = (address: string): string =>
  `${address.slice(0, address.lastIndexOf('@'))}@${domainOf(address)}`;
