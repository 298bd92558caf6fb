import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import prettier from 'prettier';
import { openApiPath } from '../../src/platform/http/openapi-operation.js';
import { servedPath } from '../../src/platform/http/route-table.js';
import type { AnswerExampleTable } from '../../src/platform/http/route-samples.js';
import type { ReferenceWorld } from './reference-world.js';

/**
 * Issue 28 §2: every success in the reference shows a realistic answer, the one the operation gave
 * its example request on a server whose upstreams are loopback fixtures (tests/support/reference-world.ts).
 * `npm run docs:answers` records them into src/composition/recorded-answers.ts;
 * tests/http/openapi-answers.test.ts records them again and fails when one has drifted.
 */

interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly example?: unknown;
}
interface Operation {
  readonly deprecated?: boolean;
  readonly security?: readonly unknown[];
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { readonly content: Record<string, { readonly example?: Record<string, unknown> }> };
  readonly responses: Record<string, { readonly content?: Record<string, unknown> }>;
}
interface Document {
  readonly paths: Record<string, Record<string, Operation>>;
}

/** What a request needs that no document can name in advance, by path: made on the server first. */
type Made = Record<string, { query?: Record<string, string>; header?: Record<string, string>; body?: object }>;

/**
 * The order things are done in: what makes something first (a token, an endpoint, a message),
 * then what reads and changes it, then an endpoint's deliveries and a redelivery (once an event
 * it listens to has been delivered), then deletions.
 */
const phaseOf = (method: string, path: string): number =>
  method === 'DELETE'
    ? 3
    : path.endsWith('/redeliver') || path.endsWith('/deliveries')
      ? 2
      : (method === 'POST' && path.endsWith('/create')) || path === '/api/mail/send' || path === '/api/crypto/enc'
        ? 0
        : 1;

/** Answers no example shows: the document itself, and images (the reference draws them when tried). */
export const recorded = (path: string, type: string): boolean =>
  path !== '/api/openapi.json' && !type.startsWith('image/');

const isJson = (type: string): boolean => type === 'application/json' || type.endsWith('+json');

/** The series of a metric family an example shows: a histogram's buckets, sum and count are one series. */
const SERIES_SHOWN = 2;

/**
 * A metric family with only its first SERIES_SHOWN series. A scrape taken after every operation
 * was asked holds the duration histogram of every route (about 100 KB of the 437 KB document that
 * /docs downloads); two of them show the shape as well.
 */
