import { expect } from 'chai';
import fc from 'fast-check';
import {
  badUtf8JsonLocation,
  duplicateKeyLocation,
  illFormedJsonLocation,
  illFormedPathSegments,
  illFormedQueryParameters,
  type JsonLocation,
} from '../../src/platform/http/well-formed.js';

/** A JSON value whose objects are lists of members, so a key may be given twice as a client could write it. */
type Written =
  | { readonly kind: 'object'; readonly members: readonly (readonly [string, Written])[] }
  | { readonly kind: 'array'; readonly items: readonly Written[] }
  | { readonly kind: 'scalar'; readonly value: unknown };

/** Few key names, so that repeats are common; and text that looks like JSON's own punctuation. */
const keyName = fc.constantFrom('a', 'b', 'to', 'A', 'é', '😀', '"', '\\', ',', '{', '', '__proto__', 'a b');
const { written } = fc.letrec<{ written: Written }>((tie) => ({
  written: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .oneof(fc.string({ maxLength: 6 }), keyName, fc.integer(), fc.boolean(), fc.constant(null))
      .map((value): Written => ({ kind: 'scalar', value })),
    fc
      .array(fc.tuple(keyName, tie('written')), { maxLength: 4 })
      .map((members): Written => ({ kind: 'object', members })),
    fc.array(tie('written'), { maxLength: 4 }).map((items): Written => ({ kind: 'array', items })),
  ),
}));

/** A string as JSON, with each character escaped as `\uXXXX` where `escapes` says so: JSON reads both alike. */
const quoted = (text: string, escapes: number): string =>
  `"${[...text].map((character, index) => ((escapes >> (index % 16)) & 1 ? Array.from({ length: character.length }, (_, unit) => `\\u${character.charCodeAt(unit).toString(16).padStart(4, '0')}`).join('') : JSON.stringify(character).slice(1, -1))).join('')}"`;

/** The JSON text, with white space between tokens as `spacing` says. */
function textOf(value: Written, escapes: number, spacing: string): string {
  switch (value.kind) {
    case 'scalar':
      return typeof value.value === 'string' ? quoted(value.value, escapes) : JSON.stringify(value.value);
    case 'array':
      return `[${spacing}${value.items.map((item) => textOf(item, escapes, spacing)).join(`,${spacing}`)}]`;
    case 'object':
      return `{${spacing}${value.members.map(([key, member]) => `${quoted(key, escapes)}${spacing}:${textOf(member, escapes >> 1, spacing)}`).join(`${spacing},`)}}`;
  }
}

