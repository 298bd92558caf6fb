import { expect } from 'chai';
import fc from 'fast-check';
import {
  characterCount,
  firstBadUtf8Position,
  firstCharacterXmlCannotCarry,
  hasControlOrInvisibleCharacter,
  positionOf,
  strictlyDecoded,
  trimWhiteSpace,
} from '../../src/domain/text.js';

/** XML 1.0's `Char` production, as the specification writes it (§2.2). */
const XML_CHARS = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
import { checkEmail } from '../../src/families/users-and-tokens/domain/users/user-rules.js';

describe('domain: the text rules', () => {
  it('counts code points, as a person counts characters: an emoji is one, a lone surrogate one too', () => {
    expect(characterCount('')).to.equal(0);
    expect(characterCount('Zoë')).to.equal(3);
    expect(characterCount('\u{1F600}'.repeat(200))).to.equal(200);
    expect(characterCount('a\u{1F600}b')).to.equal(3);
    expect(characterCount('\uD800')).to.equal(1);
    expect(characterCount('\uDC00\uD800')).to.equal(2);
  });

  it('refuses control characters and every invisible formatting character of the listed ranges, nothing else', () => {
    const refused = [
      0x00, 0x1f, 0x7f, 0x85, 0x9f, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e,
      0x2066, 0x2067, 0x2068, 0x2069, 0xfeff,
    ];
    for (const code of refused)
      expect(hasControlOrInvisibleCharacter(`a${String.fromCodePoint(code)}b`), code.toString(16)).to.equal(true);
    for (const text of [
      'Ada Lovelace',
      'Zoë O’Brien',
      '李雷',
      'São Paulo',
      '\u{1F600}',
      'a\u2010b',
      'a\u2060b',
      'a\u2070b',
      'a\u202Fb',
    ]) {
      expect(hasControlOrInvisibleCharacter(text), text).to.equal(false);
    }
  });

  it('finds the first character XML cannot carry exactly where XML 1.0 says one is (property)', () => {
    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom(
          '\t',
          '\n',
          '\r',
          '\u0000',
          '\u0008',
          '\u000b',
          '\u001f',
          '\u007f',
          '\u0085',
          '\ufffe',
          '\uffff',
          '\ufffd',
          '\ud800',
          '\udfff',
          '\u{10ffff}',
          '😀',
          '&',
          '<',
        ),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      ),
    });
    fc.assert(
      fc.property(text, (candidate) => {
        const at = firstCharacterXmlCannotCarry(candidate);
        expect(at === undefined, JSON.stringify(candidate)).to.equal(XML_CHARS.test(candidate));
        if (at !== undefined) {
          expect(XML_CHARS.test(candidate.slice(0, at)), 'all before it can be carried').to.equal(true);
          expect(XML_CHARS.test(candidate.slice(at)), 'what it starts cannot').to.equal(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('finds where bytes stop being UTF-8, by line and column, exactly when a strict decoder refuses them (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 16 }), (bytes) => {
        expect(firstBadUtf8Position(bytes) === undefined).to.equal(strictlyDecoded(bytes) !== undefined);
      }),
      { numRuns: 20_000 },
    );
    const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => Buffer.from(part as string)));
    expect(firstBadUtf8Position(bytes('line one\nZoë ', [0xff], ' x'))).to.deep.equal({ line: 2, column: 5 });
    expect(firstBadUtf8Position(bytes('😀', [0xc0, 0xaf]))).to.deep.equal({ line: 1, column: 2 });
    expect(firstBadUtf8Position(bytes('a\r\nb', [0xed, 0xa0, 0x80]))).to.deep.equal({ line: 2, column: 2 });
    expect(firstBadUtf8Position(bytes('fine', [0xf4, 0x90, 0x80, 0x80]))).to.deep.equal({ line: 1, column: 5 });
    expect(firstBadUtf8Position(bytes('cut ', [0xe2, 0x82]))).to.deep.equal({ line: 1, column: 5 });
    expect(firstBadUtf8Position(bytes('all good ☕'))).to.equal(undefined);
  });

  it('gives positions as an editor shows them: lines after each line feed, columns in characters', () => {
    expect(positionOf('ab\n😀x\ny', 5)).to.deep.equal({ line: 2, column: 2 });
    expect(positionOf('abc', 0)).to.deep.equal({ line: 1, column: 1 });
  });

  it('trims white space as trim() does but keeps U+FEFF, for the rule to refuse', () => {
    expect(trimWhiteSpace(' \t Ada \u00A0\u3000')).to.equal('Ada');
    expect(trimWhiteSpace('\uFEFFAda\uFEFF ')).to.equal('\uFEFFAda\uFEFF');
    expect(trimWhiteSpace(' \uFEFF ')).to.equal('\uFEFF');
  });
});

describe('domain: the email rule', () => {
  it('refuses an invisible character at either end, which trim() would otherwise have dropped unseen', () => {
    expect(checkEmail(' ada@example.com ')).to.equal(undefined);
    for (const bad of [
      '\uFEFFada@example.com',
      'ada@example.com\uFEFF',
      '\u200Bada@example.com',
      'ada@exa\u202Emple.com',
    ]) {
      expect(checkEmail(bad), JSON.stringify(bad)).to.deep.include({ _tag: 'InvalidInput', fields: ['email'] });
    }
  });
});
