import { readFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import type { ContentUseCases } from './content-module.js';
import { checkCategory, CONTENT_KINDS, type ContentEntry, type ContentKind } from './domain/content.js';
import type { ImportProgress } from './domain/import-content.js';
import { formatOfFileName, IMPORT_FORMATS, type ImportFormat } from './domain/import-file.js';
import { MAX_CONTENT_PAGE } from './domain/list-content.js';
import { asNdjson, checkKind } from './domain/manage-content.js';
import { reasonOf } from '../../platform/failure-reason.js';
import { CliFailure } from '../../platform/cli/cli-failure.js';
import type { CommandTools } from '../../platform/cli/commands.js';

type ContentCommandTools = CommandTools<ContentUseCases>;

const LISTED_TEXT_CHARACTERS = 80;
const shortened = (text: string): string =>
  text.length > LISTED_TEXT_CHARACTERS ? `${text.slice(0, LISTED_TEXT_CHARACTERS - 1)}…` : text;

const describeEntry = (entry: ContentEntry): string =>
  `${entry.id}  ${entry.kind}/${entry.category}  ${entry.author === null ? '' : `${entry.author}: `}${shortened(entry.text)}`;

/** Redrawn at most this often: a terminal need not be written 20,000 times. */
const PROGRESS_EVERY_MS = 100;
const ERASE_LINE = '\r\u001b[2K';

/**
 * An import's progress on one line of a terminal, redrawn as it goes and erased at the end;
 * nothing at all when `stream` is not a terminal (a pipe, a file, a CI log), which gets the
 * summary alone.
 */
function progressOn(
  stream: NodeJS.WritableStream,
  unit: string,
): { readonly show: (step: ImportProgress) => void; readonly end: () => void } | undefined {
  if ((stream as { isTTY?: boolean }).isTTY !== true) return undefined;
  let shownAt = -Infinity;
  let shown = false;
  return {
    show: ({ phase, done, total }) => {
      const now = performance.now();
      if (now - shownAt < PROGRESS_EVERY_MS && done < total) return;
      shownAt = now;
      shown = true;
      const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
      const what = phase === 'checking' ? `checking ${unit}s` : 'storing';
      stream.write(`${ERASE_LINE}${what}: ${done.toLocaleString('en')} of ${total.toLocaleString('en')} (${percent}%)`);
    },
    end: () => {
      if (shown) stream.write(ERASE_LINE);
    },
  };
}

/** A page size typed as a flag, checked before the database is opened. */
function pageSize(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const limit = /^[0-9]{1,3}$/.test(text) ? Number(text) : NaN;
  if (!(limit >= 1 && limit <= MAX_CONTENT_PAGE))
    throw new CliFailure(`Invalid --limit: it must be a whole number from 1 to ${MAX_CONTENT_PAGE}, got "${text}"`);
  return limit;
}

/** `content import|list|delete|export`: how an operator ships facts and quotes whose rights they hold. */
export function contentCommands(program: Command, { io, print, withUseCases, orFail }: ContentCommandTools): void {
  const content = program.command('content').description('manage stored facts and quotes');
  const kindOption = () => new Option('--kind <kind>', 'fact or quote').choices(CONTENT_KINDS);

  content
    .command('import')
    .description(
      'add the facts or quotes of a file (JSON array, NDJSON or CSV with text, author?, source?) to a category; lines already stored are skipped and counted; progress shows on a terminal',
    )
    .argument('<file>', 'the file; its format by its extension (.json, .ndjson or .jsonl, .csv) unless --format says')
    .addOption(kindOption().makeOptionMandatory())
    .requiredOption('--category <name>', 'lower-case letters, digits and inner hyphens, e.g. stoics')
    .addOption(
      new Option('--format <format>', 'the file format, when its extension does not say').choices(IMPORT_FORMATS),
    )
    .action(async (file: string, options: { kind: string; category: string; format?: ImportFormat }) => {
      const format = options.format ?? formatOfFileName(file);
      if (format === undefined)
        throw new CliFailure(
          `cannot tell the format of ${file} from its extension; give --format ${IMPORT_FORMATS.join('|')}`,
        );
      // As bytes: reading them as UTF-8 here would turn bytes that are not into U+FFFD unseen.
      let bytes: Uint8Array;
      try {
        bytes = await readFile(file);
      } catch (error) {
        throw new CliFailure(`cannot read ${file}: ${reasonOf(error)}`);
      }
      const kind = orFail(checkKind(options.kind));
      const unit = format === 'json' ? 'item' : 'line';
      await withUseCases(async (useCases) => {
        const progress = progressOn(io.stderr, unit);
        let outcome;
        try {
          outcome = await useCases.importContent.execute(kind, options.category, { bytes, format }, progress?.show);
        } finally {
          progress?.end();
        }
        const report = orFail(outcome);
        // What needs fixing, line by line; what was already there is only counted (a re-import skips every line).
        for (const line of report.lines)
          if (line.outcome === 'refused') print(`${unit} ${line.line}: refused: ${line.reason}`);
        print(
          `Imported into ${kind}/${options.category}: ${report.added} added, ${report.skipped} skipped, ${report.refused} refused`,
        );
        // The good lines are stored; the exit code still tells a script that some were not.
        if (report.refused > 0)
          throw new CliFailure(
            `${report.refused} ${unit}(s) refused; fix them and import again (stored ones are skipped)`,
          );
      });
    });

  content
    .command('list')
    .description(
      'list stored facts and quotes (id, kind/category, author, text) in order of id: every one, page after page, or one page of a kind with --limit',
    )
    .addOption(kindOption())
    .option('--category <name>')
    .option('--limit <n>', `one page of at most n (1 to ${MAX_CONTENT_PAGE}) of --kind, then the cursor of the next`)
    .option('--cursor <cursor>', 'go on after the page that printed it, with the same --kind and --category')
    .action((options: { kind?: string; category?: string; limit?: string; cursor?: string }) => {
      // Flags are read before the database is opened: a mistyped one costs nothing.
      const limit = pageSize(options.limit);
      const kind = options.kind === undefined ? undefined : orFail(checkKind(options.kind));
      const category = options.category === undefined ? undefined : orFail(checkCategory(options.category));
      if (kind === undefined && (limit !== undefined || options.cursor !== undefined))
        throw new CliFailure(`Missing --kind: a page is of one kind; give --kind ${CONTENT_KINDS.join(' or ')}`);
      return withUseCases(async ({ listContent }) => {
        const pageOf = async (of: ContentKind, size: number, cursor: string | undefined) =>
          orFail(await listContent.page(of, { category, limit: size, cursor }));
        if (limit !== undefined) {
          const page = await pageOf(kind!, limit, options.cursor);
          for (const entry of page.entries) print(describeEntry(entry));
          if (page.nextCursor !== null) print(`next page: --cursor ${page.nextCursor}`);
          return;
        }
        // Every entry, a page at a time: however many are stored, the CLI holds one page of them.
        let listed = 0;
        for (const of of kind === undefined ? CONTENT_KINDS : [kind]) {
          let cursor = options.cursor;
          do {
            const page = await pageOf(of, MAX_CONTENT_PAGE, cursor);
            for (const entry of page.entries) print(describeEntry(entry));
            listed += page.entries.length;
            cursor = page.nextCursor ?? undefined;
          } while (cursor !== undefined);
        }
        print(`${listed} stored`);
      });
    });

  content
    .command('delete')
    .description('delete one fact or quote by its id')
    .requiredOption('--id <id>', 'as content list shows it')
    .action((options: { id: string }) =>
      withUseCases(async (useCases) => {
        const id = orFail(await useCases.manageContent.delete(options.id));
        print(`Deleted ${id}`);
      }),
    );

  content
    .command('export')
    .description('write the facts or quotes of one category as NDJSON, as content import reads it back')
    .addOption(kindOption().makeOptionMandatory())
    .requiredOption('--category <name>')
    .action((options: { kind: string; category: string }) =>
      withUseCases(async (useCases) => {
        const entries = orFail(await useCases.manageContent.list(options));
        const lines = asNdjson(entries);
        if (lines !== '') print(lines.slice(0, -1));
      }),
    );
}
