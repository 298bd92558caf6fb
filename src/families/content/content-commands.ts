import { readFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import type { ContentUseCases } from './content-module.js';
import { CONTENT_KINDS } from './domain/content.js';
import { formatOfFileName, IMPORT_FORMATS, type ImportFormat } from './domain/import-file.js';
import { asNdjson, checkKind } from './domain/manage-content.js';
import { reasonOf } from '../../platform/failure-reason.js';
import { CliFailure } from '../../platform/cli/cli-failure.js';
import type { CommandTools } from '../../platform/cli/commands.js';

type ContentCommandTools = CommandTools<ContentUseCases>;

const LISTED_TEXT_CHARACTERS = 80;
const shortened = (text: string): string =>
  text.length > LISTED_TEXT_CHARACTERS ? `${text.slice(0, LISTED_TEXT_CHARACTERS - 1)}…` : text;

/** `content import|list|delete|export`: how an operator ships facts and quotes whose rights they hold. */
export function contentCommands(program: Command, { print, withUseCases, orFail }: ContentCommandTools): void {
  const content = program.command('content').description('manage stored facts and quotes');
  const kindOption = () => new Option('--kind <kind>', 'fact or quote').choices(CONTENT_KINDS);

  content
    .command('import')
    .description(
      'add the facts or quotes of a file (JSON array, NDJSON or CSV with text, author?, source?) to a category; lines already stored are skipped',
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
        const report = orFail(await useCases.importContent.execute(kind, options.category, { bytes, format }));
        for (const line of report.lines) {
          if (line.outcome === 'refused') print(`${unit} ${line.line}: refused: ${line.reason}`);
          else if (line.outcome === 'skipped') print(`${unit} ${line.line}: skipped: already stored (${line.id})`);
        }
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
    .description('list stored facts and quotes: id, kind/category, author, text')
    .addOption(kindOption())
    .option('--category <name>')
    .action((options: { kind?: string; category?: string }) =>
      withUseCases(async (useCases) => {
        const entries = orFail(await useCases.manageContent.list(options));
        for (const entry of entries)
          print(
            `${entry.id}  ${entry.kind}/${entry.category}  ${entry.author === null ? '' : `${entry.author}: `}${shortened(entry.text)}`,
          );
        print(`${entries.length} stored`);
      }),
    );

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
