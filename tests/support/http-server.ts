import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { API_PREFIX } from '../../src/platform/http/app.js';
import { openApiDocument } from '../../src/platform/http/openapi.js';
import { createHttpServer } from '../../src/platform/http/server.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { AnyFamily } from '../../src/wiring/family.js';
import { buildApplication, databaseSettingsOf, type Application } from '../../src/container.js';
import { openDatabase } from '../../src/platform/persistence/database.js';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import type { User } from '../../src/domain/identity/user.js';
import type { Clock, Randomness } from '../../src/domain/ports.js';
import type { Mailer } from '../../src/families/mail/domain/ports.js';
import type { IssueTokenInput } from '../../src/families/users-and-tokens/domain/tokens/issue-token.js';
import { sqlDatabases } from './databases.js';
import { expectRight } from './either.js';
import { conformanceTo } from './openapi-conformance.js';

export interface TestServer {
  readonly baseUrl: string;
  readonly port: number;
  readonly app: Application;
  /** Like `send`, every answer is checked against the server's own OpenAPI document. */
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /**
   * A request with a bearer token and, when given, a JSON body (or a raw one with its own content
   * type). The answer must be one the server's OpenAPI document lists for that operation, with a
   * body its schema accepts: the test fails otherwise.
   */
  send(method: string, path: string, options: SendOptions): Promise<Response>;
  /**
   * Every user and token in the store and the audit trail's entries, to check that a failed
   * request changed nothing; `audit: false` leaves the trail out, for a request that fails after
   * a password login, which the trail records.
   */
  snapshot(options?: { readonly audit?: boolean }): Promise<unknown>;
  /** Creates a user through the same use cases as the CLI and issues it a token. */
  userWithToken(
    permissions: string[],
    token?: TokenOptions,
  ): Promise<{ username: string; userId: string; uid: string; secret: string }>;
  /** The secret of a token for a new user holding `permissions`. */
  tokenFor(permissions: string[], token?: TokenOptions): Promise<string>;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Environment as the process would see it (storage, database). NODE_ENV is `test`. */
  readonly env?: Record<string, string>;
  readonly overrides?: Record<string, unknown>;
  /** Where the server logs (a file descriptor); log level comes from config (`silent` in tests). */
  readonly logFd?: number;
  /** Where ids, secrets and nonces come from; a seeded source makes them predictable (default: the system's). */
  readonly randomness?: Randomness;
  /** Where the use cases take the time from (default: the system's), for a test that moves it. */
  readonly clock?: Clock;
  /** The families the server is built from (default: src/families/index.ts' list), for a family a test defines. */
  readonly familyList?: readonly AnyFamily[];
  /** An open connection on the database `env` names, that the test owns (and may destroy, for an outage). */
  readonly database?: Knex;
  /** Where mail goes instead of the configured mailer, for a test that reads the deliveries. */
  readonly mailer?: Mailer;
}

type TokenOptions = Omit<IssueTokenInput, 'actor' | 'owner'>;

export interface SendOptions {
  readonly token?: string;
  readonly headers?: Record<string, string>;
  readonly json?: unknown;
  /** A body sent as it is: text, or bytes that need not be UTF-8. */
  readonly raw?: { readonly body: string | Buffer; readonly contentType: string };
}

let userSequence = 0;

