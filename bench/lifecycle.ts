/**
 * Start and stop, measured over many runs, on a built tree:
 * `node --import tsx bench/lifecycle.ts` (BENCH_ROUNDS runs, default 10; BENCH_SKIP_START=1 only drains)
 * - how long `npm start` on a built tree takes to answer its first request, in a fresh data
 *   folder (migrations, a generated key) and again in the same folder (a restart); target < 1 s
 *   (issue 32);
 * - what a SIGTERM costs 20 keep-alive clients hammering `/api/crypto/enc` (400 requests each,
 *   the signal after 1,000 answers): answers, refusals of new connections, and failures (resets,
 *   hang-ups), which must be 0; and whether every answered use was written at the stop.
 *   BENCH_IDLE_GRACE_MS sets the server's shutdown.idleGraceMs, to see what a shorter grace loses.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { hammer } from '../tests/support/keep-alive-load.js';
import { median, verdict } from './report.js';
import { ROOT } from './server-processes.js';

const RUNS = Number(process.env.BENCH_ROUNDS ?? 10);
/** Issue 32: `npm start` to the first answer on a built tree. */
const TARGET_START_MS = 1000;
const CLI = join(ROOT, 'bin/utility-api.js');
const KEY = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';

function environment(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!/^(UTILITY_API_|DATABASE_URL$|PORT$|HOST$|LOG_LEVEL$|NODE_ENV$|npm_)/.test(name)) env[name] = value;
  return {
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    UTILITY_API_DATA_DIR: dataDir,
    UTILITY_API_ENCRYPTION_KEY: KEY,
    ...extra,
  };
}

/** Starts the command, waits for its listening line, and returns the port with a promise of its exit code. */
function start(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ port: number; kill(signal: NodeJS.Signals): void; exited: Promise<number | null> }> {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return new Promise((resolve, reject) => {
    void exited.then((code) => reject(new Error(`${command} exited with ${code} before listening`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as { msg: string; port?: number };
      if (entry.msg.startsWith('listening on'))
        resolve({ port: entry.port!, kill: (signal) => child.kill(signal), exited });
    });
  });
}

/** Milliseconds from spawning `npm start` to the first answer. */
async function timeToFirstAnswer(dataDir: string): Promise<number> {
  const began = performance.now();
  const running = await start('npm', ['start', '--silent'], environment(dataDir));
  const answer = await fetch(`http://127.0.0.1:${running.port}/api/openapi.json`);
  await answer.arrayBuffer();
  const elapsed = performance.now() - began;
  running.kill('SIGTERM');
  if ((await running.exited) !== 0 || answer.status !== 200)
    throw new Error('npm start did not answer and stop cleanly');
  return elapsed;
}

function cli(env: NodeJS.ProcessEnv, ...args: string[]): string {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`utility-api ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trimEnd();
}

async function drainRun(dataDir: string, secret: string, tokenId: string): Promise<string[]> {
  const grace = process.env.BENCH_IDLE_GRACE_MS;
  // 8,000 requests of one token would spend the default rate limit.
  const env = environment(dataDir, {
    UTILITY_API_TOKEN_USAGE_FLUSH_MS: '3600000',
    UTILITY_API_RATE_LIMIT: 'off',
    ...(grace ? { UTILITY_API_IDLE_GRACE_MS: grace } : {}),
  });
  const usesBefore = (JSON.parse(cli(env, 'token', 'info', '--id', tokenId)) as { uses: number }).uses;
  const running = await start(process.execPath, [join(ROOT, 'dist/main.js')], env);
  const outcome = await hammer(`http://127.0.0.1:${running.port}`, secret, 20, 400, 1_000, () =>
    running.kill('SIGTERM'),
  );
  const code = await running.exited;
  const written = (JSON.parse(cli(env, 'token', 'info', '--id', tokenId)) as { uses: number }).uses - usesBefore;
  return [
    String(outcome.answered),
    String(outcome.refused),
    String(outcome.failures.length),
    String(code),
    written === outcome.answered ? 'all' : `${written}`,
    outcome.failures.slice(0, 2).join('; '),
  ];
}

const folder = mkdtempSync(join(tmpdir(), 'utility-api-bench-lifecycle-'));
try {
  const fresh: number[] = [];
  const restart: number[] = [];
  for (let run = 0; run < (process.env.BENCH_SKIP_START ? 0 : RUNS); run++) {
    const dataDir = join(folder, `start-${run}`);
    fresh.push(await timeToFirstAnswer(dataDir));
    restart.push(await timeToFirstAnswer(dataDir));
  }
  const summary = (times: number[]) =>
    `median ${Math.round(median(times))} ms, worst ${Math.round(Math.max(...times))} ms`;
  console.log(`npm start to first answer over ${RUNS} runs (target < ${TARGET_START_MS} ms)`);
  console.log(`  fresh data folder: ${summary(fresh)}`);
  console.log(`  restart:           ${summary(restart)}`);
  if (fresh.length > 0)
    console.log(
      `  ${verdict(median(fresh) < TARGET_START_MS)}  median start in a fresh data folder < ${TARGET_START_MS} ms`,
    );

  const dataDir = join(folder, 'drain');
  const env = environment(dataDir);
  cli(env, 'user', 'create', '--username', 'bench', '--permission', 'Cryptography::*');
  const secret = cli(env, 'token', 'create', '--username', 'bench').split('\n').at(-1)!;
  const tokenId = (JSON.parse(cli(env, 'token', 'list', '--username', 'bench')) as { id: string }[])[0]!.id;
  console.log(`\nSIGTERM under 20 keep-alive clients, ${RUNS} runs (target: 0 failed, exit 0, every use written)`);
  console.log('run  answered  refused  failed  exit  uses written  failures');
  let failed = 0;
  for (let run = 1; run <= RUNS; run++) {
    const row = await drainRun(dataDir, secret, tokenId);
    failed += Number(row[2]);
    console.log(
      `${String(run).padStart(3)}  ${row[0]!.padStart(8)}  ${row[1]!.padStart(7)}  ${row[2]!.padStart(6)}  ${row[3]!.padStart(4)}  ${row[4]!.padStart(12)}  ${row[5]}`,
    );
  }
  console.log(`failed requests in all: ${failed}`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
