import { createHash } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, missingInput, type InputError } from '../../../domain/errors.js';
import {
  characterCount,
  CONTROL_OR_INVISIBLE_RULE,
  firstCharacterXmlCannotCarry,
  hasControlOrInvisibleCharacter,
  trimWhiteSpace,
  XML_CANNOT_CARRY_RULE,
} from '../../../domain/text.js';

/** Facts (cat, dog, chucknorris, ...) and quotes (kanye, ronswanson, an operator's own). */
export const CONTENT_KINDS = ['fact', 'quote'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

/** One stored fact or quote. Its id is derived from what it says, so the same text is stored once per category. */
export interface ContentEntry {
  readonly id: string;
  readonly kind: ContentKind;
  readonly category: string;
  readonly text: string;
  readonly author: string | null;
  /** Where it came from: `utility-api` for the bundled facts, an upstream's host, or what an importer says. */
  readonly source: string;
  readonly createdAt: number;
}

/** What an entry is made of, as given: by an import line, an upstream, the bundled data. */
export interface ContentInput {
  readonly kind: ContentKind;
  readonly category: string;
  readonly text?: unknown;
  readonly author?: unknown;
  readonly source?: unknown;
}

/** Lower-case letters, digits and inner hyphens, at most 32: a category is part of a path and a file's name. */
export const CATEGORY = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;
export const CATEGORY_RULE = 'a category of 1 to 32 lower-case letters, digits or inner hyphens';
export const MAX_TEXT_CHARACTERS = 1000;
export const MAX_LABEL_CHARACTERS = 200;
/** The source of an imported entry that names none. */
export const IMPORTED_SOURCE = 'imported';

/**
 * The form two texts share when they say the same thing: canonical Unicode (NFKC), one letter
 * case, every run of white space one space. "Cats  purr." and "cats purr." are one fact.
 */
export const normalisedText = (text: string): string =>
  text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();

/** 64 bits of SHA-256 over kind, category and normalised text, in hex: the entry's id and its uniqueness. */
export const contentId = (kind: ContentKind, category: string, text: string): string =>
  createHash('sha256')
    .update(`${kind}\u0000${category}\u0000${normalisedText(text)}`)
    .digest('hex')
    .slice(0, 16);

/** Printable text of 1 to `max` characters once trimmed; a rule broken is said in words. */
function label(field: string, value: unknown, max: number): E.Either<InputError, string> {
  if (value === undefined || value === null) return E.left(missingInput(field));
  if (typeof value !== 'string') return E.left(invalidInput(field, `${field} must be text`));
  const trimmed = trimWhiteSpace(value);
  if (trimmed === '') return E.left(missingInput(field));
  if (characterCount(trimmed) > max) return E.left(invalidInput(field, `${field} must be at most ${max} characters`));
  if (hasControlOrInvisibleCharacter(trimmed))
    return E.left(invalidInput(field, `${field} must not contain ${CONTROL_OR_INVISIBLE_RULE}`));
  // Every entry is shown as XML too (`?type=xml`): what XML cannot carry is never stored.
  if (firstCharacterXmlCannotCarry(trimmed) !== undefined)
    return E.left(invalidInput(field, `${field} must not contain ${XML_CANNOT_CARRY_RULE}`));
  return E.right(trimmed);
}

const optionalLabel = (field: string, value: unknown): E.Either<InputError, string | null> =>
  value === undefined || value === null || (typeof value === 'string' && trimWhiteSpace(value) === '')
    ? E.right(null)
    : label(field, value, MAX_LABEL_CHARACTERS);

export const checkCategory = (category: string): E.Either<InputError, string> =>
  CATEGORY.test(category) ? E.right(category) : E.left(invalidInput('category', `category must be ${CATEGORY_RULE}`));

/** The text of a fact or quote: 1 to 1000 characters, none of them control or invisible formatting characters or any XML cannot carry. */
export const checkText = (text: unknown): E.Either<InputError, string> => label('text', text, MAX_TEXT_CHARACTERS);

/** An entry from what was given, or the first rule it breaks; `source` defaults to `defaultSource`. */
export function contentEntry(
  input: ContentInput,
  createdAt: number,
  defaultSource: string,
): E.Either<InputError, ContentEntry> {
  const category = checkCategory(input.category);
  if (E.isLeft(category)) return category;
  const text = checkText(input.text);
  if (E.isLeft(text)) return text;
  const author = optionalLabel('author', input.author);
  if (E.isLeft(author)) return author;
  const source = optionalLabel('source', input.source);
  if (E.isLeft(source)) return source;
  return E.right({
    id: contentId(input.kind, category.right, text.right),
    kind: input.kind,
    category: category.right,
    text: text.right,
    author: author.right,
    source: source.right ?? defaultSource,
    createdAt,
  });
}

/** Code-unit order, the same in every store (a database's collation might place `-` otherwise). */
const inOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The order entries are listed and exported in: by kind, category and id. */
export const byKindCategoryId = (a: ContentEntry, b: ContentEntry): number =>
  inOrder(a.kind, b.kind) || inOrder(a.category, b.category) || inOrder(a.id, b.id);
