import { unescape } from 'node:querystring';
import { strictlyDecoded } from '../../domain/text.js';

/**
 * Text as a request carries it must be Unicode exactly: Node and Koa decode a percent-escape of
 * bytes that are not UTF-8 (`%FF`, the overlong `%C0%AF`, the surrogate `%ED%A0%80`) and a body
 * that is not UTF-8 into U+FFFD, and JSON.parse turns `"\ud800"` into a lone surrogate. Either
 * would be encrypted, drawn or stored as something the client never sent, so such input is found
 * here and refused by name.
 */

/** An escape of a byte ≥ 0x80: the only escapes that can be bad UTF-8. */
const HIGH_BYTE_ESCAPE = /%[89a-f][0-9a-f]/i;

export { strictlyDecoded };

const ESCAPES = /(%[0-9a-f]{2})/i;

/** The bytes a percent-encoded component stands for; a `%` not followed by two hex digits is itself. */
function percentDecodedBytes(raw: string): Buffer {
  // split() with a capturing group alternates text and escapes: odd indexes are escapes.
  return Buffer.concat(
    raw
      .split(ESCAPES)
      .map((part, index) => (index % 2 === 1 ? Buffer.of(parseInt(part.slice(1), 16)) : Buffer.from(part))),
  );
}

/**
 * Decodes one percent-encoded component as `querystring` would (`+` is a space, an escape that
 * is not one stays as written), but undefined when its escapes are not UTF-8.
 */
function decodeComponent(raw: string, plusIsSpace: boolean): string | undefined {
  const spaced = plusIsSpace ? raw.replaceAll('+', ' ') : raw;
  return HIGH_BYTE_ESCAPE.test(raw) ? strictlyDecoded(percentDecodedBytes(spaced)) : unescape(spaced);
}

/**
 * The names of the query parameters whose name or value escapes bytes that are not UTF-8, as
 * written when the name itself is the bad part. Cheap on the common path: the caller only asks
 * when the query string holds a `%`, and a pair is decoded only when it escapes a high byte.
 */
export function illFormedQueryParameters(querystring: string): string[] {
  const names: string[] = [];
  for (const pair of querystring.split('&')) {
    if (!HIGH_BYTE_ESCAPE.test(pair)) continue;
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const name = decodeComponent(rawName, true);
    if (name === undefined) names.push(rawName);
    else if (equals !== -1 && decodeComponent(pair.slice(equals + 1), true) === undefined) names.push(name);
  }
  return names;
}

/**
 * Path segments of `path` (as sent, still percent-encoded) whose escapes are not UTF-8, by
 * their position. @koa/router hands such a segment on undecoded, as if it were text.
 */
export function illFormedPathSegments(path: string): number[] {
  if (!HIGH_BYTE_ESCAPE.test(path)) return [];
  return path.split('/').flatMap((segment, index) => (decodeComponent(segment, false) === undefined ? [index] : []));
}

/** How much of something the client sent an error's details repeat: enough to recognise it, never a megabyte. */
const MAX_ECHOED_CHARACTERS = 200;
export const echoed = (text: string): string =>
  text.length <= MAX_ECHOED_CHARACTERS ? text : `${text.slice(0, MAX_ECHOED_CHARACTERS)}…`;

/** A lone surrogate: half of a pair with no other half, which no UTF-8 can carry. */
const LONE_SURROGATE = /\p{Cs}/u;

export const isWellFormedText = (text: string): boolean => !LONE_SURROGATE.test(text);

/** A JSON escape of a surrogate, as `\ud800`: the only way valid UTF-8 JSON can make a lone one. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** Where in a JSON body something is: the top-level field (none for the body itself) and the full path. */
export interface JsonLocation {
  readonly field: string | undefined;
  /** `names[2]`, `profile.nickname`: for a person, not for a program. */
  readonly path: string;
}

/**
 * Where in a parsed JSON value a key or a string holds a lone surrogate; undefined when none
 * does. `source` is the JSON text it was parsed from: without a surrogate escape in it there is
 * nothing to look for.
 */
export function illFormedJsonLocation(value: unknown, source: string): JsonLocation | undefined {
  return SURROGATE_ESCAPE.test(source) ? findIllFormed(value) : undefined;
}

