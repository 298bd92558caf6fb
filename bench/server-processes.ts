/**
 * The servers as child processes, cleaned up on every path out (SIGINT, SIGTERM, an uncaught
 * exception), a free port for each, and waiting until one answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 5_000;

/** A server that did not come up (or died): the run cannot say anything, so it exits non-zero. */
export class ServerFailure extends Error {}

const STDERR_TAIL_CHARS = 4_000;

export class ServerProcess {
  readonly exited: Promise<void>;
  exit: string | undefined;
  private stderrTail = '';
  private readonly child: ChildProcess;

  constructor(
    readonly name: string,
    command: { command: string; args: string[] },
    env: NodeJS.ProcessEnv,
  ) {
    // stdout is dropped (the product logs every request there); stderr is read continuously, both
    // to show why a server died and so that a full pipe can never stall the server.
    this.child = spawn(command.command, command.args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.exit ??= `could not be started: ${error.message}`;
        resolve();
      });
      this.child.once('exit', (code, signal) => {
        this.exit ??= signal === null ? `exited with code ${code}` : `was killed by ${signal}`;
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  failure(what: string): ServerFailure {
    const stderr = this.stderrTail.trim();
    return new ServerFailure(`${this.name} ${what}${stderr ? `; its stderr:\n${stderr}` : ''}`);
  }

  async stop(): Promise<void> {
    if (this.exit !== undefined) return;
    this.child.kill('SIGTERM');
    await Promise.race([this.exited, sleep(STOP_GRACE_MS)]);
    if (this.exit !== undefined) return;
    this.child.kill('SIGKILL');
    await Promise.race([this.exited, sleep(STOP_GRACE_MS)]);
  }

  /** For process 'exit', where nothing asynchronous runs any more. */
  killNow(): void {
    if (this.exit === undefined) this.child.kill('SIGKILL');
  }
}

export const servers = new Set<ServerProcess>();
export const temporaryDirs = new Set<string>();

export async function cleanUp(): Promise<void> {
  await Promise.all([...servers].map((server) => server.stop()));
  for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true });
  temporaryDirs.clear();
}

// Last resort for paths that skip cleanUp (an uncaught exception, a second Ctrl-C).
process.on('exit', () => {
  for (const server of servers) server.killNow();
  for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true });
});

let interrupted = false;
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(code);
    interrupted = true;
    process.stderr.write(`\n${signal}: stopping the servers\n`);
    void cleanUp().finally(() => process.exit(code));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error('could not find a free port'))));
    });
  });
}

/** Polls until the URL answers 200 and the body passes `check`; returns the body. */
export async function waitUntilReady(
  server: ServerProcess,
  url: string,
  headers: Record<string, string>,
  check: (body: string) => string | undefined,
): Promise<string> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (server.exit !== undefined) throw server.failure(server.exit);
    try {
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(2_000) });
      const body = await response.text();
      if (response.status === 200) {
        const problem = check(body);
        if (problem === undefined) return body;
        throw server.failure(`answers ${url} wrongly: ${problem}`);
      }
      last = `status ${response.status}: ${body.slice(0, 200)}`;
    } catch (error) {
      if (error instanceof ServerFailure) throw error;
      last = (error as Error).message;
    }
    await sleep(100);
  }
  throw server.failure(`did not answer 200 on ${url} within ${READY_TIMEOUT_MS / 1000} s (last: ${last})`);
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
export const isBase64url = (body: string): string | undefined =>
  BASE64URL.test(body) ? undefined : `not base64url: ${body.slice(0, 100)}`;

/** Resident set size of a process in MB, and its peak, from /proc. */
export function memoryOf(pid: number | undefined): { rss: number; peak: number } {
  const status = pid === undefined ? '' : readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = (field: string): number =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kilobytes('VmRSS') / 1024, peak: kilobytes('VmHWM') / 1024 };
}
