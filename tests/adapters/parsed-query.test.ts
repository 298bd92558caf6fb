import { expect } from 'chai';
import fc from 'fast-check';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa from 'koa';
import { parsedQuery } from '../../src/platform/http/query-string.js';

const koa = new Koa();
/** Koa 3's own context for a request with this query string: the query string it passes on, and its `ctx.query`. */
function koaContext(querystring: string): {
  querystring: string;
  query: Record<string, string | string[] | undefined>;
} {
  const req = { url: `/api/crypto/enc?${querystring}`, headers: {}, socket: {} } as unknown as IncomingMessage;
  return koa.createContext(req, {} as ServerResponse);
}

const sortedEntries = (parameters: Record<string, unknown>) =>
  Object.entries(parameters).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Pieces a request target's query may be made of: any printable ASCII or Latin-1 character, escapes (some not UTF-8, some broken), separators. */
const piece = fc.oneof(
  fc
    .integer({ min: 0x21, max: 0xff })
    .filter((code) => code < 0x7f || code > 0x9f)
    .map((code) => String.fromCharCode(code)),
  fc.constantFrom(
    '&',
    '=',
    '+',
    '?',
    '%',
    '%2',
    '%20',
    '%2B',
    '%26',
    '%3D',
    '%3F',
    '%C3%A9',
    '%F0%9F%98%80',
    '%FF',
    '%C0%AF',
    '%ED%A0%80',
    '%E2%82',
    '%zz',
    '__proto__',
    'constructor',
    'data',
  ),
);

describe('adapter: query parameters read as Koa reads them', () => {
  it('agrees with the ctx.query of Koa on every query string made of what a request target carries', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const ctx = koaContext(pieces.join(''));
        expect(sortedEntries(Object.fromEntries(parsedQuery(ctx.querystring))), ctx.querystring).to.deep.equal(
          sortedEntries(ctx.query),
        );
      }),
      { numRuns: 5_000 },
    );
  });

  it('gives a repeated name all its values, a name without a value the empty string, and takes a leading ? as no part of a name', () => {
    expect(Object.fromEntries(parsedQuery('a=1&b&a=2+3&c=%26'))).to.deep.equal({ a: ['1', '2 3'], b: '', c: '&' });
    expect(Object.fromEntries(parsedQuery('?data=x'))).to.deep.equal({ data: 'x' });
    expect(parsedQuery(Array.from({ length: 1_500 }, (_, i) => `k${i}=v`).join('&')).size).to.equal(1_500);
  });
});
