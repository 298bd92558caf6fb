/**
 * The product started as a user runs it, with a user and a token made through its CLI.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { promisify } from 'node:util';
import { nodeCommand, type Pinning } from './cpu-pinning.js';
import { freePort, HOST, ROOT, ServerFailure, ServerProcess, servers, temporaryDirs, waitUntilReady } from './server-processes.js';

const execFileAsync = promisify(execFile);
const CLI_TIMEOUT_MS = 60_000;

/** Settings the product reads from the environment; inherited ones would make the run depend on the shell. */
const PRODUCT_SETTINGS = /^(NODE_ENV|PORT|HOST|DATABASE_URL|LOG_LEVEL|UTILITY_API_.*)$/;

function productEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!PRODUCT_SETTINGS.test(name)) env[name] = value;
  return { ...env, ...overrides };
}

async function runCli(env: NodeJS.ProcessEnv, args: readonly string[]): Promise<string> {
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
export async function startProduct(
  pinning: Pinning,
  permissions: readonly string[],
  readyPath: string,
  check: (body: string) => string | undefined,
  /** More of the product's settings (`UTILITY_API_*`), such as where its outside services are. */
  settings: Readonly<Record<string, string>> = {},
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
    ...settings,
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
