import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, type InputError } from '../../../domain/errors.js';

/**
 * A message's variables: `{{name}}` in its subject and content stands for the value the caller
 * gave under that name. Values are text or numbers; what they hold is data, never markup (the
 * HTML part escapes them).
 */
export type VariableValue = string | number;
export type Variables = Readonly<Record<string, VariableValue>>;

export const MAX_VARIABLES = 50;
/** A letter, then letters, digits or underscores: at most 64 characters. */
export const VARIABLE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const VARIABLE_NAME_RULE = 'a letter followed by letters, digits or _, at most 64 characters';

/** `{{name}}`, spaces allowed inside the braces; what does not look like one is left as written. */
const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_]{0,63})\s*\}\}/g;

const textOf = (value: VariableValue): string => String(value);

/** Each value as a caller gives it: text or a finite number, nothing else. */
const isVariableValue = (value: unknown): value is VariableValue =>
  typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/**
 * The variables of a request: at most 50, each named by the rule and a string or a number.
 * `reserved` names what cannot be a variable, with why.
 */
export function readVariables(
  given: Readonly<Record<string, unknown>>,
  reserved: ReadonlyMap<string, string>,
): E.Either<InputError, Variables> {
  const names = Object.keys(given);
  for (const name of names) {
    const why = reserved.get(name);
    if (why !== undefined) return E.left(invalidInput(name, why));
  }
  const badName = names.find((name) => !VARIABLE_NAME.test(name));
  if (badName !== undefined)
    return E.left(
      invalidInput(badName, `${JSON.stringify(badName)} is not a field, nor a variable name (${VARIABLE_NAME_RULE})`),
    );
  if (names.length > MAX_VARIABLES)
    return E.left(invalidInput(names.slice(MAX_VARIABLES), `at most ${MAX_VARIABLES} variables, got ${names.length}`));
  const badValue = names.find((name) => !isVariableValue(given[name]));
  if (badValue !== undefined)
    return E.left(invalidInput(badValue, `the variable ${badValue} must be a string or a number`));
  const variables: Record<string, VariableValue> = {};
  // Defined, not assigned: a variable named like an Object.prototype member stays a variable.
  for (const name of names) Object.defineProperty(variables, name, { value: given[name], enumerable: true });
  return E.right(variables);
}

/** The names `text` uses as `{{name}}`, each once, in order of first use. */
export const placeholdersIn = (text: string): string[] => [
  ...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]!)),
];

/** The first placeholder of `text` with no variable, if any. */
export const firstUnknown = (text: string, variables: Variables): string | undefined =>
  placeholdersIn(text).find((name) => !Object.hasOwn(variables, name));

/** `text` with each `{{name}}` replaced by what `write` makes of its value; every name must have a variable. */
export const fill = (text: string, variables: Variables, write: (value: string) => string = (value) => value): string =>
  text.replace(PLACEHOLDER, (_, name: string) => write(textOf(variables[name]!)));

/**
 * `text` with each `{{name}}` replaced by a marker of letters and digits, which Markdown leaves as
 * it is wherever it stands, and `restore`, which puts what `write` makes of each value back in its
 * marker's place once the text has been rendered. The marker never occurs in `text` itself.
 */
export function withMarkers(
  text: string,
  variables: Variables,
): { readonly marked: string; restore(rendered: string, write: (value: string) => string): string } {
  let marker = 'mailvar';
  while (text.includes(marker)) marker += 'x';
  const names: string[] = [];
  const marked = text.replace(PLACEHOLDER, (_, name: string) => `${marker}${names.push(name) - 1}${marker}`);
  const markers = new RegExp(`${marker}(\\d+)${marker}`, 'g');
  return {
    marked,
    restore: (rendered, write) =>
      rendered.replace(markers, (whole, index: string) => {
        const name = names[Number(index)];
        return name === undefined ? whole : write(textOf(variables[name]!));
      }),
  };
}
