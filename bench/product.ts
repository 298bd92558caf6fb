/**
 * The product started as a user runs it, with a user and a token made through its CLI.
 */
import autocannon from 'autocannon';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { promisify } from 'node:util';
import { nodeCommand, type Pinning } from './cpu-pinning.js';
import {
  freePort,
  HOST,
  ROOT,
  ServerFailure,
  ServerProcess,
  servers,
  temporaryDirs,
  waitUntilReady,
} from './server-processes.js';
import { CONNECTIONS, type Target } from './measurement.js';
import { startScriptLaunch } from '../tests/support/program.js';

const execFileAsync = promisify(execFile);
/** A billion requests per 10 s: the limiter counts each request, and none is ever refused. */
export const UNREACHABLE_RATE_LIMIT = '1000000000/10';
const CLI_TIMEOUT_MS = 60_000;

/** Settings the product reads from the environment; inherited ones would make the run depend on the shell. */
const PRODUCT_SETTINGS = /^(NODE_ENV|PORT|HOST|DATABASE_URL|LOG_LEVEL|UTILITY_API_.*)$/;

function productEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!PRODUCT_SETTINGS.test(name)) env[name] = value;
  return { ...env, ...overrides };
}

async function runCli(env: NodeJS.ProcessEnv, args: readonly string[], root: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync(process.execPath, ['bin/utility-api.js', ...args], {
      cwd: root,
      env,
      timeout: CLI_TIMEOUT_MS,
    });
    return stdout;
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new ServerFailure(
      `utility-api ${args.slice(0, 2).join(' ')} failed: ${(error as Error).message.split('\n')[0]}${stderr ? `\n${stderr.trim()}` : ''}`,
    );
  }
}

export interface Product {
  readonly server: ServerProcess;
  readonly baseUrl: string;
  /** Bearer header of a token holding the permissions the product was started with. */
  readonly headers: Record<string, string>;
  /** Its environment: its data folder, port and settings. */
  readonly env: NodeJS.ProcessEnv;
  /** The checkout it runs from: this one, or another build to compare with. */
  readonly root: string;
}

/**
 * The product as a user runs it (`node dist/main.js` with the options `npm start` gives Node, SQLite in a fresh temporary folder, request
 * logging on), with a user and token made through the CLI. Ready once `readyPath` answers 200.
 */
export async function startProduct(
  pinning: Pinning,
  permissions: readonly string[],
  readyPath: string,
  check: (body: string) => string | undefined,
  /** More of the product's settings (`UTILITY_API_*`), such as where its outside services are. */
  settings: Readonly<Record<string, string>> = {},
  /** Another built checkout to run instead of this one (an earlier version, to compare with in the same run). */
  root: string = ROOT,
): Promise<Product> {
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
    // Limiting on, every request counted, and a limit no run can reach.
    UTILITY_API_RATE_LIMIT: UNREACHABLE_RATE_LIMIT,
    ...settings,
  });

  await runCli(
    env,
    ['user', 'create', '--username', 'bench', ...permissions.flatMap((permission) => ['--permission', permission])],
    root,
  );
  const issued = await runCli(env, ['token', 'create', '--username', 'bench'], root);
  const token = issued.trim().split('\n').at(-1)?.trim() ?? '';
  if (token === '' || /\s/.test(token))
    throw new ServerFailure(`utility-api token create printed no token on its last line:\n${issued}`);

  const baseUrl = `http://${HOST}:${port}`;
  const headers = { authorization: `Bearer ${token}` };
  const server = await serve(pinning, env, baseUrl + readyPath, headers, check, root);
  await withBenchQuota(baseUrl, headers);
  return { server, baseUrl, headers, env, root };
}

/**
 * `BENCH_QUOTA=<requests>/<day|month>` gives the bench's token that quota (through the token's
 * own `PATCH /api/token/update`), so that every request is counted against it as well as the
 * rate limit; unset, the token has none. A billion a day is beyond any run's reach.
 */
