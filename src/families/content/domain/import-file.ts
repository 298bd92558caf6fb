/** What an import file is: its formats, and the records its parser reads from it. */

/** The formats of an import file: a JSON array, NDJSON, CSV; each record has `text` and may have `author` and `source`. */
export const IMPORT_FORMATS = ['json', 'ndjson', 'csv'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The format a file's name says: `.json`, `.ndjson` or `.jsonl`, `.csv`. */
export function formatOfFileName(name: string): ImportFormat | undefined {
  const extension = /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase();
  switch (extension) {
    case 'json':
      return 'json';
    case 'ndjson':
    case 'jsonl':
      return 'ndjson';
    case 'csv':
      return 'csv';
    default:
      return undefined;
  }
}

/** An import file: its bytes as read (checked to be UTF-8 here), or its text when it is already one; and its format. */
export type ImportFile = { readonly format: ImportFormat } & (
  { readonly bytes: Uint8Array } | { readonly content: string }
);

/** One record of an import file as its parser read it: the fields, or why the line could not be read. */
export type ImportRecord =
  | {
      readonly line: number;
      readonly fields: { readonly text?: unknown; readonly author?: unknown; readonly source?: unknown };
    }
  | { readonly line: number; readonly unreadable: string };
