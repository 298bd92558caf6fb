import { expect } from 'chai';
import fc from 'fast-check';
import { serverForSuite } from '../support/http-server.js';

/** Every `pattern` of a JSON document, and every key of a `patternProperties`, with where it was found. */
function patternsOf(value: unknown, where = '#', found = new Map<string, string>()): Map<string, string> {
  if (value === null || typeof value !== 'object') return found;
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'pattern' && typeof inner === 'string') found.set(inner, where);
    if (key === 'patternProperties' && inner !== null && typeof inner === 'object')
      for (const name of Object.keys(inner)) found.set(name, `${where}/patternProperties`);
    patternsOf(inner, `${where}/${key}`, found);
  }
  return found;
}

/** One character outside the Basic Multilingual Plane: one code point, two UTF-16 units. */
const ASTRAL = '😀';

/**
 * Texts where the two readings are most likely to part: for each bound a pattern counts up to
 * (`{1,64}`), that many characters and one more on either side, of plain letters and of astral
 * ones, which the `u` flag counts as one and a reader without it as two.
 */
function boundaryTexts(pattern: string): string[] {
  const bounds = [...pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)].flatMap(([, low, high]) =>
    [low, high].filter((bound): bound is string => bound !== undefined && bound !== '').map(Number),
  );
  return bounds.flatMap((bound) =>
    [bound - 1, bound, bound + 1]
      .filter((length) => length >= 0)
      .flatMap((length) => ['a'.repeat(length), ASTRAL.repeat(length), `a${ASTRAL.repeat(Math.max(0, length - 1))}`]),
  );
}

/**
 * Issue 28 §2: a reader of the document evaluates its patterns as ECMAScript does, with the `u`
 * flag (JSON Schema's reading) or without it (Swagger UI's "Try it out", which refused every
 * dictionary word while the pattern said `\p{L}`). Every pattern the document gives must read the
 * same both ways; one that cannot is left out and checked by the server alone.
 */
describe('http: every pattern of the OpenAPI document reads the same with and without the u flag', () => {
  const suite = serverForSuite();
  let patterns: Map<string, string>;
  before(async () => {
    patterns = patternsOf(await (await suite.server.get('/api/openapi.json')).json());
  });

  it('finds the patterns of parameters, bodies, answers and headers (so the checks below have something to check)', () => {
    expect(patterns.size).to.be.greaterThan(15);
    expect([...patterns.values()].some((where) => where.includes('/parameters/'))).to.equal(true);
    expect([...patterns.values()].some((where) => where.includes('/requestBody/'))).to.equal(true);
    expect([...patterns.values()].some((where) => where.includes('/headers/'))).to.equal(true);
  });

  it('compiles each pattern both ways', () => {
    for (const [pattern, where] of patterns) {
      expect(() => new RegExp(pattern), `${where}: ${pattern} without u`).not.to.throw();
      expect(() => new RegExp(pattern, 'u'), `${where}: ${pattern} with u`).not.to.throw();
    }
  });

  it('gives the same verdict both ways on texts at each bound, and on any text at all', () => {
    for (const [pattern, where] of patterns) {
      const [plain, unicode] = [new RegExp(pattern), new RegExp(pattern, 'u')];
      for (const text of boundaryTexts(pattern))
        expect(plain.test(text), `${where}: ${pattern} on ${text.length} units`).to.equal(unicode.test(text));
      fc.assert(
        fc.property(
          fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.string()),
          (text) => plain.test(text) === unicode.test(text),
        ),
        { numRuns: 300 },
      );
    }
  });

  it('leaves out what only the u flag reads, which the server checks alone: a dictionary word is a pattern of letters', async () => {
    const document = JSON.stringify(await (await suite.server.get('/api/openapi.json')).json());
    expect(document).not.to.match(/\\\\[pP]\{/);
    const token = await suite.server.tokenFor(['Dictionary::*']);
    const word = await suite.server.get('/api/dictionary/def?word=serendipity', { Authorization: `Bearer ${token}` });
    expect(word.status).to.equal(200);
    const digits = await suite.server.get('/api/dictionary/def?word=1234', { Authorization: `Bearer ${token}` });
    expect(digits.status).to.equal(400);
    expect(((await digits.json()) as { code: number }).code).to.equal(7);
  });

  it('a check that finds a pattern that reads differently: the counting of an astral character', () => {
    const [plain, unicode] = [new RegExp('^\\S{1,3}$'), new RegExp('^\\S{1,3}$', 'u')];
    expect(boundaryTexts('^\\S{1,3}$').some((text) => plain.test(text) !== unicode.test(text))).to.equal(true);
  });
});