function firstSeriesOf(family: string): string {
  const shown = new Set<string>();
  return family
    .split('\n')
    .filter((line) => {
      if (line === '' || line.startsWith('#')) return true;
      const series = line
        .replace(/\s\S+$/, '')
        .replace(/^(\w+?)(_bucket|_sum|_count)?\{/, '$1{')
        .replace(/le="[^"]*",?/, '');
      if (shown.size < SERIES_SHOWN) shown.add(series);
      return shown.has(series);
    })
    .join('\n');
}

/**
 * A text answer as long as an example should be: the first two series of the first few metric
 * families of a scrape, the first item of the change log's feed.
 */
function abridged(path: string, text: string): string {
  if (path === '/metrics') {
    // The service's own, not the process's that every Node program has.
    const families = text.split(/(?=^# HELP )/m).filter((family) => !/^# HELP (process|nodejs)_/.test(family));
    return families.slice(0, 3).map(firstSeriesOf).join('');
  }
  if (path === '/api/changelog') {
    let kept = 0;
    return text.replace(/<item>[\s\S]*?<\/item>\s*/g, (item) => (kept++ === 0 ? item : ''));
  }
  return text;
}

/** Every operation's answers to its example request, keyed as `AnswerExampleTable` says. */
export async function recordAnswers({ server, receiver, shownAs }: ReferenceWorld): Promise<AnswerExampleTable> {
  const token = await server.tokenFor(['*']);
  const document = (await (await server.get('/api/openapi.json')).json()) as Document;
  const keyOf = new Map(
    server.app.routes.routes.map((route) => [
      `${route.method} ${openApiPath(servedPath(route))}`,
      `${route.method} ${route.path}`,
    ]),
  );
  const hooks = `${receiver.url}/hooks`;
  const made: Made = { '/api/webhook/create': { body: { url: hooks } } };
  const give = (paths: readonly string[], place: 'query' | 'header', values: Record<string, string>) => {
    for (const path of paths) made[path] = { ...made[path], [place]: { ...made[path]?.[place], ...values } };
  };

  const operations = Object.entries(document.paths)
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
    )
    .filter(({ operation }) => !operation.deprecated)
    .map((entry, order) => ({ ...entry, order }))
    .sort((a, b) => phaseOf(a.method, a.path) - phaseOf(b.method, b.path) || a.order - b.order);

  const answers: Record<string, Record<string, unknown>> = {};
  let phase = 0;
  for (const { method, path, operation } of operations) {
    if (phase < 2 && phaseOf(method, path) === 2) await deliveriesSettled();
    phase = phaseOf(method, path);
    const parameters = operation.parameters ?? [];
    const valueOf = (parameter: Parameter): string | undefined => {
      const given = made[path]?.[parameter.in === 'path' ? 'query' : parameter.in]?.[parameter.name];
      return given ?? (parameter.example === undefined ? undefined : String(parameter.example));
    };
    let url = path;
    const query = new URLSearchParams();
    const headers: Record<string, string> = {};
    for (const parameter of parameters) {
      const value = valueOf(parameter);
      if (value === undefined) continue;
      if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(value));
      else if (parameter.in === 'query') query.set(parameter.name, value);
      else headers[parameter.name] = value;
    }
    const example = operation.requestBody?.content['application/json']?.example;
    const body = example === undefined ? undefined : { ...example, ...made[path]?.body };
    if (operation.security?.length) headers.authorization = `Bearer ${token}`;
    const successes = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
    const types = [...new Set(successes.flatMap(([, response]) => Object.keys(response.content ?? {})))];
    for (const type of types.filter((type) => recorded(path, type))) {
      const ask = async () => {
        const response = await server.send(method, `${url}${query.size > 0 ? `?${query}` : ''}`, {
          headers: { ...headers, ...(types.length > 1 && { accept: type }) },
          json: body,
        });
        const text = await response.text();
        if (!response.ok)
          throw new Error(`${method} ${path} answered its example request ${response.status}: ${text.slice(0, 500)}`);
        return { response, answer: (isJson(type) ? JSON.parse(text) : abridged(path, text)) as unknown };
      };
      let { response, answer } = await ask();
      // Usage history is written every usage.flushIntervalMs: asked again until it holds the requests made before.
      for (let tries = 0; path.endsWith('/usage') && (answer as { total: number }).total === 0; tries += 1) {
        if (tries === 50) throw new Error(`${path}: no usage written after 5 s`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        ({ response, answer } = await ask());
      }
      (answers[keyOf.get(`${method} ${path}`)!] ??= {})[`${response.status} ${type}`] = answer;
      remember(path, answer);
    }
  }
  // In the order of the document; this server's and the receiver's loopback addresses as the example request names them.
  const ordered = Object.fromEntries([...keyOf.values()].flatMap((key) => (answers[key] ? [[key, answers[key]]] : [])));
  const exampleUrl = String(
    document.paths['/api/webhook/create']?.post?.requestBody?.content['application/json']?.example?.url,
  );
  return redacted(ordered, [[hooks, exampleUrl], [server.baseUrl, 'http://localhost:3000'], ...shownAs]);

  /** Until the endpoint made has been sent an event it listens to (a token made for it), and has answered it. */
  async function deliveriesSettled(): Promise<void> {
    const endpoint = made['/api/webhook/deliveries']?.query?.id;
    if (endpoint === undefined) return;
    const event = await server.send('POST', '/api/token/create', {
      headers: { authorization: `Bearer ${token}` },
      json: { name: 'a token the webhook hears of' },
    });
    if (event.status !== 201) throw new Error(`a token for the webhook to hear of: ${await event.text()}`);
    for (let tries = 0; tries < 100; tries += 1) {
      const listed = await server.send('GET', `/api/webhook/deliveries?id=${endpoint}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const { deliveries } = (await listed.json()) as { deliveries: { status: string }[] };
      if (deliveries.length > 0 && deliveries.every(({ status }) => status === 'delivered')) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the webhook endpoint made was not sent the token.created event of a token made for it');
  }

  /** What a later request needs of this answer. */
  function remember(path: string, answer: unknown): void {
    const field = (name: string) => String((answer as Record<string, unknown>)[name]);
    if (path === '/api/crypto/enc') give(['/api/crypto/dec'], 'query', { data: String(answer) });
    if (path === '/api/user/create') give(['/api/user/delete'], 'header', { 'x-uid': field('uid') });
    if (path === '/api/token/create')
      give(['/api/token/update', '/api/token/rotate', '/api/token/delete'], 'query', { id: field('id') });
    if (path === '/api/mail/send') give(['/api/mail/status'], 'query', { id: field('id') });
    if (path === '/api/webhook/create')
      give(
        [
          '/api/webhook/info',
          '/api/webhook/update',
          '/api/webhook/delete',
          '/api/webhook/rotate-secret',
          '/api/webhook/test',
          '/api/webhook/deliveries',
          '/api/webhook/redeliver',
        ],
        'query',
        { id: field('id') },
      );
    if (path === '/api/webhook/deliveries') {
      const [first] = (answer as { deliveries: { id: string }[] }).deliveries;
      if (first) give(['/api/webhook/redeliver'], 'query', { delivery: first.id });
    }
  }
}

/**
 * Secrets a recording shows (a token's, an endpoint's signing secret) replaced by made-up ones
 * of the same form, each wherever it or its shown prefix appears, so that nothing in the
 * repository looks like a key that once worked; and the loopback addresses of the recording by
 * those a reader would use.
 */
function redacted(answers: AnswerExampleTable, addresses: readonly (readonly [string, string])[]): AnswerExampleTable {
  let text = JSON.stringify(answers);
  for (const [recorded, shown] of addresses) text = text.replaceAll(recorded, shown);
  const secrets = [...new Set(text.match(/\b(?:uapi|whsec)_[A-Za-z0-9+/=]{20,}/g) ?? [])];
  secrets.forEach((secret, index) => {
    const [kind] = secret.split('_');
    const made = `${kind}_${madeUpCharacters(secret.length - kind!.length - 1, index)}`;
    text = text.replaceAll(secret, made);
    // A token's prefix (its first 13 characters) is shown on its own in lists.
    if (kind === 'uapi') text = text.replaceAll(`"${secret.slice(0, 13)}"`, `"${made.slice(0, 13)}"`);
  });
  return JSON.parse(text) as AnswerExampleTable;
}

/** Letters and digits that look random, the same for the same length and index on every recording. */
function madeUpCharacters(length: number, index: number): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  let state = 2_166_136_261 ^ index;
  let made = '';
  for (let n = 0; n < length; n += 1) {
    state = Math.imul(state ^ n, 16_777_619) >>> 0;
    made += alphabet[state % alphabet.length];
  }
  return made;
}

/** The recorded answers as the module src/composition/recorded-answers.ts, formatted as the project formats. */
export async function writeRecordedAnswers(answers: AnswerExampleTable, root: string): Promise<string> {
  const file = join(root, 'src', 'composition', 'recorded-answers.ts');
  const source = `// What each operation answered its example request, recorded by \`npm run docs:answers\` from a
// server on loopback fixtures (tests/support/answer-recording.ts): not written by hand.
import type { AnswerExampleTable } from '../platform/http/route-samples.js';

export const RECORDED_ANSWERS: AnswerExampleTable = ${JSON.stringify(answers)};
`;
  const options = (await prettier.resolveConfig(file)) ?? {};
  await writeFile(file, await prettier.format(source, { ...options, filepath: file }));
  return file;
}
