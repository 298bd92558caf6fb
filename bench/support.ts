/**
 * What every benchmark here shares: settings from the environment, CPU pinning, the servers as
 * child processes (cleaned up on every path out), starting the product with a token, and the
 * alternating-segment measurement with its summary. See bench/README.md.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

const execFileAsync = promisify(execFile);

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const HOST = '127.0.0.1';
export const CONNECTIONS = 50;
const READY_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 5_000;
const CLI_TIMEOUT_MS = 60_000;
const MAX_ROUNDS = 1_000;
const MAX_SECONDS = 3_600;

/** A server that did not come up (or died): the run cannot say anything, so it exits non-zero. */
export class ServerFailure extends Error {}

/** A BENCH_* variable that is not a usable number. */
class SettingsError extends Error {}

// ---------------------------------------------------------------------------------------------
// Settings

export interface Settings {
  readonly warmupSeconds: number;
  readonly segmentSeconds: number;
  readonly rounds: number;
}

function positiveNumber(name: string, fallback: number, max: number, integer: boolean): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > max || (integer && !Number.isInteger(value))) {
    throw new SettingsError(`${name} must be a positive ${integer ? 'integer' : 'number'} up to ${max}, got "${raw}"`);
  }
  return value;
}

export const readSettings = (): Settings => ({
  warmupSeconds: positiveNumber('BENCH_WARMUP_SECONDS', 3, MAX_SECONDS, false),
  segmentSeconds: positiveNumber('BENCH_SEGMENT_SECONDS', 3, MAX_SECONDS, false),
  rounds: positiveNumber('BENCH_ROUNDS', 10, MAX_ROUNDS, true),
});

// ---------------------------------------------------------------------------------------------
// CPU pinning: with the load generator and the servers on separate cores, a server never competes
// with autocannon for CPU, so differences between targets are differences between the servers.

export type Pinning = { readonly mode: 'pinned'; readonly clientCpu: number; readonly serverCpu: number } | { readonly mode: 'unpinned'; readonly reason: string };

/** "0,2-3" -> [0, 2, 3], the format `taskset -c -p` prints. */
function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!match) continue;
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    for (let cpu = first; cpu <= last && cpus.length < 4096; cpu++) cpus.push(cpu);
  }
  return cpus;
}

export async function pinSelf(): Promise<Pinning> {
  // availableParallelism() honours the affinity mask, so it is the number `nproc` prints.
  const count = availableParallelism();
  if (count < 2) return { mode: 'unpinned', reason: `only ${count} CPU available` };
  let allowed: number[];
  try {
    const { stdout } = await execFileAsync('taskset', ['-c', '-p', String(process.pid)]);
    allowed = parseCpuList(stdout.slice(stdout.lastIndexOf(':') + 1));
  } catch (error) {
    return { mode: 'unpinned', reason: `taskset unavailable (${(error as Error).message.split('\n')[0]})` };
  }
  const [clientCpu, serverCpu] = allowed;
  if (clientCpu === undefined || serverCpu === undefined) return { mode: 'unpinned', reason: 'fewer than 2 CPUs in the affinity mask' };
  try {
    // -a: every thread of this process (libuv pool included), and threads started later inherit it.
    await execFileAsync('taskset', ['-a', '-c', '-p', String(clientCpu), String(process.pid)]);
  } catch (error) {
    return { mode: 'unpinned', reason: `taskset could not pin this process (${(error as Error).message.split('\n')[0]})` };
  }
  return { mode: 'pinned', clientCpu, serverCpu };
}

/** `node <args>`, under `taskset` on the server core when pinning. */
export function nodeCommand(pinning: Pinning, args: readonly string[]): { command: string; args: string[] } {
  return pinning.mode === 'pinned'
    ? { command: 'taskset', args: ['-c', String(pinning.serverCpu), process.execPath, ...args] }
    : { command: process.execPath, args: [...args] };
}

// ---------------------------------------------------------------------------------------------
// Child processes

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
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
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
export async function waitUntilReady(server: ServerProcess, url: string, headers: Record<string, string>, check: (body: string) => string | undefined): Promise<string> {
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
export const isBase64url = (body: string): string | undefined => (BASE64URL.test(body) ? undefined : `not base64url: ${body.slice(0, 100)}`);

/** Settings the product reads from the environment; inherited ones would make the run depend on the shell. */
const PRODUCT_SETTINGS = /^(NODE_ENV|PORT|HOST|DATABASE_URL|LOG_LEVEL|UTILITY_API_.*)$/;

export function productEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!PRODUCT_SETTINGS.test(name)) env[name] = value;
  return { ...env, ...overrides };
}


export async function runCli(env: NodeJS.ProcessEnv, args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await execFileAsync(process.execPath, ['bin/utility-api.js', ...args], { cwd: ROOT, env, timeout: CLI_TIMEOUT_MS });
    return stdout;
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new ServerFailure(`utility-api ${args.slice(0, 2).join(' ')} failed: ${(error as Error).message.split('\n')[0]}${stderr ? `\n${stderr.trim()}` : ''}`);
  }
}


