/**
 * The headers of answers a browser may render as a document (HTML, XML, SVG). `nosniff` keeps it
 * from taking any answer for something other than its declared type; the policy of each says
 * what the document may load and run, and `frame-ancestors 'none'` that no other page may frame it.
 */

const NOSNIFF = 'nosniff';

/** Data shown as a document: it may load nothing, run nothing and be framed by nobody. */
export const INERT_DOCUMENT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': NOSNIFF,
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
});

/**
 * The docs page: Swagger UI's script and style sheet, and the API it describes and lets one try,
 * from this origin only; its icons are `data:` images inside the style sheet, and an image an
 * operation answers (a barcode) is shown from a `blob:` the page makes of the bytes it fetched.
 */
export const DOCS_PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': NOSNIFF,
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
});

/** Our own pages (the home page, the change log to read): their style sheet from this origin, nothing else. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': NOSNIFF,
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
});

/**
 * The console (`/console`, docs/console.md): its bundled script and style sheet and the API, from
 * this origin only. No inline script or style, and no address of the console sent on to anyone
 * as a referrer.
 */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': NOSNIFF,
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
});
