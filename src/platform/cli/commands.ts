import type { Command } from 'commander';
import * as E from 'fp-ts/lib/Either.js';
import { catalogueEntryOf, detailsOf, type DomainError } from '../../domain/errors.js';
import { CliFailure } from './cli-failure.js';

/**
 * What a command reads and writes: the process's own streams and environment from the binary,
 * a test's from a test, so that a test sees exactly what a user would without starting a process.
 */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  /** Where settings are read from, as the server reads its own (PORT, DATABASE_URL, ...). */
  readonly env: NodeJS.ProcessEnv;
}

export const processIo = (): CliIo => ({
  stdout: process.stdout,
  stderr: process.stderr,
  // Only a command that reads it touches it: an opened terminal stdin can keep the process alive.
  get stdin() {
    return process.stdin;
  },
  env: process.env,
});

/** The flag a user types for each input field the use cases name. */
const FLAG_OF_FIELD: Readonly<Record<string, string>> = {
  username: '--username',
  firstname: '--first-name',
  lastname: '--last-name',
  email: '--email',
  password: '--password-stdin',
  displayname: '--display-name',
  permissions: '--permission',
  perms: '--permission',
  name: '--name',
  kind: '--kind',
  category: '--category',
  id: '--id',
  file: 'FILE',
  status: '--status',
  limit: '--limit',
  query: '--query',
  cursor: '--cursor',
  permission: '--permission',
  blocked: '--blocked',
  from: '--from',
  to: '--to',
  actor: '--actor',
  target: '--target',
  action: '--action',
  url: '--url',
  events: '--event',
  description: '--description',
  scope: '--scope',
  disabled: '--disable',
  delivery: 'DELIVERY',
};

/** The use case's result, or a one-line failure naming the catalogue error, or the flag at fault. */
export function orFail<A>(result: E.Either<DomainError, A>): A {
  if (E.isRight(result)) return result.right;
  const error = result.left;
  const details = detailsOf(error);
  if (error._tag === 'InvalidInput' || error._tag === 'MissingInput') {
    const flags = error.fields.map((field) => FLAG_OF_FIELD[field] ?? field).join(', ');
    throw new CliFailure(
      `${error._tag === 'InvalidInput' ? 'Invalid' : 'Missing'} ${flags}${details === undefined ? '' : `: ${details}`}`,
    );
  }
  throw new CliFailure(catalogueEntryOf(error).message + (details === undefined ? '' : `: ${details}`));
}

/** Commander's collector of a repeatable option. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** What a family's commands are given: where to write, how to fail, and its own use cases for the span of one command. */
export interface CommandTools<UseCases> {
  readonly io: CliIo;
  readonly print: (line: string) => void;
  readonly printJson: (value: unknown) => void;
  readonly orFail: <A>(result: E.Either<DomainError, A>) => A;
  /** Opens the same application graph as the server (no HTTP), runs `work` on the family's use cases, closes it. */
  readonly withUseCases: <A>(work: (useCases: UseCases) => Promise<A>) => Promise<A>;
}

/** A family's commands, added to the program. */
export type FamilyCommands<UseCases> = (program: Command, tools: CommandTools<UseCases>) => void;
