import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './program.js';

/**
 * The TypeScript example of docs/client.md, read from the page itself, so that what a reader
 * copies is what the tests compile (tests/package/) and run (tests/client/docs-example.test.ts).
 */
export function clientExample(): string {
  const page = readFileSync(join(ROOT, 'docs', 'client.md'), 'utf8');
  const start = page.indexOf('```ts\n');
  if (start === -1) throw new Error('docs/client.md has no ```ts example');
  const body = start + '```ts\n'.length;
  return page.slice(body, page.indexOf('```\n', body));
}

/**
 * Calls a reader might get wrong, after the example (whose `api` they use): each must be a type
 * error, or its `@ts-expect-error` is itself one.
 */
export const CLIENT_MISTAKES = `
// @ts-expect-error a misspelt query parameter
void api.GET('/api/crypto/enc', { params: { query: { dta: 'hello' } } });
// @ts-expect-error a parameter the operation does not take
void api.GET('/api/crypto/enc', { params: { query: { data: 'hello', key: 'k' } } });
// @ts-expect-error a query parameter given as a header
void api.GET('/api/crypto/enc', { params: { header: { data: 'hello' } } });
// @ts-expect-error a required parameter left out
void api.GET('/api/crypto/dec');
// @ts-expect-error a misspelt body field
void api.POST('/api/mail/send', { body: { to: 'ada@example.com', subject: 'Hi', contents: 'Hello' } });
// @ts-expect-error a path the API does not have
void api.GET('/api/crypto/encrypt');
// @ts-expect-error a method the path does not take
void api.POST('/api/crypto/enc', { params: { query: { data: 'hello' } } });
// @ts-expect-error a field the success does not have
void (async () => { const list = await api.GET('/api/token/list'); if (list.ok) void list.data.tokens; })();
// @ts-expect-error an error code the operation never answers
void (async () => { const dec = await api.GET('/api/crypto/dec', { params: { query: { data: 'x' } } }); if (dec.error) { const code: 26 = dec.error.code; void code; } })();
`;

/** The example with one parameter's name misspelt: it must not compile. */
export const misspeltExample = (example: string): string => {
  const misspelt = example.replace("{ query: { data: 'hello' } }", "{ query: { dat: 'hello' } }");
  if (misspelt === example) throw new Error('the example no longer encrypts { data: hello }: update misspeltExample');
  return misspelt;
};
