import { makeOnce } from '../caching/load-once.js';
import { PAGE_HEADERS } from './document-headers.js';
import type { ChangelogEntry } from './release.js';
import { servedFile } from './docs-page.js';
import type { Route } from './route-table.js';

/** Text as HTML shows it: nothing in it can open a tag or an entity. */
const escaped = (text: string): string => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** One page of ours: the same head, style sheet and way home on each. */
const page = (title: string, body: string, head = ''): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escaped(title)}</title>
<link rel="stylesheet" href="/pages.css">
${head}</head>
<body>
${body}
</body>
</html>
`;

/**
 * `GET /`: where a person who opens the server's address finds their way, to the console (unless
 * it is turned off), the reference, the document a client is generated from, and what changed.
 */
export function homePage(version: string, consoleOn = true): string {
  const console = consoleOn
    ? '<li><a href="/console">The console</a>: sign in to manage your tokens and see their usage</li>\n'
    : '';
  return page(
    'utility-api',
    `<main>
<h1>utility-api <span class="version">${escaped(version)}</span></h1>
<p>A self-hostable API of small utilities, each behind an API token with named permissions. Every
operation is below <code>/api</code> and takes <code>Authorization: Bearer &lt;token&gt;</code>.</p>
<nav aria-label="Where to go">
<ul>
${console}<li><a href="/docs">The API reference</a>: every operation, with "Try it out"</li>
<li><a href="/api/openapi.json">The OpenAPI 3.1 document</a>, for clients and code generators</li>
<li><a href="/changelog">What changed</a>, version by version (also <a href="/api/changelog">as an RSS feed</a>)</li>
<li><a href="/readyz">Readiness</a> of this instance, as load balancers ask it</li>
</ul>
</nav>
</main>`,
  );
}

const listed = (heading: string, items: readonly string[], asCode: boolean): string =>
  items.length === 0
    ? ''
    : `<h3>${heading}</h3>\n<ul>\n${items.map((item) => `<li>${asCode ? `<code>${escaped(item)}</code>` : escaped(item)}</li>`).join('\n')}\n</ul>\n`;

/** `GET /changelog`: the history the feed carries, as a page to read, newest version first. */
export function changelogPage(entries: readonly ChangelogEntry[]): string {
  const versions = entries
    .map(
      (entry) => `<section aria-labelledby="v${escaped(entry.version)}">
<h2 id="v${escaped(entry.version)}">${escaped(entry.version)} <time datetime="${entry.date}">${entry.date}</time></h2>
<p>${escaped(entry.summary)}</p>
${listed('Added', entry.added, true)}${listed('Changed', entry.changed, false)}${listed('Removed', entry.removed, false)}</section>`,
    )
    .join('\n');
  return page(
    'utility-api: what changed',
    `<main>
<p><a href="/">utility-api</a></p>
<h1>What changed</h1>
<p>Each version of the HTTP API, newest first; <a href="/api/changelog">the same as an RSS feed</a>.</p>
${versions}
</main>`,
    '<link rel="alternate" type="application/rss+xml" title="utility-api: changes" href="/api/changelog">\n',
  );
}

/**
 * Plain and readable: system fonts, a measure that reads well, links that show where focus is,
 * colours of enough contrast (WCAG AA, as axe checks them) in the light scheme and the dark one.
 */
const STYLE = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5;
  --text: #1b1b1b; --ground: #ffffff; --link: #0b57d0; }
@media (prefers-color-scheme: dark) { :root { --text: #e8e8e8; --ground: #121212; --link: #8ab4f8; } }
body { margin: 0 auto; max-width: 46rem; padding: 1rem 1.25rem 3rem; color: var(--text); background: var(--ground); }
html { background: var(--ground); }
h1 { font-size: 1.8rem; } h2 { font-size: 1.3rem; margin-top: 2rem; } h3 { font-size: 1rem; margin-bottom: 0.25rem; }
.version, time { font-weight: normal; font-size: 0.9em; opacity: 0.85; margin-left: 0.5em; }
code { font-family: ui-monospace, monospace; font-size: 0.95em; }
a { color: var(--link); } a:focus-visible { outline: 3px solid var(--link); outline-offset: 2px; }
li { margin: 0.35rem 0; }
`;

/** Kept an hour by browsers, like the reference page's own files. */
const HEADERS = { 'Cache-Control': 'public, max-age=3600', ...PAGE_HEADERS };

/** The pages a person opens: the server's home, the change log to read, and their style sheet. */
export function pageRoutes(version: string, changelog: () => readonly ChangelogEntry[], consoleOn = true): Route[] {
  const home = makeOnce(() => homePage(version, consoleOn));
  const history = makeOnce(() => changelogPage(changelog()));
  return [
    servedFile('/', 'text/html', "Where to go from the server's address", home, HEADERS),
    servedFile('/changelog', 'text/html', 'What changed, as a page', history, HEADERS),
    servedFile('/pages.css', 'text/css', 'The style of those pages', () => STYLE, HEADERS),
  ];
}
