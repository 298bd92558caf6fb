import { expect } from 'chai';
import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import * as E from 'fp-ts/lib/Either.js';
import { rendered } from '../../src/platform/http/negotiation.js';
import { contentEntry } from '../../src/families/content/domain/content.js';

/** XML 1.0's `Char` production (§2.2): what a well-formed document may hold at all, which XMLValidator does not check. */
const XML_CHARS = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

/** Any code point, lone surrogates included, with XML's and JSON's special characters and those XML cannot carry made common. */
const character = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom('&', '<', '>', '"', "'", ']]>', '&amp;', '<!--', '\\', ' ') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '\u0000',
      '\u0001',
      '\u0008',
      '\u000b',
      '\u001f',
      '\ufffe',
      '\uffff',
      '\ud800',
      '\udfff',
      '\u0085',
      '\u007f',
      '\t',
      '\n',
    ),
  },
);
const text = fc.string({ unit: character, minLength: 1, maxLength: 40 });

describe('adapter: facts and quotes as XML', () => {
  it('are well-formed XML for every text the content rules accept, and the rules accept none XML cannot carry (property)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        text,
        fc.option(text, { nil: undefined }),
        fc.option(text, { nil: undefined }),
        (givenText, givenAuthor, givenSource) => {
          const entry = contentEntry(
            { kind: 'quote', category: 'generated', text: givenText, author: givenAuthor, source: givenSource },
            0,
            'imported',
          );
          if (E.isLeft(entry)) return;
          accepted++;
          for (const field of [entry.right.text, entry.right.author ?? '', entry.right.source])
            expect(XML_CHARS.test(field), JSON.stringify(field)).to.equal(true);
          const { id, text: said, author, category, source } = entry.right;
          const answer = rendered({ id, quote: said, author, category, source }, 'xml', {
            root: 'quote',
            asText: (value) => value.quote,
          });
          const xml = answer.body as string;
          expect(XMLValidator.validate(xml), xml).to.equal(true);
          expect(XML_CHARS.test(xml), JSON.stringify(xml)).to.equal(true);
          const read = (
            new XMLParser({ parseTagValue: false, trimValues: false }).parse(xml) as { quote: { quote: string } }
          ).quote;
          expect(String(read.quote)).to.equal(said);
        },
      ),
      { numRuns: 3000 },
    );
    expect(accepted, 'texts the rules accepted').to.be.greaterThan(300);
  });
});
