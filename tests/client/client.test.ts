import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, LOGIN_TOKEN_NAME, type Answer } from '../../src/client/index.js';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { expectRight } from '../support/either.js';
import { startServer, type TestServer } from '../support/http-server.js';
import { SteppedClock } from '../support/manual-clock.js';

/**
 * utility-api/client's behaviour, never mocked: against a live server of ours, or, for what ours
 * does not answer on demand (a 503, a proxy's page, no answer at all), a loopback HTTP server that
 * answers as each test says. Calls are watched through the client's `fetch` option, which hands
 * each request on to the platform's fetch unchanged.
 */

const DAY = 86_400_000;

/** A fetch that notes each request (method, path and Authorization) before sending it as it is. */
function watchedFetch() {
  const sent: { method: string; path: string; authorization: string | null; idempotencyKey: string | null }[] = [];
  const fetcher = (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    sent.push({
      method: request.method,
      path: url.pathname + url.search,
      authorization: request.headers.get('Authorization'),
      idempotencyKey: request.headers.get('Idempotency-Key'),
    });
    return fetch(request);
  };
  return { sent, fetch: fetcher };
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A loopback server that answers the n-th request with the n-th handler (the last one thereafter). */
async function loopback(...handlers: Handler[]): Promise<{ baseUrl: string; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const handler = handlers[Math.min(requests.length, handlers.length) - 1]!;
    request.resume();
    request.on('end', () => handler(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_request, response) => {
    response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
    response.end(JSON.stringify(body));
  };
const busy = (status: 429 | 503, retryAfter: string): Handler =>
  json(status, { code: status === 429 ? 25 : 29, message: 'slow down' }, { 'Retry-After': retryAfter });

describe('client: answers, errors and failures as values', function () {
  this.timeout(30_000);
  let server: TestServer;
  const closing: Server[] = [];
  before(async () => {
    server = await startServer({ env: { UTILITY_API_STORAGE: 'memory' } });
  });
  after(async () => {
    await server?.close();
    for (const one of closing) one.close();
  });

  it('gives a success its body by content type: text, JSON, and an image as a Blob', async () => {
    const api = createClient({ baseUrl: server.baseUrl, token: await server.tokenFor(['*']) });
    const encrypted = await api.GET('/api/crypto/enc', { params: { query: { data: 'hello' } } });
    expect(encrypted.ok && typeof encrypted.data).to.equal('string');
    const decrypted = await api.GET('/api/crypto/dec', { params: { query: { data: encrypted.data! } } });
    expect(decrypted).to.include({ ok: true, data: 'hello', status: 200 });
    const codecs = await api.GET('/api/barcode/codecs');
    expect(codecs.ok && Array.isArray(codecs.data)).to.equal(true);
    const png = await api.GET('/api/barcode/gen/{codec}', {
      params: { path: { codec: 'qrcode' }, query: { content: 'hi', format: 'png' } },
    });
    expect(png.ok).to.equal(true);
    const bytes = new Uint8Array(await png.data!.arrayBuffer());
    expect([...bytes.slice(0, 4)]).to.deep.equal([0x89, 0x50, 0x4e, 0x47]);
    expect(png.headers!.get('Content-Type')).to.equal('image/png');
  });

  it('hands over a catalogue error as a value: {error: {code, message, details}, status, headers}', async () => {
    const api = createClient({ baseUrl: server.baseUrl, token: await server.tokenFor(['Cryptography::Encrypt']) });
    const refused = await api.GET('/api/crypto/dec', { params: { query: { data: 'x' } } });
    expect(refused.ok).to.equal(false);
    expect(refused.failure).to.equal(undefined);
    expect(refused.status).to.equal(403);
    expect(refused.error).to.deep.equal({
      code: 1,
      message: 'You are not authorized to access this resource',
      details: 'Missing permission Cryptography::Decrypt',
    });
    expect(refused.headers!.get('X-Request-Id')).to.match(/^[A-Za-z0-9._:-]+$/);

    const anonymous = await createClient({ baseUrl: server.baseUrl }).GET('/api/crypto/enc', {
      params: { query: { data: 'x' } },
    });
    expect(anonymous.status).to.equal(401);
    expect(anonymous.error?.code).to.equal(3);
  });

  it('tells an answer that is not the API’s (a proxy’s page, JSON that does not parse) from a catalogue error', async () => {
    const proxy = await loopback(
      (_request, response) => {
        response.writeHead(502, { 'Content-Type': 'text/html' });
        response.end('<html><body>Bad Gateway</body></html>');
      },
      (_request, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end('{"cut short');
      },
      json(500, { message: 'not ours' }),
    );
    closing.push(proxy.server);
    const api = createClient({ baseUrl: proxy.baseUrl, token: 't' });
    const page = await api.GET('/api/barcode/codecs');
    expect(page.ok).to.equal(false);
    expect(page.error).to.equal(undefined);
    expect(page.failure).to.deep.include({
      kind: 'unreadable',
      status: 502,
      contentType: 'text/html',
      body: '<html><body>Bad Gateway</body></html>',
    });
    const cut = await api.GET('/api/barcode/codecs');
    expect(cut.failure).to.deep.include({ kind: 'unreadable', status: 200, body: '{"cut short' });
    const foreign = await api.GET('/api/barcode/codecs');
    expect(foreign.failure).to.deep.include({ kind: 'unreadable', status: 500, body: '{"message":"not ours"}' });
  });

  it('answers a network failure and a time-out as failures of their own kind, and the caller’s abort as aborted', async () => {
    const gone = await loopback(json(200, []));
    await new Promise<void>((resolve) => gone.server.close(() => resolve()));
    const unreachable = await createClient({ baseUrl: gone.baseUrl, token: 't' }).GET('/api/barcode/codecs');
    expect(unreachable.ok).to.equal(false);
    expect(unreachable.failure?.kind).to.equal('network');

    // Answers the head, then never the body; or nothing at all.
    const silent = await loopback(
      (_request, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.write('[');
      },
      () => {},
    );
    closing.push(silent.server);
    const api = createClient({ baseUrl: silent.baseUrl, token: 't', timeoutMs: 300 });
    expect((await api.GET('/api/barcode/codecs')).failure).to.deep.equal({ kind: 'timeout', afterMs: 300 });
    expect((await api.GET('/api/barcode/codecs')).failure).to.deep.equal({ kind: 'timeout', afterMs: 300 });
    const controller = new AbortController();
    const stopped = createClient({ baseUrl: silent.baseUrl, token: 't' }).GET('/api/barcode/codecs', {
      signal: controller.signal,
    });
    controller.abort();
    expect((await stopped).failure).to.deep.equal({ kind: 'aborted' });
    silent.server.closeAllConnections();
  });

  it('reads the RateLimit fields into rateLimit and quota, on a success and on an error', async () => {
    const token = await server.tokenFor(['Cryptography::Encrypt'], { quota: { requests: 2, per: 'day' } });
    const api = createClient({ baseUrl: server.baseUrl, token });
    const first = await api.GET('/api/crypto/enc', { params: { query: { data: 'a' } } });
    expect(first.ok).to.equal(true);
    expect(first.rateLimit).to.deep.include({ policy: 'default', limit: 1000, windowSeconds: 10 });
    expect(first.rateLimit!.remaining).to.be.within(0, 999);
    expect(first.quota).to.deep.include({ policy: 'quota', limit: 2, windowSeconds: 86_400, remaining: 1 });
    expect(first.quota!.resetSeconds).to.be.within(1, 86_400);
    await api.GET('/api/crypto/enc', { params: { query: { data: 'b' } } });
    const refused = await api.GET('/api/crypto/enc', { params: { query: { data: 'c' } } });
    expect(refused.status).to.equal(429);
    expect(refused.error?.code).to.equal(25);
    expect(refused.quota).to.deep.include({ remaining: 0, limit: 2 });
    expect(refused.retryAfterSeconds).to.equal(refused.quota!.resetSeconds);

    const open = await api.GET('/livez');
    expect(open.ok).to.equal(true);
    expect(open.rateLimit).to.equal(undefined);
    expect(open.quota).to.equal(undefined);
  });
});

describe('client: retry of 429 and 503 after Retry-After', function () {
  this.timeout(30_000);
  const servers: Server[] = [];
  after(() => servers.forEach((server) => server.close()));
  const answering = async (...handlers: Handler[]) => {
    const served = await loopback(...handlers);
    servers.push(served.server);
    return served;
  };

  it('is off by default: the 429 is the answer', async () => {
    const served = await answering(busy(429, '0'), json(200, []));
    const answer = await createClient({ baseUrl: served.baseUrl, token: 't' }).GET('/api/barcode/codecs');
    expect(answer).to.include({ ok: false, status: 429, retryAfterSeconds: 0 });
    expect(served.requests).to.have.length(1);
  });

  it('retries a GET after each 429 or 503, at most the times given, and answers the last', async () => {
    const served = await answering(busy(429, '0'), busy(503, '1'), json(200, ['qrcode']));
    const api = createClient({ baseUrl: served.baseUrl, token: 't', retry: { times: 2 } });
    const answer = await api.GET('/api/barcode/codecs');
    expect(answer).to.deep.include({ ok: true, data: ['qrcode'] });
    expect(served.requests).to.deep.equal(Array(3).fill('GET /api/barcode/codecs'));

    const always = await answering(busy(503, '0'));
    const gaveUp = await createClient({ baseUrl: always.baseUrl, token: 't', retry: { times: 3 } }).GET(
      '/api/barcode/codecs',
    );
    expect(gaveUp).to.include({ ok: false, status: 503 });
    expect(always.requests).to.have.length(4);
  });

  it('does not retry another error, a 429 without Retry-After, or one asking for longer than maxWaitMs', async () => {
    const served = await answering(
      json(500, { code: 0, message: 'An unknown error occurred' }),
      json(429, { code: 25, message: 'slow down' }),
      busy(429, '120'),
      json(200, []),
    );
    const api = createClient({ baseUrl: served.baseUrl, token: 't', retry: { times: 5, maxWaitMs: 10_000 } });
    expect((await api.GET('/api/barcode/codecs')).status).to.equal(500);
    expect((await api.GET('/api/barcode/codecs')).status).to.equal(429);
    expect((await api.GET('/api/barcode/codecs')).status).to.equal(429);
    expect(served.requests).to.have.length(3);
  });

  it('never retries a POST or PATCH without an Idempotency-Key, and retries one that carries it', async () => {
    const served = await answering(busy(429, '0'), busy(503, '0'), busy(503, '0'), json(202, { id: 'm1' }));
    const watched = watchedFetch();
    const api = createClient({ baseUrl: served.baseUrl, token: 't', retry: { times: 3 }, fetch: watched.fetch });
    const mail = { to: 'ada@example.com', subject: 'Hello', content: 'Hi' };
    expect((await api.POST('/api/mail/send', { body: mail })).status).to.equal(429);
    expect(
      (await api.PATCH('/api/token/update', { params: { query: { id: 'x' } }, body: { name: 'n' } })).status,
    ).to.equal(503);
    expect(served.requests).to.deep.equal(['POST /api/mail/send', 'PATCH /api/token/update?id=x']);
    const keyed = await api.POST('/api/mail/send', {
      params: { header: { 'idempotency-key': 'order-1' } },
      body: mail,
    });
    expect(keyed).to.deep.include({ ok: true, status: 202, data: { id: 'm1' } });
    expect(served.requests.slice(2)).to.deep.equal(['POST /api/mail/send', 'POST /api/mail/send']);
    expect(watched.sent.slice(2).map((request) => request.idempotencyKey)).to.deep.equal(['order-1', 'order-1']);
  });
});

describe('client: a password login, kept in memory and renewed', function () {
  this.timeout(30_000);
  const clock = new SteppedClock();
  let server: TestServer;
  const PASSWORD = 'correct horse battery staple';
  before(async () => {
    server = await startServer({ env: { UTILITY_API_STORAGE: 'memory' }, clock });
  });
  /** How far the tests moved the server's clock, taken back after each. */
  let moved = 0;
  const move = (ms: number) => {
    moved += ms;
    clock.advance(ms);
  };
  afterEach(() => move(-moved));
  after(() => server?.close());

  let sequence = 0;
  const userWithPassword = async () => {
    sequence += 1;
    const username = `client${sequence}`;
    expectRight(
      await server.app.useCases.usersAndTokens.createUser.execute({
        actor: OPERATOR,
        username,
        email: `${username}@example.com`,
        password: PASSWORD,
        permissions: ['Cryptography::Encrypt', 'Tokens::Read'],
      }),
    );
    return username;
  };
  const encrypt = (api: ReturnType<typeof createClient>) =>
    api.GET('/api/crypto/enc', { params: { query: { data: 'hello' } } }) as Promise<Answer<string>>;
  const logins = (sent: ReturnType<typeof watchedFetch>['sent']) =>
    sent.filter((request) => request.authorization?.startsWith('Basic '));

  it('logs in with Basic once, for calls made together too, and sends the token it got from then on', async () => {
    const username = await userWithPassword();
    const watched = watchedFetch();
    const api = createClient({
      baseUrl: server.baseUrl,
      token: { username, password: PASSWORD },
      fetch: watched.fetch,
    });
    const answers = await Promise.all([encrypt(api), encrypt(api), encrypt(api)]);
    expect(answers.map((answer) => answer.ok)).to.deep.equal([true, true, true]);
    expect((await encrypt(api)).ok).to.equal(true);
    expect(logins(watched.sent).map((request) => request.path)).to.deep.equal(['/api/token/create']);
    const bearers = new Set(
      watched.sent.filter((request) => request.path !== '/api/token/create').map((r) => r.authorization),
    );
    expect(bearers.size).to.equal(1);
    expect([...bearers][0]).to.match(/^Bearer \S+$/);

    const tokens = await api.GET('/api/token/list');
    expect(tokens.ok && tokens.data.map((token) => token.name)).to.deep.equal([LOGIN_TOKEN_NAME]);
  });

  it('logs in again, once, when its token is refused as expired (401 code 4), and repeats the call', async () => {
    const username = await userWithPassword();
    const watched = watchedFetch();
    const api = createClient({
      baseUrl: server.baseUrl,
      token: { username, password: PASSWORD },
      fetch: watched.fetch,
    });
    expect((await encrypt(api)).ok).to.equal(true);
    // The server's time jumps 31 days: the token (30 days) has expired there, not yet by the client's clock.
    move(31 * DAY);
    expect((await encrypt(api)).ok).to.equal(true);
    expect(watched.sent.map((request) => `${request.authorization?.split(' ')[0]} ${request.path}`)).to.deep.equal([
      'Basic /api/token/create',
      'Bearer /api/crypto/enc?data=hello',
      'Bearer /api/crypto/enc?data=hello',
      'Basic /api/token/create',
      'Bearer /api/crypto/enc?data=hello',
    ]);
  });

  it('logs in again before sending when the token it holds has expired by its own clock', async () => {
    const username = await userWithPassword();
    const watched = watchedFetch();
    const api = createClient({
      baseUrl: server.baseUrl,
      token: { username, password: PASSWORD },
      fetch: watched.fetch,
    });
    // The server's time 31 days behind: each token it gives (30 days) has expired a day ago by the client's clock.
    move(-31 * DAY);
    expect((await encrypt(api)).ok).to.equal(true);
    expect((await encrypt(api)).ok).to.equal(true);
    expect(watched.sent.map((request) => `${request.authorization?.split(' ')[0]} ${request.path}`)).to.deep.equal([
      'Basic /api/token/create',
      'Bearer /api/crypto/enc?data=hello',
      'Basic /api/token/create',
      'Bearer /api/crypto/enc?data=hello',
    ]);
  });

  it('answers a wrong password with the login’s 401 and never shows the password: not on the client, not outside the login', async () => {
    const username = await userWithPassword();
    const watched = watchedFetch();
    const api = createClient({
      baseUrl: server.baseUrl,
      token: { username, password: 'not it' },
      fetch: watched.fetch,
    });
    const refused = await encrypt(api);
    expect(refused).to.deep.include({ ok: false, status: 401 });
    expect(refused.error?.code).to.equal(4);
    expect(watched.sent.map((request) => request.path)).to.deep.equal(['/api/token/create']);

    const right = createClient({
      baseUrl: server.baseUrl,
      token: { username, password: PASSWORD },
      fetch: watched.fetch,
    });
    expect((await encrypt(right)).ok).to.equal(true);
    const encoded = Buffer.from(`${username}:${PASSWORD}`).toString('base64');
    const shown = JSON.stringify({ right, keys: Object.keys(right), answer: await encrypt(right) });
    expect(shown).to.not.include(PASSWORD);
    expect(shown).to.not.include(encoded);
    expect(watched.sent.filter((request) => request.authorization?.includes(encoded)).map((r) => r.path)).to.deep.equal(
      ['/api/token/create'],
    );
  });
});
