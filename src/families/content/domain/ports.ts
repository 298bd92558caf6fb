import { identifier } from '../../../domain/identifier.js';
import type { CallContext } from '../../../domain/call-context.js';
import type * as E from 'fp-ts/lib/Either.js';
import type { ContentEntry, ContentKind } from './content.js';
import type { ImportFormat, ImportRecord } from './import-file.js';

/** How many entries one category holds. */
export interface CategoryCount {
  readonly category: string;
  readonly count: number;
}

export interface ContentFilter {
  readonly kind?: ContentKind;
  readonly category?: string;
}

/** How many entries of a kind one author is credited with. */
export interface AuthorCount {
  readonly author: string;
  readonly count: number;
}

/** One page of a kind's entries, in order of id, that pass every filter given. */
export interface ContentPageQuery {
  readonly kind: ContentKind;
  readonly category?: string;
  /** An author as `authorKeyOf` folds it. */
  readonly authorKey?: string;
  /** Words as `wordsOf` gives them: each one a whole word of the text. */
  readonly words?: readonly string[];
  /** Bounds, inclusive, on the text's length in characters. */
  readonly minLength?: number;
  readonly maxLength?: number;
  /** The id of the last entry of the page before: the page starts after it. */
  readonly after?: string;
  readonly limit: number;
}

/**
 * Facts and quotes, each stored once per kind and category (by id, a hash of its normalised text).
 * Every method rejects only on outages; an entry already there is an outcome, not an error.
 */
export interface ContentStore {
  /**
   * Stores the entries whose id is not there yet, all or none; gives the ids it added. `progress`
   * hears how many of `entries` have been written so far, as the store goes (at least once, at the end).
   */
  add(entries: readonly ContentEntry[], progress?: (written: number) => void): Promise<readonly string[]>;
  /** How many entries a category holds. */
  count(kind: ContentKind, category: string): Promise<number>;
  /** Every category of `kind` that holds something, by name. */
  categories(kind: ContentKind): Promise<readonly CategoryCount[]>;
  /** The `index`th entry of a category (from 0, in order of id), undefined past the end. */
  nth(kind: ContentKind, category: string, index: number): Promise<ContentEntry | undefined>;
  /** Entries by kind, category and id. */
  list(filter: ContentFilter): Promise<readonly ContentEntry[]>;
  /** At most `limit` entries of the query's kind after `after`, in order of id, that pass its filters. */
  page(query: ContentPageQuery): Promise<readonly ContentEntry[]>;
  /** Every author credited with entries of `kind`, by name (code-unit order), with how many. */
  authors(kind: ContentKind): Promise<readonly AuthorCount[]>;
  /** What listing cursors are signed with: made once, the same for every process on this storage. */
  listingSecret(): Promise<Buffer>;
  /** True when there was an entry of that id. */
  delete(id: string): Promise<boolean>;
}
export const ContentStore = identifier<ContentStore>('ContentStore');

/**
 * Reads an import file: its records, each with its line (of a JSON array, the item's number), or
 * why the file as a whole cannot be read. A line that cannot be read is a record of its own,
 * refused with the others, so that one bad line does not hide the rest; but an escape that
 * stands for a character XML cannot carry (JSON's `\u0000`, `\uFFFF`, a lone `\uD800`) refuses
 * the whole file, naming its line and column, as such a character written as itself does.
 */
export interface ImportFileReader {
  records(content: string, format: ImportFormat): E.Either<string, ImportRecord[]>;
}
export const ImportFileReader = identifier<ImportFileReader>('ImportFileReader');

/**
 * What an upstream of facts or quotes gives when asked for one: a text (not yet checked against
 * our rules), nothing because it is turned off, or nothing usable (in time).
 */
export type SourceResult =
  | { readonly kind: 'received'; readonly text: string }
  | { readonly kind: 'off' }
  | { readonly kind: 'unavailable'; readonly reason: 'timeout' | 'failure' };

/** One upstream of facts or quotes (chucknorris.io, kanye.rest, ...): a new text each time it is asked. */
export interface ContentSource {
  next(context?: CallContext): Promise<SourceResult>;
}