async function withBenchQuota(baseUrl: string, headers: Record<string, string>): Promise<void> {
  const asked = process.env.BENCH_QUOTA;
  if (asked === undefined || asked === '') return;
  const match = /^(\d+)\/(day|month)$/.exec(asked);
  if (!match) throw new ServerFailure(`BENCH_QUOTA must look like 1000000000/day, got "${asked}"`);
  const answer = await fetch(`${baseUrl}/api/token/update`, {
    method: 'PATCH',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ quota: { requests: Number(match[1]), per: match[2] } }),
  });
  if (answer.status !== 200)
    throw new ServerFailure(`giving the bench token its quota answered ${answer.status}: ${await answer.text()}`);
}

/**
 * With `BENCH_CPU_PROF=<folder>`, the product writes a CPU profile there when it stops (Node's
 * `--cpu-prof`), to find where a bench's time goes before changing anything.
 */
function profiling(): string[] {
  const folder = process.env.BENCH_CPU_PROF;
  return folder ? ['--cpu-prof', `--cpu-prof-dir=${folder}`] : [];
}

async function serve(
  pinning: Pinning,
  env: NodeJS.ProcessEnv,
  readyUrl: string,
  headers: Record<string, string>,
  check: (body: string) => string | undefined,
  root: string,
): Promise<ServerProcess> {
  // Started as `npm start` starts it (Node's options and the allocator's setting), so that the bench measures what users run.
  const launch = startScriptLaunch();
  const server = new ServerProcess(
    'product (dist/main.js)',
    nodeCommand(pinning, [...launch.nodeOptions, ...profiling(), join(root, 'dist', 'main.js')]),
    { ...env, ...launch.env },
  );
  servers.add(server);
  await waitUntilReady(server, readyUrl, headers, check);
  return server;
}

/**
 * The product started again on what a stopped one left (its data folder, port and token), with
 * some settings changed: a second life of the same installation.
 */
export async function startAgain(
  pinning: Pinning,
  stopped: Product,
  readyPath: string,
  check: (body: string) => string | undefined,
  settings: Readonly<Record<string, string>>,
): Promise<Product> {
  const env = { ...stopped.env, ...settings };
  return {
    ...stopped,
    env,
    server: await serve(pinning, env, stopped.baseUrl + readyPath, stopped.headers, check, stopped.root),
  };
}

/** Asks `product` each path once, so that its caches hold their answers; any answer but 200 stops the run. */
export async function fillCaches(product: Product, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const response = await fetch(product.baseUrl + path, {
      headers: product.headers,
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new ServerFailure(`${path} answered ${response.status}`);
  }
}

/** What a measurement of `path` on `product` is sent to and watches: its URL, its token's headers, its process. */
export const reached = (product: Product, path: string): Pick<Target, 'url' | 'headers' | 'server'> => ({
  url: product.baseUrl + path,
  headers: product.headers,
  server: product.server,
});

/** An endpoint measured against crypto: what it is called and the paths it is asked, in turn. */
export interface MeasuredEndpoint {
  readonly id: string;
  readonly label: string;
  readonly paths: readonly string[];
}

/** The same product's crypto endpoint (the reference, first) and each endpoint, as targets of one run. */
export const targetsBesideCrypto = (
  product: Product,
  cryptoPath: string,
  endpoints: readonly MeasuredEndpoint[],
): Target[] => [
  {
    id: 'c',
    label: 'crypto enc (reference)',
    ...reached(product, cryptoPath),
  },
  ...endpoints.map((endpoint) => ({
    id: endpoint.id,
    label: endpoint.label,
    ...reached(product, endpoint.paths[0]!),
    paths: endpoint.paths,
  })),
];

/**
 * Makes `count` POSTs of a JSON `body` to `path` as the product's bench user, `CONNECTIONS` at a
 * time, to fill it before a measurement (messages queued, tokens made); every one must succeed.
 */
export async function postMany(product: Product, path: string, body: string, count: number): Promise<void> {
  const result = await autocannon({
    url: product.baseUrl + path,
    method: 'POST',
    headers: { ...product.headers, 'content-type': 'application/json' },
    body,
    connections: CONNECTIONS,
    amount: count,
  });
  if (result['2xx'] !== count)
    throw new ServerFailure(
      `${count} POSTs to ${path}: ${result['2xx']} succeeded, ${result.non2xx} refused, ${result.errors} errors`,
    );
}
