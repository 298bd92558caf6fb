import * as E from 'fp-ts/lib/Either.js';
import { detailsOf, invalidInput, type DomainError } from '../../../domain/errors.js';
import type { Clock } from '../../../domain/ports.js';
import {
  codePointOf,
  firstBadUtf8Position,
  firstCharacterXmlCannotCarry,
  positionOf,
  strictlyDecoded,
  XML_CANNOT_CARRY_RULE,
  type TextPosition,
} from '../../../domain/text.js';
import { checkCategory, contentEntry, IMPORTED_SOURCE, type ContentEntry, type ContentKind } from './content.js';
import type { ContentStore, ImportFileReader } from './ports.js';
import type { ImportFile } from './import-file.js';

export type LineOutcome =
  | { readonly line: number; readonly outcome: 'added'; readonly id: string }
  /** Already stored, or given earlier in the same file. */
  | { readonly line: number; readonly outcome: 'skipped'; readonly id: string }
  | { readonly line: number; readonly outcome: 'refused'; readonly reason: string };

/** How far an import has gone: records checked, then entries written, each out of its total. */
export interface ImportProgress {
  readonly phase: 'checking' | 'storing';
  readonly done: number;
  readonly total: number;
}

/** Records checked between two reports of progress. */
const CHECKED_PER_REPORT = 1000;

export interface ImportReport {
  readonly added: number;
  readonly skipped: number;
  readonly refused: number;
  readonly lines: readonly LineOutcome[];
}

/**
 * An operator's facts or quotes into one category: every line checked by the rules of every entry,
 * the good ones stored together (all or none), the same text never twice. Running it again adds
 * nothing: every line is then skipped.
 */
export class ImportContent {
  constructor(
    private readonly store: ContentStore,
    private readonly reader: ImportFileReader,
    private readonly clock: Clock,
  ) {}

  /**
   * The file's bytes and format. A file that cannot be read at all is refused as `file`, and so,
   * naming the line and column, is one with bytes that are not UTF-8 or a character XML cannot
   * carry: nothing of it is stored, since such a file is not the text its author meant.
   */
  async execute(
    kind: ContentKind,
    category: string,
    file: ImportFile,
    progress?: (step: ImportProgress) => void,
  ): Promise<E.Either<DomainError, ImportReport>> {
    const checked = checkCategory(category);
    if (E.isLeft(checked)) return checked;
    const text = importedText(file);
    if (E.isLeft(text)) return E.left(invalidInput('file', text.left));
    const read = this.reader.records(text.right, file.format);
    if (E.isLeft(read)) return E.left(invalidInput('file', read.left));
    const records = read.right;
    const now = this.clock.now();
    const candidates: { line: number; entry: ContentEntry }[] = [];
    const refusals: LineOutcome[] = [];
    for (const [index, record] of records.entries()) {
      if (progress && index % CHECKED_PER_REPORT === 0)
        progress({ phase: 'checking', done: index, total: records.length });
      if ('unreadable' in record) {
        refusals.push({ line: record.line, outcome: 'refused', reason: record.unreadable });
        continue;
      }
      const entry = contentEntry({ kind, category, ...record.fields }, now, IMPORTED_SOURCE);
      if (E.isLeft(entry))
        refusals.push({ line: record.line, outcome: 'refused', reason: detailsOf(entry.left) ?? 'refused' });
      else candidates.push({ line: record.line, entry: entry.right });
    }
    progress?.({ phase: 'checking', done: records.length, total: records.length });
    const firstOfEach = new Map<string, ContentEntry>();
    for (const { entry } of candidates) if (!firstOfEach.has(entry.id)) firstOfEach.set(entry.id, entry);
    const toStore = [...firstOfEach.values()];
    const added = new Set(
      await this.store.add(
        toStore,
        progress && ((written) => progress({ phase: 'storing', done: written, total: toStore.length })),
      ),
    );
    const lines = [
      ...refusals,
      ...candidates.map(({ line, entry }): LineOutcome => {
        // Only the first line with a text counts as adding it.
        const isFirst = added.delete(entry.id);
        return { line, outcome: isFirst ? 'added' : 'skipped', id: entry.id };
      }),
    ].sort((a, b) => a.line - b.line);
    const tally = (outcome: LineOutcome['outcome']): number => lines.filter((line) => line.outcome === outcome).length;
    return E.right({ added: tally('added'), skipped: tally('skipped'), refused: tally('refused'), lines });
  }
}

const at = ({ line, column }: TextPosition): string => `line ${line}, column ${column}`;

/** A file's place where it is refused as a whole: nothing of it is imported. */
export const refusedAt = (position: TextPosition, why: string): string =>
  `${at(position)}: ${why}; nothing was imported`;

/**
 * The text of an import file without its byte order mark, or why none of it can be taken: bytes
 * that are not UTF-8, or a character written as itself that XML cannot carry.
 */
function importedText(file: ImportFile): E.Either<string, string> {
  if (!('bytes' in file)) return checkedText(file.content);
  const decoded = strictlyDecoded(file.bytes);
  return decoded === undefined
    ? E.left(refusedAt(firstBadUtf8Position(file.bytes)!, 'bytes that are not UTF-8'))
    : checkedText(decoded);
}

function checkedText(decoded: string): E.Either<string, string> {
  const text = decoded.startsWith('\uFEFF') ? decoded.slice(1) : decoded;
  const bad = firstCharacterXmlCannotCarry(text);
  return bad === undefined
    ? E.right(text)
    : E.left(refusedAt(positionOf(text, bad), `${codePointOf(text.slice(bad))}, one of the ${XML_CANNOT_CARRY_RULE}`));
}