/** The first key given twice in one object, in the order the text gives keys (depth first), with its path. */
function firstDuplicate(value: Written, path: (string | number)[] = []): (string | number)[] | undefined {
  if (value.kind === 'array') {
    for (const [index, item] of value.items.entries()) {
      const found = firstDuplicate(item, [...path, index]);
      if (found) return found;
    }
  } else if (value.kind === 'object') {
    const seen = new Set<string>();
    for (const [key, member] of value.members) {
      if (seen.has(key)) return [...path, key];
      seen.add(key);
      const found = firstDuplicate(member, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

const locationOfPath = (path: (string | number)[]): JsonLocation => ({
  field: typeof path[0] === 'string' ? path[0] : undefined,
  path: path.map((step, index) => (typeof step === 'number' ? `[${step}]` : index === 0 ? step : `.${step}`)).join(''),
});

describe('adapter: finding input that is not Unicode exactly', () => {
  it('names the query parameters whose escapes are not UTF-8, by their decoded name', () => {
    expect(illFormedQueryParameters('data=%C3%A9%F0%9F%98%80&x=100%25&y=%ZZ&z=a+b')).to.deep.equal([]);
    expect(illFormedQueryParameters('a=%FF&b=ok&na%C3%AFve=%C0%AF&c=%ED%A0%80&d=%E2%82')).to.deep.equal([
      'a',
      'naïve',
      'c',
      'd',
    ]);
    expect(illFormedQueryParameters('%FF=1&ok')).to.deep.equal(['%FF']);
    expect(illFormedQueryParameters('flag%FE')).to.deep.equal(['flag%FE']);
  });

  it('gives the positions of path segments whose escapes are not UTF-8', () => {
    expect(illFormedPathSegments('/api/barcode/gen/qr%C3%A9')).to.deep.equal([]);
    expect(illFormedPathSegments('/api/barcode/gen/%FF')).to.deep.equal([4]);
    expect(illFormedPathSegments('/api/%C0%AF/gen/%ED%A0%80/')).to.deep.equal([2, 4]);
  });

  it('finds a lone surrogate in a parsed JSON value or key, and only when the source escapes one', () => {
    const find = (source: string) => illFormedJsonLocation(JSON.parse(source), source);
    expect(find('{"a":"\\ud83d\\ude00","b":["x"]}')).to.equal(undefined);
    expect(find('{"a":"ok","b":[1,{"c":"\\udfff"}]}')).to.deep.equal({ field: 'b', path: 'b[1].c' });
    expect(find('{"a":{"\\ud800":1}}')).to.deep.equal({ field: 'a', path: 'a.\\ud800' });
    expect(find('"\\ud800"')).to.deep.equal({ field: undefined, path: '' });
    expect(find('["\\ud800"]')).to.deep.equal({ field: undefined, path: '[0]' });
  });

  it('finds where bytes that are not UTF-8 sit in a JSON body, when that can be told', () => {
    const body = (...parts: (string | number[])[]) =>
      Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));
    expect(badUtf8JsonLocation(body('{"a":"x","b":{"c":"', [0xff], '"}}'))).to.deep.equal({ field: 'b', path: 'b.c' });
    expect(badUtf8JsonLocation(body('{"a":', [0xff], '}'))).to.equal(undefined);
    // A real U+FFFD beside the bad bytes: a replacement could not be told from it.
    expect(badUtf8JsonLocation(body('{"a":"\uFFFD","b":"', [0xc0, 0xaf], '"}'))).to.equal(undefined);
  });

  it('finds the first key given twice in one object, at any depth, however the keys are escaped or spaced (property)', () => {
    fc.assert(
      fc.property(written, fc.nat(), fc.constantFrom('', ' ', '\n\t '), (value, escapes, spacing) => {
        const text = textOf(value, escapes, spacing);
        JSON.parse(text);
        const expected = firstDuplicate(value);
        expect(duplicateKeyLocation(text), text).to.deep.equal(
          expected === undefined ? undefined : locationOfPath(expected),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('finds none in any JSON that JSON.stringify writes (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(duplicateKeyLocation(JSON.stringify(value))).to.equal(undefined);
      }),
    );
  });

  it('names where a key is given twice, and reads escaped keys as JSON does', () => {
    expect(duplicateKeyLocation('{"to":"a@example.com","to":"b@example.com"}')).to.deep.equal({
      field: 'to',
      path: 'to',
    });
    expect(duplicateKeyLocation('{"a":[1,{"b":2,"\\u0062":3}]}')).to.deep.equal({ field: 'a', path: 'a[1].b' });
    expect(duplicateKeyLocation('{"a":{"x":1},"b":{"x":1}}')).to.equal(undefined);
    // Quotes and backslashes inside strings: an escaped quote does not end one, an escaped backslash does not escape the quote after it.
    const text = '{"a":"\\",\\"a\\":","b":1}';
    expect(JSON.parse(text)).to.deep.equal({ a: '","a":', b: 1 });
    expect(duplicateKeyLocation(text)).to.equal(undefined);
    expect(duplicateKeyLocation('{"a":"x\\\\","a":1}')).to.deep.equal({ field: 'a', path: 'a' });
    expect(duplicateKeyLocation(`{"a":${'['.repeat(5000)}{"k":1,"k":2}${']'.repeat(5000)}}`)?.path).to.equal(
      `a${'[0]'.repeat(5000)}.k`,
    );
  });
});
