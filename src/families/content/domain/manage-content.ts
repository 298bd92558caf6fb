import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, type DomainError } from '../../../domain/errors.js';
import { CONTENT_KINDS, checkCategory, type ContentEntry, type ContentKind } from './content.js';
import type { ContentFilter, ContentStore } from './ports.js';

/** The kind an operator typed, or the rule it breaks. */
export const checkKind = (kind: string): E.Either<DomainError, ContentKind> =>
  (CONTENT_KINDS as readonly string[]).includes(kind)
    ? E.right(kind as ContentKind)
    : E.left(invalidInput('kind', `kind must be one of ${CONTENT_KINDS.join(', ')}`));

/** Entries as NDJSON, the lines `content import` reads back (kind and category are the command's). */
export const asNdjson = (entries: readonly ContentEntry[]): string =>
  entries
    .map(({ text, author, source }) => `${JSON.stringify({ text, ...(author !== null && { author }), source })}\n`)
    .join('');

const ENTRY_ID = /^[0-9a-f]{16}$/;

/** What an operator does with stored facts and quotes besides importing them: list (or export) and delete. */
export class ManageContent {
  constructor(private readonly store: ContentStore) {}

  async list(filter: {
    readonly kind?: string;
    readonly category?: string;
  }): Promise<E.Either<DomainError, readonly ContentEntry[]>> {
    const kind = filter.kind === undefined ? E.right(undefined) : checkKind(filter.kind);
    if (E.isLeft(kind)) return kind;
    const category = filter.category === undefined ? E.right(undefined) : checkCategory(filter.category);
    if (E.isLeft(category)) return category;
    const checked: ContentFilter = { kind: kind.right, category: category.right };
    return E.right(await this.store.list(checked));
  }

  async delete(id: string): Promise<E.Either<DomainError, string>> {
    if (!ENTRY_ID.test(id))
      return E.left(invalidInput('id', 'id must be 16 hexadecimal digits, as content list shows it'));
    return (await this.store.delete(id))
      ? E.right(id)
      : E.left({ _tag: 'InformationNotFound', details: `No fact or quote ${id}` });
  }
}
