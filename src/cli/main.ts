import 'reflect-metadata';
import { Command, CommanderError } from 'commander';
import * as E from 'fp-ts/lib/Either.js';
import { FAMILIES } from '../composition/families.js';
import type { AnyFamily } from '../wiring/family.js';
import { loadConfig } from '../config/load-config.js';
import { buildApplication, type Application } from '../container.js';
import { CliFailure } from '../platform/cli/cli-failure.js';
import { orFail, processIo, type CliIo } from '../platform/cli/commands.js';
import { reasonOf } from '../platform/failure-reason.js';

export { processIo, type CliIo };

export function buildCli(io: CliIo = processIo()): Command {
  const print = (line: string): void => void io.stdout.write(`${line}\n`);
  const printJson = (value: unknown): void => print(JSON.stringify(value, null, 2));

  /** Opens the same application graph as the server (no HTTP), runs one use case, closes it. */
  async function withApplication<A>(work: (app: Application) => Promise<A>): Promise<A> {
    const config = loadConfig({ env: io.env });
    if (E.isLeft(config)) throw new CliFailure(config.left.join('\n'));
    // Logs go to the process's stderr (fd 2, not `io`) so that stdout holds only what the command
    // prints; routine ones are noise here.
    const level = io.env.LOG_LEVEL ? config.right.log.level : 'warn';
    let app: Application;
    try {
      // The CLI never delivers mail: a command would take messages and stop before sending them;
      // nor does it compact usage history, prune the audit trail or deliver webhooks, which the servers do: a command
      // has other work for the database.
      app = await buildApplication(
        {
          ...config.right,
          log: { level },
          mail: { ...config.right.mail, worker: false },
          usage: { ...config.right.usage, compaction: false },
          audit: { ...config.right.audit, pruning: false },
          webhooks: { ...config.right.webhooks, worker: false },
        },
        { logFd: 2, recordsFeatureSwitches: false },
      );
    } catch (error) {
      throw new CliFailure(`cannot start: ${reasonOf(error)}`);
    }
    try {
      return await work(app);
    } finally {
      await app.close();
    }
  }

  const program = new Command('utility-api')
    .description('Manage a utility-api installation: users, tokens, database')
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: (text) => void io.stderr.write(text) })
    // Commander's own exit would end whatever process runs the CLI; runCli turns it into an exit code.
    .exitOverride()
    .showHelpAfterError();

  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(() =>
      withApplication(async ({ config }) => {
        // buildApplication has applied them; say where.
        print(`Database is up to date (${config.storage}).`);
      }),
    );

  // Each family's commands, in the families' order, given its own use cases.
  for (const family of FAMILIES as readonly AnyFamily[]) {
    family.commands?.(program, {
      io,
      print,
      printJson,
      orFail,
      withUseCases: (work) =>
        withApplication(({ useCases }) => work((useCases as Record<string, unknown>)[family.name])),
    });
  }

  return program;
}

/** Runs one command line and gives its exit code; what it says goes to `io`'s streams. */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    await buildCli(io).parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    // Commander has already said what was wrong with the command line (or printed the help asked for).
    if (error instanceof CommanderError) return error.exitCode;
    const message = error instanceof CliFailure ? error.message : `unexpected failure: ${reasonOf(error)}`;
    for (const line of message.split('\n')) io.stderr.write(`utility-api: ${line}\n`);
    return 1;
  }
}
