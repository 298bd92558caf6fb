import { readFileSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { parse as parseYaml } from 'yaml';
import { xmlBuilderOnFirstUse } from './xml-builder.js';

/** The package's root, from src/ under tsx as from dist/ once built: both are two folders below it. */
const ROOT = new URL('../../../', import.meta.url);

/** The version of this package, as package.json gives it: the OpenAPI document's and the feed's. */
export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { version: string }
).version;

const DAY = t.refinement(
  t.string,
  (text) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)),
  'YYYY-MM-DD',
);

const ChangelogEntry = t.strict({
  version: t.string,
  date: DAY,
  summary: t.string,
  /** Operations, as `METHOD /path` the way the OpenAPI document writes them. */
  added: t.array(t.string),
  /** Free text: what changed, naming the operations it concerns. */
  changed: t.array(t.string),
  removed: t.array(t.string),
});
export type ChangelogEntry = t.TypeOf<typeof ChangelogEntry>;

/** The change log, newest version first (CHANGELOG.yaml at the package's root). Throws, naming the file, when it is malformed. */
export function readChangelog(file: URL = new URL('CHANGELOG.yaml', ROOT)): readonly ChangelogEntry[] {
  const decoded = t.array(ChangelogEntry).decode(parseYaml(readFileSync(file, 'utf8')));
  if (E.isLeft(decoded))
    throw new Error(`${file.pathname} is not a list of {version, date, summary, added, changed, removed}`);
  return decoded.right;
}

const rss = xmlBuilderOnFirstUse({ format: true, ignoreAttributes: false, suppressEmptyNode: true });

const listed = (heading: string, items: readonly string[]): string[] =>
  items.length === 0 ? [] : [`${heading}:`, ...items.map((item) => `- ${item}`)];

/** The change log as an RSS 2.0 feed, one item per version; `feedUrl` is where the feed is served. */
export function changelogFeed(entries: readonly ChangelogEntry[], feedUrl: string): string {
  const items = entries.map((entry) => ({
    title: `utility-api ${entry.version}`,
    guid: { '@_isPermaLink': 'false', '#text': `utility-api-${entry.version}` },
    pubDate: new Date(`${entry.date}T00:00:00Z`).toUTCString(),
    description: [
      entry.summary,
      ...listed('Added', entry.added),
      ...listed('Changed', entry.changed),
      ...listed('Removed', entry.removed),
    ].join('\n'),
  }));
  const feed = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    rss: {
      '@_version': '2.0',
      channel: {
        title: 'utility-api: changes',
        link: feedUrl,
        description: 'What each version of the utility-api HTTP API added, changed and removed',
        ...(entries[0] ? { lastBuildDate: items[0]!.pubDate } : {}),
        item: items,
      },
    },
  };
  return rss().build(feed) as string;
}