export interface Product {
  readonly server: ServerProcess;
  readonly baseUrl: string;
  /** Bearer header of a token holding the permissions the product was started with. */
  readonly headers: Record<string, string>;
}

/**
 * The product as a user runs it (`node dist/main.js`, SQLite in a fresh temporary folder, request
 * logging on), with a user and token made through the CLI. Ready once `readyPath` answers 200.
 */
export async function startProduct(pinning: Pinning, permissions: readonly string[], readyPath: string, check: (body: string) => string | undefined): Promise<Product> {
  const dataDir = mkdtempSync(join(tmpdir(), 'utility-api-bench-'));
  temporaryDirs.add(dataDir);
  const port = await freePort();
  const env = productEnv({
    PORT: String(port),
    // Keeps the product off the network while it is hammered; the bench only talks to 127.0.0.1.
    HOST,
    UTILITY_API_DATA_DIR: dataDir,
    UTILITY_API_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'info',
  });

  await runCli(env, ['user', 'create', '--username', 'bench', ...permissions.flatMap((permission) => ['--permission', permission])]);
  const issued = await runCli(env, ['token', 'create', '--username', 'bench']);
  const token = issued.trim().split('\n').at(-1)?.trim() ?? '';
  if (token === '' || /\s/.test(token)) throw new ServerFailure(`utility-api token create printed no token on its last line:\n${issued}`);

  const server = new ServerProcess('product (dist/main.js)', nodeCommand(pinning, ['dist/main.js']), env);
  servers.add(server);
  const baseUrl = `http://${HOST}:${port}`;
  const headers = { authorization: `Bearer ${token}` };
  await waitUntilReady(server, baseUrl + readyPath, headers, check);
  return { server, baseUrl, headers };
}

// ---------------------------------------------------------------------------------------------
// Measuring

export interface Tally {
  ok: number;
  non2xx: number;
  errors: number;
  seconds: number;
  /** Server CPU (user + system) spent in the segments, when /proc tells it. */
  cpuSeconds: number;
  readonly p99s: number[];
  readonly rpsPerRound: number[];
}

/** Linux's clock ticks per second for /proc times; 100 on every mainstream kernel build. */
const CLOCK_TICKS = 100;

/** CPU seconds a process has used so far, or undefined where /proc is not there to ask. */
export function cpuSecondsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // The command name in field 2 may hold spaces; the fields after it are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** Time the hypervisor gave to other guests, as a share of all CPU time, between two readings. */
export function machineTimes(): { steal: number; total: number } | undefined {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    return { steal: cpu[7] ?? 0, total: cpu.slice(0, 8).reduce((sum, value) => sum + value, 0) };
  } catch {
    return undefined;
  }
}

/** One thing to load: a URL with its headers, served by `server`. */
export interface Target {
  readonly id: string;
  readonly label: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly server: ServerProcess;
  /**
   * Paths (with query) to go through in turn instead of the URL's own, so a cache in the server
   * cannot answer every request from one entry; a function makes one per request.
   */
  readonly paths?: readonly string[] | ((sequence: number) => string);
}

/** Requests made through path functions so far. */
let requestsMade = 0;

export function hit(target: Target, seconds: number): Promise<autocannon.Result> {
  const options: autocannon.Options = { url: target.url, headers: target.headers, connections: CONNECTIONS, pipelining: 1, duration: seconds };
  const paths = target.paths;
  if (paths !== undefined) {
    let inSegment = 0;
    // A function's numbers run on across segments, so no later segment repeats an earlier input.
    const nextPath = typeof paths === 'function' ? () => paths(requestsMade++) : () => paths[inSegment++ % paths.length]!;
    options.requests = [
      {
        setupRequest: (request) => {
          request.path = nextPath();
          return request;
        },
      },
    ];
  }
  return autocannon(options);
}

export function assertAlive(): void {
  for (const server of servers) if (server.exit !== undefined) throw server.failure(`${server.exit} during the run`);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export const fixed = (value: number, digits: number): string => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')).join('\n');
}

export interface Measured {
  readonly target: Target;
  readonly tally: Tally;
  readonly rps: number;
  readonly cpuMicrosPerRequest: number;
  readonly p99Median: number;
  readonly p99Worst: number;
}

export interface Measurement {
  readonly results: readonly Measured[];
  /** Share of all CPU time the hypervisor gave to other guests during the rounds, when /proc tells it. */
  readonly stealShare: number | undefined;
}

/** Prints which CPUs the client and the servers run on, and the load about to be applied. */
export function describeRun(pinning: Pinning, settings: Settings, targetIds: readonly string[]): void {
  console.log(
    pinning.mode === 'pinned'
      ? `CPU pinning: on (autocannon on CPU ${pinning.clientCpu}, servers on CPU ${pinning.serverCpu})`
      : `CPU pinning: off (${pinning.reason}); client and servers share the CPUs`,
  );
  console.log(
    `Load: ${CONNECTIONS} connections, pipelining 1; warm-up ${settings.warmupSeconds} s per target, ` +
      `then ${settings.rounds} rounds of ${targetIds.join(', ')} at ${settings.segmentSeconds} s each`,
  );
}

