import { Readable, Writable } from 'node:stream';
import { runCli } from '../../src/cli/main.js';

export interface CliResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Where `token create` prints the secret. */
  readonly lastLine: string;
}

/** Standard input as a pipe would bring it: these chunks, then the end. */
export type Stdin = string | Buffer | readonly (string | Buffer)[];

/** A key of its own, so that no command writes one into a data folder. */
export const TEST_ENCRYPTION_KEY = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';

function collector(): { stream: Writable; text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * Runs one command line through the CLI's entry function in this process, as a shell would run the
 * binary: with exactly these environment variables (none of the developer's) and this standard
 * input, and gives back what a user would see on the terminal.
 */
export async function runCommand(
  env: Record<string, string>,
  args: readonly string[],
  stdin: Stdin = [],
): Promise<CliResult> {
  const stdout = collector();
  const stderr = collector();
  const chunks = typeof stdin === 'string' || Buffer.isBuffer(stdin) ? [stdin] : stdin;
  const status = await runCli(args, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from(
      chunks.map((chunk) => Buffer.from(chunk)),
      { objectMode: false },
    ),
    env: { UTILITY_API_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, ...env },
  });
  const out = stdout.text();
  return { status, stdout: out, stderr: stderr.text(), lastLine: out.trimEnd().split('\n').at(-1) ?? '' };
}

/** `runCommand` bound to one installation's settings: `cli('user', 'list')`. */
export const cliOn =
  (env: Record<string, string>) =>
  (...args: string[]) =>
    runCommand(env, args);
