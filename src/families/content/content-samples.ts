import type { RouteSampleTable } from '../../platform/http/route-samples.js';

const format = { type: ['json', 'text', 'xml', 'yaml', 'html', 'JSON'] };

export const contentSamples: RouteSampleTable = Object.fromEntries(
  [
    '/facts/cat',
    '/facts/dog',
    '/facts/chucknorris',
    '/facts/random',
    '/quotes/random',
    '/quotes/kanye',
    '/quotes/ronswanson',
  ].map((path) => [`GET ${path}`, { query: format }]),
);
