import { expect } from 'chai';
import { brokenLinks, docsPages, headingAnchors, headingSlug, linksOf, readPage } from './support/docs-pages.js';

/**
 * Issue 25 §7: the documentation is README.md and the pages of docs/, which link to one another.
 * Every relative link must reach a file of the project, and an anchor a heading of that page, as
 * GitHub names headings; a page moved or a heading renamed fails here rather than for a reader.
 */
const PAGES = ['README.md', ...docsPages()];

describe('README and docs/: every relative link reaches its file and heading', () => {
  it('finds the pages and their links', () => {
    expect(docsPages().length, 'pages under docs/').to.be.greaterThan(5);
    expect(linksOf(readPage('README.md')).length, 'links of the README').to.be.greaterThan(10);
  });

  for (const page of PAGES)
    it(`${page}: no broken relative link`, () => {
      expect(brokenLinks(page, readPage(page))).to.deep.equal([]);
    });

  it("names headings as GitHub does: lower case, spaces to '-', punctuation dropped, repeats numbered", () => {
    expect(headingSlug('Location (GeoNames places, plus codes)')).to.equal('location-geonames-places-plus-codes');
    expect(headingSlug('Dictionary (WordNet 3.1)')).to.equal('dictionary-wordnet-31');
    expect(headingSlug('`utility-api/http` and the [CLI](cli.md)')).to.equal('utility-apihttp-and-the-cli');
    expect(headingSlug('Zoë’s café_2')).to.equal('zoës-café_2');
    expect([
      ...headingAnchors('# Tokens\n\n```sh\n# not a heading\n```\n## Tokens\n### Rate limits ##\n'),
    ]).to.deep.equal(['tokens', 'tokens-1', 'rate-limits']);
  });

  it('reports a link to a missing file or heading, with the page and line, and passes good ones', () => {
    const planted = [
      '# Planted',
      '',
      'See [Mail](families/mail.md), [first requests](../README.md#first-requests) and [this page](#planted).',
      'A [lost page](families/nowhere.md) and a [lost heading](production.md#no-such-heading).',
      '`[in code](nowhere.md)` is not a link.',
      '',
      '```sh',
      'echo "[in a block](nowhere.md)"',
      '```',
      '[defined]: ../nowhere.txt',
    ].join('\n');
    expect(brokenLinks('docs/planted.md', planted)).to.deep.equal([
      'docs/planted.md line 4: [lost page](families/nowhere.md): there is no docs/families/nowhere.md',
      'docs/planted.md line 4: [lost heading](production.md#no-such-heading): docs/production.md has no heading #no-such-heading',
      'docs/planted.md line 10: [defined]: ../nowhere.txt: there is no nowhere.txt',
    ]);
  });
});
