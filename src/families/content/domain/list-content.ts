import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, type DomainError } from '../../../domain/errors.js';
import { checkPageLimit, pageOf, withLookahead } from '../../../domain/paging.js';
import { CONTROL_OR_INVISIBLE_RULE, characterCount, hasControlOrInvisibleCharacter } from '../../../domain/text.js';
import {
  CATEGORY,
  CATEGORY_RULE,
  MAX_LABEL_CHARACTERS,
  MAX_TEXT_CHARACTERS,
  type ContentEntry,
  type ContentKind,
} from './content.js';
import { authorKeyOf, wordsOf } from './content-search.js';
import { makeListCursor, readListCursor } from './list-cursor.js';
import type { AuthorCount, CategoryCount, ContentPageQuery, ContentStore } from './ports.js';

export const DEFAULT_CONTENT_PAGE = 20;
export const MAX_CONTENT_PAGE = 100;
/** At most this many characters of words to look for, and this many words. */
export const MAX_QUERY_CHARACTERS = 200;
export const MAX_QUERY_WORDS = 10;

/** What a listing of quotes may ask; facts take the same less `author`, and name their category `category`. */
export interface ContentListing {
  /** Only this category's (for quotes, `tag`: a quote's category is its one tag). */
  readonly category?: string;
  /** Only this author's, letter case, accents and spacing aside. */
  readonly author?: string;
  /** Words that must each be a whole word of the text, letter case and accents aside. */
  readonly query?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly limit?: number;
  /** The `nextCursor` of the page before, with the same filters. */
  readonly cursor?: string;
}

export interface ContentPage {
  readonly entries: readonly ContentEntry[];
  /** Null on the last page. */
  readonly nextCursor: string | null;
}

/** The field each filter is refused as: quotes call their category `tag`, as quotable does. */
const CATEGORY_FIELD: Readonly<Record<ContentKind, string>> = { quote: 'tag', fact: 'category' };

/** Stored facts and quotes a page at a time, filtered, and what they are grouped by with counts. */
export class ListContent {
  constructor(private readonly store: ContentStore) {}

  /** A page of `kind`'s entries in order of id (stable: pages neither repeat nor skip an entry that stays). */
  async page(kind: ContentKind, listing: ContentListing = {}): Promise<E.Either<DomainError, ContentPage>> {
    const checked = checkListing(kind, listing);
    if (E.isLeft(checked)) return checked;
    const { filters, limit } = checked.right;
    // Signed with the filters as the store compares them: two spellings of one listing share its cursors.
    const secret = await this.store.listingSecret();
    const after = listing.cursor === undefined ? undefined : readListCursor(secret, listing.cursor, filters);
    if (listing.cursor !== undefined && after === undefined)
      return E.left(invalidInput('cursor', 'cursor must be the nextCursor of a page of this same listing'));
    const rows = await this.store.page({ ...filters, after, limit: withLookahead(limit) });
    const { rows: entries, nextCursor } = pageOf(rows, limit, (last) => makeListCursor(secret, last.id, filters));
    return E.right({ entries, nextCursor });
  }

  /** Every author of stored quotes, by name, with how many quotes each. */
  authors(): Promise<readonly AuthorCount[]> {
    return this.store.authors('quote');
  }

  /** Every category of `kind` that holds something, by name, with how many entries each. */
  categories(kind: ContentKind): Promise<readonly CategoryCount[]> {
    return this.store.categories(kind);
  }
}

const printable = (value: string): boolean => !hasControlOrInvisibleCharacter(value) && !/\p{Cs}/u.test(value);

function checkListing(
  kind: ContentKind,
  listing: ContentListing,
): E.Either<DomainError, { filters: Omit<ContentPageQuery, 'after' | 'limit'>; limit: number }> {
  const { category, author, query, minLength, maxLength, limit = DEFAULT_CONTENT_PAGE } = listing;
  const categoryField = CATEGORY_FIELD[kind];
  if (category !== undefined && !CATEGORY.test(category))
    return E.left(invalidInput(categoryField, `${categoryField} must be ${CATEGORY_RULE}`));
  if (author !== undefined && kind !== 'quote')
    return E.left(invalidInput('author', 'facts have no author to filter by'));
  const authorKey = author === undefined ? undefined : authorKeyOf(author);
  if (author !== undefined && (authorKey === '' || characterCount(author) > MAX_LABEL_CHARACTERS || !printable(author)))
    return E.left(
      invalidInput(
        'author',
        `author must be 1 to ${MAX_LABEL_CHARACTERS} characters without ${CONTROL_OR_INVISIBLE_RULE}`,
      ),
    );
  const words = query === undefined ? undefined : [...new Set(wordsOf(query))];
  if (
    query !== undefined &&
    (characterCount(query) > MAX_QUERY_CHARACTERS ||
      !printable(query) ||
      words!.length === 0 ||
      words!.length > MAX_QUERY_WORDS)
  )
    return E.left(
      invalidInput(
        'query',
        `query must be 1 to ${MAX_QUERY_WORDS} words (letters or digits), at most ${MAX_QUERY_CHARACTERS} characters`,
      ),
    );
  for (const [field, value] of [
    ['minLength', minLength],
    ['maxLength', maxLength],
  ] as const)
    if (value !== undefined && !(Number.isInteger(value) && value >= 1 && value <= MAX_TEXT_CHARACTERS))
      return E.left(invalidInput(field, `${field} must be a whole number from 1 to ${MAX_TEXT_CHARACTERS}`));
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength)
    return E.left(invalidInput(['minLength', 'maxLength'], 'minLength must not be greater than maxLength'));
  const wrongLimit = checkPageLimit(limit, MAX_CONTENT_PAGE);
  if (wrongLimit) return E.left(wrongLimit);
  return E.right({
    filters: {
      kind,
      ...(category !== undefined && { category }),
      ...(authorKey !== undefined && { authorKey }),
      ...(words !== undefined && { words: words.sort() }),
      ...(minLength !== undefined && { minLength }),
      ...(maxLength !== undefined && { maxLength }),
    },
    limit,
  });
}
