import type { ContentEntry, ContentKind } from '../domain/content.js';
import type { AuthorCount, CategoryCount, ContentFilter, ContentPageQuery, ContentStore } from '../domain/ports.js';
import type { Clock } from '../../../domain/ports.js';

interface Kept<A> {
  readonly value: Promise<A>;
  readonly until: number;
}

/**
 * The reads a random fact or quote makes (a kind's categories, a category's entries) kept in
 * memory for `ttlMs`, so that a steady stream of them costs the database nothing. A write through
 * this store forgets what it changed at once; one made elsewhere (the CLI, another instance) is
 * seen within the TTL. A failed read is not kept.
 */
export class CachedContentStore implements ContentStore {
  private readonly categoriesOf = new Map<ContentKind, Kept<readonly CategoryCount[]>>();
  private readonly entriesOf = new Map<string, Kept<readonly ContentEntry[]>>();

  constructor(
    private readonly inner: ContentStore,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  async add(entries: readonly ContentEntry[], progress?: (written: number) => void): Promise<readonly string[]> {
    const added = await this.inner.add(entries, progress);
    // A fact received from an upstream that was already stored changes nothing: nothing is forgotten.
    if (added.length > 0) for (const entry of entries) this.forget(entry.kind, entry.category);
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

  /** A listing's page reads the store itself: a client paging through expects what is stored now. */
  page(query: ContentPageQuery): Promise<readonly ContentEntry[]> {
    return this.inner.page(query);
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

  private kept<K, A>(cache: Map<K, Kept<A>>, key: K, read: () => Promise<A>): Promise<A> {
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
