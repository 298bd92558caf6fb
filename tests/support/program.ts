import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

/** The project's root, the built server and the CLI binary, as a user runs them. */
export const ROOT = resolve(import.meta.dirname, '../..');
export const MAIN = join(ROOT, 'dist/main.js');
export const CLI = join(ROOT, 'bin/utility-api.js');

/** What `npm start` gives the server beyond `node scripts/start.js`: Node's options and the environment it adds. */
export interface StartScriptLaunch {
  readonly nodeOptions: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/**
 * The options and environment `npm start` starts Node with, read from package.json's start script
 * (`exec env NAME=value … node --option … scripts/start.js`), so that benches and tests start the
 * server as the README's command does. A value that keeps what the caller's environment already
 * holds (`${NAME:+$NAME:}…`) is read as the part the script adds.
 */
export function startScriptLaunch(): StartScriptLaunch {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = scripts.start.split(/\s+/);
  const node = words.indexOf('node');
  const env: Record<string, string> = {};
  for (const word of words.slice(0, node)) {
    const assignment = /^([A-Z_]+)=(?:\$\{\1:\+\$\1:\})?(.*)$/.exec(word);
    if (assignment) env[assignment[1]!] = assignment[2]!;
  }
  return { nodeOptions: words.slice(node + 1).filter((word) => word.startsWith('--')), env };
}

/**
 * The environment for a process started by a test: the test's own, less anything of ours the
 * developer may have set in their shell (settings, a `TOKEN` the README story sets itself, npm's
 * variables, which would tell a nested `npm start` it runs inside `npm test`).
 */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(UTILITY_API_|DATABASE_URL$|PORT$|HOST$|LOG_LEVEL$|NODE_ENV$|TOKEN$|npm_)/.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

export interface LogEntry {
  readonly level: number;
  readonly msg: string;
  readonly pid: number;
  readonly port?: number;
  readonly [field: string]: unknown;
}

export interface Running {
  readonly child: ChildProcess;
  readonly port: number;
  readonly baseUrl: string;
  /** The process that wrote the listening line: the server itself, whoever started it. */
  readonly serverPid: number;
  /** The JSON log lines of standard output. */
  readonly log: LogEntry[];
  readonly stderr: string[];
  /** Everything printed, both streams, in the order read: for assertions on what was never printed. */
  readonly lines: string[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export interface StartOptions {
  /** Default: the built server, `node dist/main.js`. */
  readonly command?: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly env: Record<string, string>;
}

/**
 * Starts the server (on an ephemeral loopback port unless `env` says otherwise) and waits for its
 * listening line; standard output lines that are not JSON (npm's banner) are kept but not parsed.
 */
export function startProgram({ command = process.execPath, args = [MAIN], cwd, env }: StartOptions): Promise<Running> {
  const child = spawn(command, [...args], {
    cwd,
    env: cleanEnv({ PORT: '0', HOST: '127.0.0.1', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: LogEntry[] = [];
  const stderr: string[] = [];
  const lines: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  );
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderr.push(line);
    lines.push(line);
  });
  return new Promise((started, failed) => {
    // Long enough for `npm start` to build dist/ first on a loaded machine.
    const timer = setTimeout(() => failed(new Error(`no listening line within 60 s:\n${lines.join('\n')}`)), 60_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as LogEntry;
      log.push(entry);
      if (entry.msg.startsWith('listening on') && entry.port !== undefined) {
        clearTimeout(timer);
        started({
          child,
          port: entry.port,
          baseUrl: `http://127.0.0.1:${entry.port}`,
          serverPid: entry.pid,
          log,
          stderr,
          lines,
          exited,
          stop: async () => {
            child.kill('SIGTERM');
            return (await exited).code;
          },
        });
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      failed(new Error(`exited with ${code ?? signal} before listening:\n${lines.join('\n')}`));
    });
  });
}