/** The real Koa app from the real composition root, on an ephemeral loopback port. */
export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const overrides = { encryption: { key: randomBytes(32).toString('base64') }, ...options.overrides };
  const config = expectRight(
    loadConfig({ env: { NODE_ENV: 'test', ...options.env }, overrides, families: options.familyList }),
  );
  const app = await buildApplication(config, {
    familyList: options.familyList,
    logFd: options.logFd,
    randomness: options.randomness,
    clock: options.clock,
    database: options.database,
    mailer: options.mailer,
  });
  const { server } = createHttpServer(app.httpApp(), { ...config.http, ...config.shutdown });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  // The document the server serves, made here rather than asked for, so that no test sees a request of its own.
  const conformance = conformanceTo(JSON.stringify(openApiDocument(app.routes, API_PREFIX)));
  const checked = async (method: string, url: string, init: RequestInit): Promise<Response> => {
    const response = await fetch(url, { ...init, method, redirect: 'manual' });
    await conformance.check(method, url, response);
    return response;
  };
  const { createUser, issueToken, listUsers, tokenReader } = app.useCases.usersAndTokens;
  const databaseSettings = databaseSettingsOf(config);
  /** The test's own connection to the server's database, for snapshots; the server's may be made to fail. */
  const stored = databaseSettings && openDatabase(databaseSettings);
  const userWithToken: TestServer['userWithToken'] = async (permissions, token = {}) => {
    userSequence += 1;
    const username = `user${userSequence}`;
    const user = expectRight(await createUser.execute({ actor: OPERATOR, username, permissions }));
    const { secret } = expectRight(await issueToken.execute({ actor: OPERATOR, owner: { username }, ...token }));
    return { username, userId: user.id, uid: user.uid, secret };
  };
  return {
    baseUrl,
    port,
    app,
    get: (path, headers = {}) => checked('GET', baseUrl + path, { headers }),
    send: (method, path, { token, headers = {}, json, raw }) => {
      const all: Record<string, string> = { ...headers };
      if (token !== undefined) all.authorization = `Bearer ${token}`;
      let body: string | Buffer | undefined;
      if (json !== undefined) {
        all['content-type'] = 'application/json';
        body = JSON.stringify(json);
      } else if (raw) {
        all['content-type'] = raw.contentType;
        body = raw.body;
      }
      return checked(method, baseUrl + path, { headers: all, body });
    },
    async snapshot({ audit: withAudit = true } = {}) {
      // On a database, every row of the users and tokens as stored, every column: a refused request
      // must change nothing there. Use counts are written in batches, not by the request.
      // The audit trail too: a refused change writes no entry.
      if (stored)
        return {
          users: await stored('users').orderBy('id'),
          tokens: await stored('tokens').orderBy('id'),
          audit: withAudit ? await stored('audit_entries').orderBy('id') : undefined,
        };
      // In memory, each user and token as the operator reads them, less the tokens' use count and last
      // use, which are read with the uses counted since the last batch added in: every request a token
      // is allowed to make counts as one, refused or not.
      const users: User[] = [];
      let cursor: string | undefined;
      do {
        const page = expectRight(await listUsers.execute(OPERATOR, { limit: 100, cursor }));
        users.push(...page.users);
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      const tokens = await Promise.all(
        users.map(async ({ uid }) =>
          expectRight(await tokenReader.list(OPERATOR, { uid })).map(
            ({ uses: _uses, lastUsedAt: _lastUsedAt, ...token }) => token,
          ),
        ),
      );
      // Absent when a test builds the server without the audit family.
      const reader = (app.useCases as Partial<typeof app.useCases>).audit?.readAudit;
      const audit = withAudit && reader && expectRight(await reader.list(OPERATOR, { limit: 100 }));
      return { users, tokens, audit };
    },
    userWithToken,
    tokenFor: async (permissions, token) => (await userWithToken(permissions, token)).secret,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      await stored?.destroy();
    },
  };
}

/** The storage back-ends each HTTP suite runs on. */
export const httpBackends: {
  name: string;
  open: () => Promise<{ env: Record<string, string>; drop(): Promise<void> }>;
}[] = [
  { name: 'memory', open: async () => ({ env: { UTILITY_API_STORAGE: 'memory' }, drop: async () => {} }) },
  ...sqlDatabases,
];

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Sends bytes exactly as given, for requests no well-behaved client would make. */
export function rawRequest(port: number, request: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
    socket.end();
  });
}

export interface ErrorBody {
  readonly code: number;
  readonly message: string;
  readonly details?: string;
  readonly suggestions?: readonly string[];
}

/**
 * Asserts the response is the catalogue's error object: status, JSON type, code, and no stray
 * fields (`suggestions` only beside code 22, where the dictionary gives them).
 */
export async function expectError(response: Response, status: number, code: number): Promise<ErrorBody> {
  expect(response.status, `status for code ${code}`).to.equal(status);
  expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
  const body = (await response.json()) as ErrorBody;
  expect(body.code).to.equal(code);
  const optional = code === 22 ? ['details', 'suggestions'] : ['details'];
  expect(Object.keys(body).filter((k) => !optional.includes(k))).to.deep.equal(['code', 'message']);
  return body;
}

/**
 * Gives a describe block one server on `backend`, started before its tests and stopped after;
 * tests read it as `suite.server`.
 */
export function serverForSuite(
  backend: (typeof httpBackends)[number] = httpBackends[0]!,
  options: Omit<ServerOptions, 'env'> = {},
): { server: TestServer } {
  const suite = {} as { server: TestServer };
  let drop: () => Promise<void> = async () => {};
  before(async () => {
    const database = await backend.open();
    drop = database.drop;
    suite.server = await startServer({ ...options, env: database.env });
  });
  after(async () => {
    await suite.server?.close();
    await drop();
  });
  return suite;
}

/**
 * Two servers on one fresh database of the suite's, made before its tests and closed after: one
 * where a change is made, the other that must hear of it. Their verified-token cache is
 * `verifiedTokenTtlMs` long; far longer than the test, only the access-change announcement can
 * make the other read a token again.
 */
export function twoInstancesForSuite(
  database: { open: () => Promise<{ env: Record<string, string>; drop(): Promise<void> }> },
  { verifiedTokenTtlMs, ...options }: Omit<ServerOptions, 'env' | 'overrides'> & { verifiedTokenTtlMs: number },
): { one: TestServer; other: TestServer } {
  const suite = {} as { one: TestServer; other: TestServer };
  let drop: () => Promise<void> = async () => {};
  before(async () => {
    const shared = await database.open();
    drop = shared.drop;
    const settings = { ...options, env: shared.env, overrides: { auth: { verifiedTokenTtlMs } } };
    suite.one = await startServer(settings);
    suite.other = await startServer(settings);
  });
  after(async () => {
    await suite.one?.close();
    await suite.other?.close();
    await drop();
  });
  return suite;
}
