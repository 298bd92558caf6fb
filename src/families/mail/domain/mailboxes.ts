import * as E from 'fp-ts/lib/Either.js';
import { characterCount, hasControlOrInvisibleCharacter } from '../../../domain/text.js';
import { isAddress } from './addresses.js';

/** An address with the display name a recipient's mail program shows beside it. */
export interface NamedAddress {
  readonly name: string;
  readonly address: string;
}

/**
 * An address as a message names it: alone, or with its display name. Stored as given, so that a
 * list of plain addresses reads as it did before names were taken.
 */
export type Mailbox = string | NamedAddress;

export const addressOf = (mailbox: Mailbox): string => (typeof mailbox === 'string' ? mailbox : mailbox.address);
export const nameOf = (mailbox: Mailbox): string | null => (typeof mailbox === 'string' ? null : mailbox.name);

/** As long as `fromName` may be: far more than any real name, short enough to stay on a header line. */
export const MAX_DISPLAY_NAME_CHARACTERS = 200;

export const MAILBOX_RULE =
  'an email address such as name@example.com, the same with a display name ("Ada Lovelace" <ada@example.com>), or {"name", "address"}';

/** `"quoted name" <addr>`: a quoted string (with `\"` and `\\` escapes) then the address in angle brackets. */
const QUOTED_NAME_ADDR = /^"((?:[^"\\]|\\[\s\S])*)"\s*<([^<>]*)>$/u;
/**
 * `plain words <addr>`: words of anything but RFC 5322's specials (a comma would start another
 * address, a quote or bracket an unbalanced form), separated by spaces; dots are taken, as mail
 * programs write `John Q. Public`.
 */
const WORDS_NAME_ADDR = /^([^\s"<>()[\]:;@\\,]+(?: +[^\s"<>()[\]:;@\\,]+)*) *<([^<>]*)>$/u;
/** `<addr>` alone: an address with no name. */
const ANGLE_ADDR = /^<([^<>]*)>$/u;

/** What is wrong with a display name, said of `where` (`to[1]`, `cc.name`); undefined when it may stand in a header. */
function wrongName(name: string, where: string): string | undefined {
  if (name.trim() === '') return `${where} has an empty display name: give the address alone instead`;
  if (characterCount(name) > MAX_DISPLAY_NAME_CHARACTERS)
    return `${where} has a display name of more than ${MAX_DISPLAY_NAME_CHARACTERS} characters`;
  if (hasControlOrInvisibleCharacter(name) || /[\ud800-\udfff\u2028\u2029]/u.test(name))
    return `${where} has a display name with a line break or another control or invisible character`;
  return undefined;
}

const named = (name: string, address: string, where: string): E.Either<string, Mailbox> => {
  if (!isAddress(address))
    return E.left(`${where} has no email address such as name@example.com in its angle brackets`);
  const wrong = wrongName(name, where);
  return wrong === undefined ? E.right({ name, address }) : E.left(wrong);
};

/** One mailbox as written in RFC 5322's name-addr form, or an addr-spec alone. */
function fromText(text: string, where: string): E.Either<string, Mailbox> {
  if (isAddress(text)) return E.right(text);
  const quoted = QUOTED_NAME_ADDR.exec(text);
  if (quoted) return named(quoted[1]!.replace(/\\([\s\S])/gu, '$1'), quoted[2]!, where);
  const words = WORDS_NAME_ADDR.exec(text);
  if (words) return named(words[1]!, words[2]!, where);
  const angle = ANGLE_ADDR.exec(text);
  if (angle && isAddress(angle[1]!)) return E.right(angle[1]!);
  return E.left(`${where} must be ${MAILBOX_RULE}`);
}

/** `{name, address}`: nothing else; a name null or absent gives the address alone. */
function fromObject(object: Readonly<Record<string, unknown>>, where: string): E.Either<string, Mailbox> {
  const unknown = Object.keys(object).find((key) => key !== 'name' && key !== 'address');
  if (unknown !== undefined) return E.left(`${where} takes only name and address, not ${JSON.stringify(unknown)}`);
  const { name, address } = object;
  if (typeof address !== 'string' || !isAddress(address))
    return E.left(`${where}.address must be an email address such as name@example.com`);
  if (name === undefined || name === null) return E.right(address);
  if (typeof name !== 'string') return E.left(`${where}.name must be text`);
  const wrong = wrongName(name, where);
  return wrong === undefined ? E.right({ name, address }) : E.left(wrong);
}

/**
 * A recipient or reply address as a caller gives it: `ada@example.com`, `"Ada Lovelace"
 * <ada@example.com>`, `Ada Lovelace <ada@example.com>` (plain words), or `{name, address}`. A
 * name is kept as given (quotes and escapes taken off); a form that does not parse is refused,
 * saying of `where` (the field, or its item) what is wrong, never mended.
 */
export function readMailbox(value: unknown, where: string): E.Either<string, Mailbox> {
  if (typeof value === 'string') return fromText(value, where);
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return fromObject(value as Readonly<Record<string, unknown>>, where);
  return E.left(`${where} must be ${MAILBOX_RULE}`);
}

/** A mailbox as a person reads it in a list: the address alone, or `"Ada Lovelace" <ada@example.com>`. */
export const mailboxText = (mailbox: Mailbox): string =>
  typeof mailbox === 'string' ? mailbox : `${JSON.stringify(mailbox.name)} <${mailbox.address}>`;
