import { expect } from 'chai';
import { badUtf8JsonLocation, illFormedJsonLocation, illFormedPathSegments, illFormedQueryParameters } from '../../src/adapters/http/well-formed.js';

describe('adapter: finding input that is not Unicode exactly', () => {
  it('names the query parameters whose escapes are not UTF-8, by their decoded name', () => {
    expect(illFormedQueryParameters('data=%C3%A9%F0%9F%98%80&x=100%25&y=%ZZ&z=a+b')).to.deep.equal([]);
    expect(illFormedQueryParameters('a=%FF&b=ok&na%C3%AFve=%C0%AF&c=%ED%A0%80&d=%E2%82')).to.deep.equal(['a', 'naïve', 'c', 'd']);
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
    const body = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));
    expect(badUtf8JsonLocation(body('{"a":"x","b":{"c":"', [0xff], '"}}'))).to.deep.equal({ field: 'b', path: 'b.c' });
    expect(badUtf8JsonLocation(body('{"a":', [0xff], '}'))).to.equal(undefined);
    // A real U+FFFD beside the bad bytes: a replacement could not be told from it.
    expect(badUtf8JsonLocation(body('{"a":"\uFFFD","b":"', [0xc0, 0xaf], '"}'))).to.equal(undefined);
  });
});
