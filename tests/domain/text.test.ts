import { expect } from 'chai';
import { characterCount, hasControlOrInvisibleCharacter, trimWhiteSpace } from '../../src/domain/text.js';
import { checkEmail } from '../../src/domain/users/user-rules.js';

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
    const refused = [0x00, 0x1f, 0x7f, 0x85, 0x9f, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff];
    for (const code of refused) expect(hasControlOrInvisibleCharacter(`a${String.fromCodePoint(code)}b`), code.toString(16)).to.equal(true);
    for (const text of ['Ada Lovelace', 'Zoë O’Brien', '李雷', 'São Paulo', '\u{1F600}', 'a\u2010b', 'a\u2060b', 'a\u2070b', 'a\u202Fb']) {
      expect(hasControlOrInvisibleCharacter(text), text).to.equal(false);
    }
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
    for (const bad of ['\uFEFFada@example.com', 'ada@example.com\uFEFF', '\u200Bada@example.com', 'ada@exa\u202Emple.com']) {
      expect(checkEmail(bad), JSON.stringify(bad)).to.deep.include({ _tag: 'InvalidInput', fields: ['email'] });
    }
  });
});
