import { unescape } from 'node:querystring';
import type { PlacedInputError } from '../../domain/errors.js';
import { illFormedQueryParameters } from './well-formed.js';

/** A query's parameters by name: a name given more than once has all its values, in order. */
export type QueryParameters = ReadonlyMap<string, string | string[]>;

/**
 * The parameters of a query string, as Koa 3's `ctx.query` reads them (URLSearchParams: `+` is a
 * space, a name given twice has an array of values, a leading `?` is no part of the first name).
 * An ASCII query string, which is what clients send, is split here and only its escaped parts
 * decoded, to the same effect without the URLSearchParams object, the `getAll` per name and the
 * dictionary-mode objects Koa builds. Raw Latin-1 characters next to a broken escape decode
 * otherwise than URLSearchParams does them, so any other query string is read by URLSearchParams.
 */
export function parsedQuery(querystring: string): QueryParameters {
  const read = new Map<string, string | string[]>();
  if (NOT_ASCII.test(querystring)) {
    const params = new URLSearchParams(querystring);
    for (const name of params.keys()) if (!read.has(name)) read.set(name, onceOrAll(params.getAll(name)));
    return read;
  }
  const pairs = (querystring.charCodeAt(0) === QUESTION_MARK ? querystring.slice(1) : querystring).split('&');
  for (const pair of pairs) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decodedComponent(equals === -1 ? pair : pair.slice(0, equals));
    const value = equals === -1 ? '' : decodedComponent(pair.slice(equals + 1));
    const earlier = read.get(name);
    read.set(
      name,
      earlier === undefined ? value : typeof earlier === 'string' ? [earlier, value] : [...earlier, value],
    );
  }
  return read;
}

const NOT_ASCII = /[\u0080-\uffff]/;
const QUESTION_MARK = 0x3f;
const onceOrAll = (values: string[]): string | string[] => (values.length === 1 ? values[0]! : values);

/** `+` is a space; an escape that is not one stays as written (querystring's `unescape`). */
const decodedComponent = (raw: string): string =>
  raw.includes('%') || raw.includes('+') ? unescape(raw.replaceAll('+', ' ')) : raw;

/**
 * A query string whose percent-escapes are not UTF-8 (`%FF`, `%C0%AF`, `%ED%A0%80`), refused by
 * the names of the parameters that hold them: Koa's `ctx.query` would read each as U+FFFD. The
 * `%` test keeps the common query string from being looked at twice.
 */
export function checkQueryEncoding(querystring: string): PlacedInputError | undefined {
  if (!querystring.includes('%')) return undefined;
  const names = illFormedQueryParameters(querystring);
  return names.length === 0
    ? undefined
    : { _tag: 'InvalidQueryParameter', names, details: `${names.join(', ')} must be percent-encoded UTF-8` };
}
