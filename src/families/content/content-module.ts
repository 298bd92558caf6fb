import { ContainerModule } from 'inversify';
import { CachedContentStore } from './adapters/cached-content-store.js';
import { importFileReader } from './adapters/content-files.js';
import { OFF_SOURCE, UpstreamContentSource, type UpstreamName } from './adapters/upstream-sources.js';
import { contentRoutes } from './content-routes.js';
import { LiveContent, RandomContent, type Feed } from './domain/content-queries.js';
import { ImportContent } from './domain/import-content.js';
import { ListContent } from './domain/list-content.js';
import { ManageContent } from './domain/manage-content.js';
import { ContentStore, ImportFileReader } from './domain/ports.js';
import { Clock, Randomness } from '../../domain/ports.js';
import { Log, RouteContribution, SqlStorage, UpstreamCalls, useCasesIdentifier } from '../../wiring/identifiers.js';
import { readBundledFacts } from './adapters/bundled-facts.js';
import { KnexContentStore } from './adapters/knex-content-store.js';
import { MemoryContentStore } from './adapters/memory-content-store.js';

import type { ContentSettings } from './content-settings.js';
import { identifier } from '../../domain/identifier.js';
import { typedBindings } from '../../wiring/typed-binding.js';
import { upstreamTimingOf } from '../../platform/upstream/upstream-call.js';
export type { ContentSettings };

/** Each live category, its upstream's setting and what its entries are. */
const FEEDS: readonly {
  readonly upstream: UpstreamName;
  readonly url: (settings: ContentSettings) => string;
  readonly feed: Feed;
}[] = [
  {
    upstream: 'chucknorris',
    url: (settings) => settings.chuckNorrisUrl,
    feed: {
      kind: 'fact',
      category: 'chucknorris',
      author: null,
      source: 'api.chucknorris.io',
      title: 'Chuck Norris facts',
    },
  },
  {
    upstream: 'kanye',
    url: (settings) => settings.kanyeUrl,
    feed: {
      kind: 'quote',
      category: 'kanye',
      author: 'Kanye West',
      source: 'api.kanye.rest',
      title: 'Kanye West quotes',
    },
  },
  {
    upstream: 'ronswanson',
    url: (settings) => settings.ronSwansonUrl,
    feed: {
      kind: 'quote',
      category: 'ronswanson',
      author: 'Ron Swanson',
      source: 'ron-swanson-quotes.herokuapp.com',
      title: 'Ron Swanson quotes',
    },
  },
];

/** What the family offers a library user: random stored content, each live category, listings, import, list and delete. */
export interface ContentUseCases {
  readonly randomContent: RandomContent;
  readonly listContent: ListContent;
  readonly chuckNorris: LiveContent;
  readonly kanye: LiveContent;
  readonly ronSwanson: LiveContent;
  readonly importContent: ImportContent;
  readonly manageContent: ManageContent;
}
export const ContentUseCases = useCasesIdentifier<ContentUseCases>('ContentUseCases');

/** The store as every use case of the family reads and writes it: through one in-memory cache of what random answers read. */
const CachedStore = identifier<ContentStore>('CachedContentStore');

/** Facts and quotes: the content store's use cases, the three upstreams (each may be `off`), the routes. */
export const contentModule = (settings: ContentSettings): ContainerModule =>
  new ContainerModule((options) => {
    const { provide, constant } = typedBindings(options);
    // On memory storage, the bundled cat and dog facts that the migration loads into a database.
    provide(ContentStore, [SqlStorage, Clock], (sql, clock) =>
      sql ? sql.inTime(new KnexContentStore(sql.db)) : new MemoryContentStore(readBundledFacts(clock.now())),
    ).inSingletonScope();
    provide(
      CachedStore,
      [ContentStore, Clock],
      (store, clock) => new CachedContentStore(store, clock, settings.storeCacheTtlMs),
    ).inSingletonScope();
    constant(ImportFileReader, importFileReader);
    provide(
      ContentUseCases,
      [CachedStore, ImportFileReader, Randomness, Clock, Log, UpstreamCalls],
      (store, reader, randomness, clock, logger, countCall) => {
        const randomContent = new RandomContent(store, randomness);
        const live = ({ upstream, url, feed }: (typeof FEEDS)[number]): [UpstreamName, LiveContent] => {
          const baseUrl = url(settings);
          const source =
            baseUrl === 'off'
              ? OFF_SOURCE
              : new UpstreamContentSource(
                  upstream,
                  { ...upstreamTimingOf(settings), baseUrl },
                  { logger, clock, countCall },
                );
          return [upstream, new LiveContent(feed, source, store, randomContent, clock)];
        };
        const feeds = Object.fromEntries(FEEDS.map(live)) as Readonly<Record<UpstreamName, LiveContent>>;
        return {
          randomContent,
          listContent: new ListContent(store),
          chuckNorris: feeds.chucknorris,
          kanye: feeds.kanye,
          ronSwanson: feeds.ronswanson,
          importContent: new ImportContent(store, reader, clock),
          manageContent: new ManageContent(store),
        };
      },
    ).inSingletonScope();
    provide(RouteContribution, [ContentUseCases], ({ randomContent, listContent, chuckNorris, kanye, ronSwanson }) => ({
      section: {
        name: 'Facts and quotes',
        description:
          'A random fact or quote, from the store or an upstream, as JSON, text, XML or YAML; the stored ones listed, a page at a time.',
      },
      routes: contentRoutes({ random: randomContent, list: listContent, chuckNorris, kanye, ronSwanson }),
    }));
  });