/** An object's keys as the scan has met them, and the key whose value is being read. */
interface ObjectFrame {
  readonly kind: 'object';
  readonly keys: Set<string>;
  key: string | undefined;
  /** Whether the next string is a key: after `{` or after a `,` between members. */
  expectsKey: boolean;
}
/** An array and the index of the item being read. */
interface ArrayFrame {
  readonly kind: 'array';
  index: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/** Where the string starting at `start` (its opening quote) ends: the index of its closing quote. */
function endOfString(source: string, start: number): number {
  for (let from = start + 1; ;) {
    const quote = source.indexOf('"', from);
    if (quote === -1) return source.length;
    let before = quote - 1;
    while (source.charCodeAt(before) === BACKSLASH) before--;
    // An even run of backslashes escapes itself, not the quote.
    if ((quote - 1 - before) % 2 === 0) return quote;
    from = quote + 1;
  }
}

/**
 * Where a JSON text gives a key twice in one object (`{"to": "a@…", "to": "b@…"}`), at any depth:
 * JSON.parse keeps the last and drops the first, so the client's meaning would be guessed at.
 * The place named is the second one met, as written in order; undefined when every object's
 * keys are distinct. `source` must be JSON that parses: only its strings and brackets are read,
 * strings skipped whole by search rather than character by character, and keys compared as
 * JSON reads them (`"\u0061"` is `"a"`).
 */
export function duplicateKeyLocation(source: string): JsonLocation | undefined {
  // Two keys in one object need a comma between them.
  if (!source.includes(',')) return undefined;
  const frames: (ObjectFrame | ArrayFrame)[] = [];
  let top: ObjectFrame | ArrayFrame | undefined;
  for (let at = 0; at < source.length; at++) {
    switch (source.charCodeAt(at)) {
      case QUOTE: {
        const end = endOfString(source, at);
        if (top?.kind === 'object' && top.expectsKey) {
          const written = source.slice(at + 1, end);
          const key = written.includes('\\') ? (JSON.parse(source.slice(at, end + 1)) as string) : written;
          if (top.keys.has(key)) return duplicateAt(frames, key);
          top.keys.add(key);
          top.key = key;
          top.expectsKey = false;
        }
        at = end;
        break;
      }
      case OPEN_BRACE:
        frames.push((top = { kind: 'object', keys: new Set(), key: undefined, expectsKey: true }));
        break;
      case OPEN_BRACKET:
        frames.push((top = { kind: 'array', index: 0 }));
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        frames.pop();
        top = frames[frames.length - 1];
        break;
      case COMMA:
        if (top?.kind === 'object') top.expectsKey = true;
        else if (top) top.index++;
        break;
    }
  }
  return undefined;
}

/** The location of `key` given again in the innermost of `frames`, the enclosing ones its path. */
function duplicateAt(frames: readonly (ObjectFrame | ArrayFrame)[], key: string): JsonLocation {
  let place: Place | undefined;
  for (let depth = 0; depth < frames.length - 1; depth++) {
    const frame = frames[depth]!;
    place = { step: frame.kind === 'object' ? frame.key! : frame.index, parent: place };
  }
  return locationOf({ step: isWellFormedText(key) ? key : JSON.stringify(key).slice(1, -1), parent: place });
}

/** U+FFFD as UTF-8. */
const REPLACEMENT_CHARACTER_BYTES = Buffer.from('\uFFFD');

/**
 * Where in a JSON body that is not UTF-8 its first bad bytes sit, when that can be told: each
 * bad sequence is decoded as a lone surrogate, which UTF-8 never yields, and then looked for as
 * such. Undefined when the bad bytes are outside any string, or when the body also holds a real
 * U+FFFD, which a replacement could not be told apart from.
 */
export function badUtf8JsonLocation(bytes: Buffer): JsonLocation | undefined {
  if (bytes.includes(REPLACEMENT_CHARACTER_BYTES)) return undefined;
  try {
    return findIllFormed(JSON.parse(bytes.toString('utf8').replaceAll('\uFFFD', '\uDFFF')));
  } catch {
    return undefined;
  }
}

/** Where a value sits: its key or index, under its parent; the path is spelt out only when asked. */
interface Place {
  readonly step: string | number;
  readonly parent: Place | undefined;
}

function locationOf(place: Place | undefined): JsonLocation {
  let path = '';
  let field: string | undefined;
  for (let at = place; at !== undefined; at = at.parent) {
    path =
      typeof at.step === 'number' ? `[${at.step}]${path}` : `${at.parent === undefined ? '' : '.'}${at.step}${path}`;
    if (at.parent === undefined && typeof at.step === 'string') field = at.step;
  }
  return { field, path };
}

/**
 * Depth first with a stack of its own, and paths spelt out only for what is found: a body may
 * nest deeper than the call stack goes, and thousands of levels of paths would be large.
 */
function findIllFormed(root: unknown): JsonLocation | undefined {
  const pending: [unknown, Place | undefined][] = [[root, undefined]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, place] = next;
    if (typeof value === 'string') {
      if (!isWellFormedText(value)) return locationOf(place);
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--)
        pending.push([value[index], { step: index, parent: place }]);
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value);
      for (const [key] of entries) {
        // A bad key is named as JSON would escape it, so the details stay readable text.
        if (!isWellFormedText(key)) return locationOf({ step: JSON.stringify(key).slice(1, -1), parent: place });
      }
      for (let index = entries.length - 1; index >= 0; index--)
        pending.push([entries[index]![1], { step: entries[index]![0], parent: place }]);
    }
  }
  return undefined;
}
