import type { ContentEntry, ContentKind } from '../domain/content.js';
import type { AuthorCount, CategoryCount, ContentFilter, ContentPageQuery, ContentStore } from '../domain/ports.js';
import type { Clock } from '../../../domain/ports.js';
import { LruCache } from '../../../platform/caching/lru-cache.js';

interface Kept<A> {
  readonly value: Promise<A>;
  readonly until: number;
}

/** Where `kept` keeps answers: a Map, or a bounded cache for keys without a bound of their own. */
interface Keeping<K, A> {
  get(key: K): Kept<A> | undefined;
  set(key: K, value: Kept<A>): void;
  delete(key: K): void;
}

/**
 * Listing pages kept at most, by their filters and position (about 3 KB each): the first pages
 * people ask for again and again, never the whole store however the filters vary.
 */
const PAGES_KEPT = 1000;

/**
 * The reads a random fact or quote makes (a kind's categories, a category's entries), and the pages
 * of listings, kept in memory for `ttlMs`, so that a steady stream of them costs the database
 * nothing: a page of 20 quotes read from SQLite cost the server about four times what an answer
 * of crypto does (bench:utilities, 0.30× crypto). A write through this store forgets what it
 * changed at once; one made elsewhere (the CLI, another instance) is seen within the TTL. A failed
 * read is not kept.
 */
export class CachedContentStore implements ContentStore {
  private readonly categoriesOf = new Map<ContentKind, Kept<readonly CategoryCount[]>>();
  private readonly entriesOf = new Map<string, Kept<readonly ContentEntry[]>>();
  private readonly pages = new LruCache<string, Kept<readonly ContentEntry[]>>(PAGES_KEPT);

  constructor(
    private readonly inner: ContentStore,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  async add(entries: readonly ContentEntry[], progress?: (written: number) => void): Promise<readonly string[]> {
    const added = await this.inner.add(entries, progress);
    // A fact received from an upstream that was already stored changes nothing: nothing is forgotten.
    if (added.length > 0) {
      for (const entry of entries) this.forget(entry.kind, entry.category);
      this.pages.clear();
    }
    return added;
  }

  async count(kind: ContentKind, category: string): Promise<number> {
    return (await this.entries(kind, category)).length;
  }

  categories(kind: ContentKind): Promise<readonly CategoryCount[]> {
    return this.kept(this.categoriesOf, kind, () => this.inner.categories(kind));
  }

  async nth(kind: ContentKind, category: string, index: number): Promise<ContentEntry | undefined> {
    return (await this.entries(kind, category))[index];
  }

  /** An operator's listing reads the store itself. */
  list(filter: ContentFilter): Promise<readonly ContentEntry[]> {
    return this.inner.list(filter);
  }

  /** The query's fields are all it asks, each a string, number or list of words: its JSON names it. */
  page(query: ContentPageQuery): Promise<readonly ContentEntry[]> {
    return this.kept(this.pages, JSON.stringify(query), () => this.inner.page(query));
  }

  authors(kind: ContentKind): Promise<readonly AuthorCount[]> {
    return this.inner.authors(kind);
  }

  listingSecret(): Promise<Buffer> {
    return this.inner.listingSecret();
  }

  async delete(id: string): Promise<boolean> {
    const deleted = await this.inner.delete(id);
    // The id does not say its category: forget everything, as rare as deletions are.
    if (deleted) {
      this.categoriesOf.clear();
      this.entriesOf.clear();
      this.pages.clear();
    }
    return deleted;
  }

  private entries(kind: ContentKind, category: string): Promise<readonly ContentEntry[]> {
    return this.kept(this.entriesOf, `${kind}/${category}`, () => this.inner.list({ kind, category }));
  }

  private forget(kind: ContentKind, category: string): void {
    this.categoriesOf.delete(kind);
    this.entriesOf.delete(`${kind}/${category}`);
  }

  private kept<K, A>(cache: Keeping<K, A>, key: K, read: () => Promise<A>): Promise<A> {
    const now = this.clock.now();
    const known = cache.get(key);
    if (known && now < known.until) return known.value;
    const fresh = { value: read(), until: now + this.ttlMs };
    cache.set(key, fresh);
    fresh.value.catch(() => {
      if (cache.get(key) === fresh) cache.delete(key);
    });
    return fresh.value;
  }
}
