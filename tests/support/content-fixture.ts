import { startFixtureServer, type FixtureServer } from './fixture-server.js';

/**
 * The three upstreams of facts and quotes on one loopback server (their paths differ), answering
 * in the shapes they document, with texts this project wrote: chucknorris.io's `/jokes/random`,
 * kanye.rest's `/`, ron-swanson-quotes' `/v2/quotes`.
 */
export const CHUCK_NORRIS_FACT = 'Chuck Norris counted to infinity, twice, in a loopback test.';
export const KANYE_QUOTE = 'I test my own quotes on loopback.';
export const RON_SWANSON_QUOTE = 'Never half-ask a fixture server anything.';

export type ContentFixture = FixtureServer;

export function startContentFixture(): Promise<ContentFixture> {
  return startFixtureServer({
    recordings: {
      '/jokes/random': {
        body: {
          categories: [],
          icon_url: 'https://example.test/icon.png',
          id: 'fixture',
          url: 'https://example.test/jokes/fixture',
          value: CHUCK_NORRIS_FACT,
        },
      },
      '/': { body: { quote: KANYE_QUOTE } },
      '/v2/quotes': { body: [RON_SWANSON_QUOTE] },
    },
  });
}

/** Settings that send every facts and quotes upstream to `fixture`. */
export const contentUpstreamsAt = (fixture: { readonly url: string }): Record<string, string> => ({
  UTILITY_API_CHUCKNORRIS_URL: fixture.url,
  UTILITY_API_KANYE_URL: fixture.url,
  UTILITY_API_RON_SWANSON_URL: fixture.url,
});
