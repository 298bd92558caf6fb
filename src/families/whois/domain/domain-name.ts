import * as E from 'fp-ts/lib/Either.js';
import { domainToASCII, domainToUnicode } from 'node:url';
import { CONTROL_OR_INVISIBLE_RULE, hasControlOrInvisibleCharacter } from '../../../domain/text.js';

/** A domain name in both of its forms: ASCII (A-labels, lower case, as DNS carries it) and Unicode. */
export interface DomainName {
  readonly ascii: string;
  readonly unicode: string;
}

export const DOMAIN_NAME_RULE =
  'a domain name such as example.com or bücher.example: at least two labels of 1 to 63 letters, digits or inner hyphens (an underscore only at the start of a service label such as _sip), at most 253 characters';

/** Longer input cannot become a name of 253 characters; it is refused before IDN mapping looks at it. */
const MAX_INPUT_CHARS = 1_024;
const MAX_NAME_CHARS = 253;
const MAX_LABEL_CHARS = 63;
/** A host label, or a service label (`_sip`, `_tcp`, `_dmarc`) in front of one. */
const LABEL = /^_?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const SERVICE_LABEL = /^_/;
/**
 * A last label of digits (or `0x` hex) makes the WHATWG host parser read the whole as an IPv4
 * address (`1.2.3.04` is `1.2.3.4`); no top-level domain is numeric (RFC 3696 §2).
 */
const NUMERIC_LABEL = /^(?:\d+|0x[0-9a-f]*)$/i;

/**
 * Reads a domain name as a person writes it: any case, one trailing dot, Unicode labels (mapped
 * by IDNA as browsers do, `url.domainToASCII`). Refuses, with the reason, what is not a name:
 * an IP address, a single label, an empty label, a label too long, characters outside letters,
 * digits and hyphens, an underscore anywhere but the start of a service label.
 */
export function parseDomainName(input: string, field: string): E.Either<string, DomainName> {
  const refuse = (why: string): E.Either<string, never> => E.left(`${field} must be ${DOMAIN_NAME_RULE}: ${why}`);
  if (input.length > MAX_INPUT_CHARS) return refuse(`${input.length} characters is too long`);
  const name = input.endsWith('.') ? input.slice(0, -1) : input;
  if (name === '') return refuse('it is empty');
  // IDNA would drop a zero-width character silently: refused here, it is not quietly another name.
  if (hasControlOrInvisibleCharacter(name)) return refuse(`it contains ${CONTROL_OR_INVISIBLE_RULE}`);
  if (name.includes(':') || name.startsWith('[')) return refuse('an IPv6 address is not a domain name');
  const labels = name.split('.');
  if (labels.some((label) => label === '')) return refuse('it has an empty label');
  if (NUMERIC_LABEL.test(labels.at(-1)!)) return refuse('an IP address is not a domain name');
  if (labels.length < 2) return refuse('a single label is not a domain name');

  // Also checks every xn-- label is valid punycode, and maps full-width letters and dots.
  const ascii = domainToASCII(name);
  if (ascii === '') return refuse('it is not a valid internationalised domain name');
  if (ascii.length > MAX_NAME_CHARS)
    return refuse(`${ascii.length} characters (in ASCII) is more than ${MAX_NAME_CHARS}`);
  const asciiLabels = ascii.split('.');
  if (asciiLabels.length < 2) return refuse('a single label is not a domain name');
  for (const [index, label] of asciiLabels.entries()) {
    if (label === '') return refuse('it has an empty label');
    if (label.length > MAX_LABEL_CHARS)
      return refuse(`the label ${label.slice(0, 20)}… is longer than ${MAX_LABEL_CHARS} characters`);
    if (!LABEL.test(label))
      return refuse(`the label ${label} holds a character other than letters, digits and inner hyphens`);
    if (SERVICE_LABEL.test(label) && index === asciiLabels.length - 1)
      return refuse('a top-level domain never starts with an underscore');
  }
  if (NUMERIC_LABEL.test(asciiLabels.at(-1)!)) return refuse('an IP address is not a domain name');
  return E.right({ ascii, unicode: domainToUnicode(ascii) });
}