/**
 * Warms each target, then loads them in alternating short segments, round after round, so that
 * whatever else the machine does hurts every target alike.
 */
export async function measureRounds(targets: readonly Target[], settings: Settings): Promise<Measurement> {
  for (const target of targets) {
    console.log(`warm-up  ${target.id}  ${target.label}`);
    await hit(target, settings.warmupSeconds);
    assertAlive();
  }
  const tallies = new Map<string, Tally>(targets.map((target) => [target.id, { ok: 0, non2xx: 0, errors: 0, seconds: 0, cpuSeconds: 0, p99s: [], rpsPerRound: [] }]));
  const labelWidth = Math.max(...targets.map((target) => target.label.length));
  const machineBefore = machineTimes();
  for (let round = 1; round <= settings.rounds; round++) {
    for (const target of targets) {
      const cpuBefore = cpuSecondsOf(target.server.pid);
      const result = await hit(target, settings.segmentSeconds);
      const cpuAfter = cpuSecondsOf(target.server.pid);
      assertAlive();
      const tally = tallies.get(target.id)!;
      if (cpuBefore !== undefined && cpuAfter !== undefined) tally.cpuSeconds += cpuAfter - cpuBefore;
      tally.rpsPerRound.push(result['2xx'] / result.duration);
      tally.ok += result['2xx'];
      tally.non2xx += result.non2xx;
      tally.errors += result.errors;
      tally.seconds += result.duration;
      tally.p99s.push(result.latency.p99);
      console.log(
        `round ${round}/${settings.rounds}  ${target.id.padEnd(3)} ${target.label.padEnd(labelWidth)}` +
          `${fixed(result['2xx'] / result.duration, 0).padStart(8)} req/s  p99 ${fixed(result.latency.p99, 1).padStart(6)} ms` +
          (result.non2xx + result.errors > 0 ? `  non-2xx ${result.non2xx}  errors ${result.errors}` : ''),
      );
    }
  }
  const machineAfter = machineTimes();
  const results = targets.map((target) => {
    const tally = tallies.get(target.id)!;
    return {
      target,
      tally,
      rps: tally.ok / tally.seconds,
      cpuMicrosPerRequest: tally.cpuSeconds > 0 && tally.ok > 0 ? (tally.cpuSeconds * 1e6) / tally.ok : Number.NaN,
      p99Median: median(tally.p99s),
      p99Worst: Math.max(...tally.p99s),
    };
  });
  const stealShare =
    machineBefore && machineAfter && machineAfter.total > machineBefore.total ? (machineAfter.steal - machineBefore.steal) / (machineAfter.total - machineBefore.total) : undefined;
  return { results, stealShare };
}

/**
 * One target's throughput relative to another's: the median of the rounds' ratios. A round's
 * segments run back to back, so one round compares the servers under the same conditions, and the
 * median shrugs off a round that a noisy neighbour spoiled.
 */
export const roundRatio = (over: Tally, under: Tally): number => median(over.rpsPerRound.map((rps, i) => rps / under.rpsPerRound[i]!));

export function printResults({ results, stealShare }: Measurement): void {
  console.log('');
  console.log(
    table([
      ['target', '2xx total', 'req/s', 'server CPU µs/req', 'p99 ms median', 'p99 ms worst', 'non-2xx', 'conn errors'],
      ...results.map(({ target, tally, rps, cpuMicrosPerRequest, p99Median, p99Worst }) => [
        `${target.id}  ${target.label}`,
        String(tally.ok),
        fixed(rps, 0),
        fixed(cpuMicrosPerRequest, 1),
        fixed(p99Median, 1),
        fixed(p99Worst, 1),
        String(tally.non2xx),
        String(tally.errors),
      ]),
    ]),
  );
  if (stealShare !== undefined) console.log(`\nCPU stolen by the hypervisor during the rounds: ${fixed(stealShare * 100, 1)}%`);
}

export const verdict = (ok: boolean): string => (ok ? 'MET   ' : 'MISSED');

/** Runs a benchmark's main: exit code 2 for bad settings, 1 when a server failed, and always cleans up. */
export async function runBenchmark(main: (settings: Settings) => Promise<void>): Promise<never> {
  let exitCode = 0;
  try {
    await main(readSettings());
  } catch (error) {
    const settingsProblem = error instanceof SettingsError;
    process.stderr.write(`bench: ${error instanceof ServerFailure || settingsProblem ? error.message : ((error as Error).stack ?? String(error))}\n`);
    exitCode = settingsProblem ? 2 : 1;
  }
  await cleanUp();
  process.exit(exitCode);
}
