import { mostly, type RouteSampleTable } from '../../platform/http/route-samples.js';

const format = { type: ['json', 'text', 'xml', 'yaml', 'html', 'JSON'] };
const malformedCategories = ['Cat', 'a b', '-x', 'x'.repeat(33)];
const factCategories = mostly(['cat', 'dog', 'chucknorris', 'no-such-one'], malformedCategories);
const quoteCategories = mostly(['library', 'kanye', 'ronswanson', 'no-such-one'], malformedCategories);
const lengths = mostly(['1', '40', '120', '1000'], ['0', '1001', '-3', '2.5', 'long']);
/** Filters and a page: no sample can be a real cursor, so an honest request gives one seldom (rarelyGiven). */
const listing = {
  query: mostly(['cats', 'simple things', 'Café', '😀 dogs'], [' ', 'x'.repeat(201), '!!!', 'a b c d e f g h i j k']),
  minLength: lengths,
  maxLength: lengths,
  limit: mostly(['1', '20', '100'], ['0', '101', '-1', '1.5', 'ten']),
  cursor: ['YWJjZGVmMDEyMzQ1Njc4OQ.AAAAAAAAAAAAAAAAAAAAAA', 'x', '', 'a.b.c'],
};

export const contentSamples: RouteSampleTable = {
  ...Object.fromEntries(
    ['/facts/cat', '/facts/dog', '/facts/chucknorris', '/quotes/kanye', '/quotes/ronswanson'].map((path) => [
      `GET ${path}`,
      { query: format },
    ]),
  ),
  // The reference asks for any category: the world it is recorded in holds quotes of one alone.
  'GET /facts/random': { example: { query: { type: 'json' } }, query: { ...format, category: factCategories } },
  'GET /quotes/random': { example: { query: { type: 'json' } }, query: { ...format, category: quoteCategories } },
  'GET /facts/list': {
    example: { query: { category: 'cat', limit: '2' } },
    query: { category: factCategories, ...listing },
    rarelyGiven: ['query cursor'],
  },
  'GET /quotes/list': {
    example: { query: { limit: '2' } },
    query: {
      tag: quoteCategories,
      author: mostly(['Alan Kay', 'alan kay', 'Nobody Known'], [' ', 'x'.repeat(201)]),
      ...listing,
    },
    rarelyGiven: ['query cursor'],
  },
  'GET /facts/categories': {},
  'GET /quotes/authors': {},
  'GET /quotes/tags': {},
};
