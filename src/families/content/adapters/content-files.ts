import { createRequire } from 'node:module';
import * as E from 'fp-ts/lib/Either.js';
import { refusedAt } from '../domain/import-content.js';
import type { ImportRecord } from '../domain/import-file.js';
import type { ImportFileReader } from '../domain/ports.js';
import { firstCharacterXmlCannotCarry, positionOf, XML_CANNOT_CARRY_RULE } from '../../../domain/text.js';

/** What a record may hold; anything else is refused by name rather than dropped. */
const FIELDS = ['text', 'author', 'source'] as const;

/** A string (the text alone) or an object of the known fields. */
function recordOf(line: number, value: unknown): ImportRecord {
  if (typeof value === 'string') return { line, fields: { text: value } };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { line, unreadable: 'expected a string or an object with text, author and source' };
  const unknown = Object.keys(value).filter((name) => !(FIELDS as readonly string[]).includes(name));
  if (unknown.length > 0)
    return { line, unreadable: `unknown field(s): ${unknown.join(', ')} (known: ${FIELDS.join(', ')})` };
  return { line, fields: value };
}

/** JSON arrays, NDJSON and CSV (csv-parse), by the rules of `ImportFileReader`. */
export const importFileReader: ImportFileReader = {
  records(content, format) {
    const text = content.startsWith('\uFEFF') ? content.slice(1) : content;
    if (format !== 'csv') {
      const escape = escapeXmlCannotCarry(text);
      if (escape !== undefined)
        return E.left(
          refusedAt(positionOf(text, escape.at), `${escape.written}, an escape of one of the ${XML_CANNOT_CARRY_RULE}`),
        );
    }
    switch (format) {
      case 'json':
        return readJsonArray(text);
      case 'ndjson':
        return E.right(readNdjson(text));
      case 'csv':
        return readCsv(text);
    }
  },
};

/** Every JSON escape, in order: `\\` and `\"` are read whole, so what follows them is never taken for an escape. */
const JSON_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|[^u])/g;
const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * The first `\uXXXX` escape in JSON text that stands for a character XML cannot carry (`\u0000`,
 * `\uFFFF`, a surrogate escaped without its other half right after it): where it is, as written.
 * Strictly decoded text holds no such character as itself, but JSON can write any code unit.
 */
function escapeXmlCannotCarry(text: string): { readonly at: number; readonly written: string } | undefined {
  let high: RegExpExecArray | undefined;
  for (const escape of text.matchAll(JSON_ESCAPE)) {
    const unit = escape[1] === undefined ? undefined : parseInt(escape[1], 16);
    if (high !== undefined) {
      const pairs = unit !== undefined && isLowSurrogate(unit) && escape.index === high.index + high[0].length;
      if (!pairs) return { at: high.index, written: high[0] };
      high = undefined;
      continue;
    }
    if (unit === undefined) continue;
    if (isHighSurrogate(unit)) high = escape;
    else if (firstCharacterXmlCannotCarry(String.fromCharCode(unit)) !== undefined)
      return { at: escape.index, written: escape[0] };
  }
  return high && { at: high.index, written: high[0] };
}

function readJsonArray(text: string): E.Either<string, ImportRecord[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return E.left(`not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) return E.left('a JSON file must hold an array of strings or objects');
  return E.right(parsed.map((value, index) => recordOf(index + 1, value)));
}

function readNdjson(text: string): ImportRecord[] {
  return text.split(/\r?\n/).flatMap((line, index): ImportRecord[] => {
    if (line.trim() === '') return [];
    try {
      return [recordOf(index + 1, JSON.parse(line))];
    } catch {
      return [{ line: index + 1, unreadable: 'not a JSON value' }];
    }
  });
}

interface CsvRow {
  readonly record: Record<string, string>;
  readonly info: { readonly lines: number };
}

function readCsv(text: string): E.Either<string, ImportRecord[]> {
  const header = /^[^\r\n]*/.exec(text)![0];
  const columns = header.split(',').map((name) => name.trim());
  const unknown = columns.filter((name) => !(FIELDS as readonly string[]).includes(name));
  if (!columns.includes('text') || unknown.length > 0)
    return E.left(
      `the first line must name the columns: text, and optionally author and source (found ${header === '' ? 'nothing' : header})`,
    );
  const refused: ImportRecord[] = [];
  let rows: CsvRow[];
  try {
    // Loaded with the first CSV import: a process that imports none starts without it.
    const { parse: parseCsv } = createRequire(import.meta.url)('csv-parse/sync') as typeof import('csv-parse/sync');
    rows = parseCsv(text, {
      columns: true,
      info: true,
      trim: false,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (error) =>
        void refused.push({ line: Number(error?.lines ?? 0), unreadable: error?.message ?? 'unreadable' }),
    }) as CsvRow[];
  } catch (error) {
    return E.left(`not CSV: ${(error as Error).message}`);
  }
  const records = rows.map(({ record, info }): ImportRecord => ({
    line: info.lines,
    // An empty cell of an optional column is no value, as in a spreadsheet.
    fields: Object.fromEntries(Object.entries(record).filter(([name, value]) => name === 'text' || value !== '')),
  }));
  return E.right([...records, ...refused].sort((a, b) => a.line - b.line));
}
