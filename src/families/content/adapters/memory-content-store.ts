import { randomBytes } from 'node:crypto';
import { byKindCategoryId, type ContentEntry, type ContentKind } from '../domain/content.js';
import { searchKeysOf, type SearchKeys } from '../domain/content-search.js';
import type { AuthorCount, CategoryCount, ContentFilter, ContentPageQuery, ContentStore } from '../domain/ports.js';

const inOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Facts and quotes in memory, kept sorted: for tests and for running without a database. */
export class MemoryContentStore implements ContentStore {
  private readonly byId = new Map<string, ContentEntry>();
  /** What listings match each entry by, made as it is added. */
  private readonly keysOf = new Map<string, SearchKeys>();
  private readonly secret = randomBytes(32);
  /** Per `kind/category`, its entries in order of id; rebuilt on change, read on every request. */
  private sorted = new Map<string, readonly ContentEntry[]>();
  /** Every entry in order of id, as listings page through them. */
  private inIdOrder: readonly ContentEntry[] = [];

  constructor(entries: readonly ContentEntry[] = []) {
    for (const entry of entries) if (!this.byId.has(entry.id)) this.byId.set(entry.id, entry);
    this.reindex();
  }

  async add(entries: readonly ContentEntry[], progress?: (written: number) => void): Promise<readonly string[]> {
    const added: string[] = [];
    for (const entry of entries) {
      if (this.byId.has(entry.id)) continue;
      this.byId.set(entry.id, entry);
      added.push(entry.id);
    }
    if (added.length > 0) this.reindex();
    progress?.(entries.length);
    return added;
  }

  async count(kind: ContentKind, category: string): Promise<number> {
    return this.sorted.get(`${kind}/${category}`)?.length ?? 0;
  }

  async categories(kind: ContentKind): Promise<readonly CategoryCount[]> {
    return [...this.sorted.entries()]
      .filter(([key]) => key.startsWith(`${kind}/`))
      .map(([key, entries]) => ({ category: key.slice(kind.length + 1), count: entries.length }));
  }

  async nth(kind: ContentKind, category: string, index: number): Promise<ContentEntry | undefined> {
    return this.sorted.get(`${kind}/${category}`)?.[index];
  }

  async list({ kind, category }: ContentFilter): Promise<readonly ContentEntry[]> {
    return [...this.byId.values()]
      .filter(
        (entry) =>
          (kind === undefined || entry.kind === kind) && (category === undefined || entry.category === category),
      )
      .sort(byKindCategoryId);
  }

  async page(query: ContentPageQuery): Promise<readonly ContentEntry[]> {
    const { kind, category, authorKey, words = [], minLength, maxLength, after, limit } = query;
    const found: ContentEntry[] = [];
    for (const entry of this.inIdOrder) {
      if (entry.kind !== kind || (after !== undefined && entry.id <= after)) continue;
      if (category !== undefined && entry.category !== category) continue;
      const keys = this.keys(entry);
      if (authorKey !== undefined && keys.authorKey !== authorKey) continue;
      if (minLength !== undefined && keys.length < minLength) continue;
      if (maxLength !== undefined && keys.length > maxLength) continue;
      if (!words.every((word) => keys.words.includes(` ${word} `))) continue;
      found.push(entry);
      if (found.length === limit) break;
    }
    return found;
  }

  async authors(kind: ContentKind): Promise<readonly AuthorCount[]> {
    const counts = new Map<string, number>();
    for (const entry of this.byId.values())
      if (entry.kind === kind && entry.author !== null) counts.set(entry.author, (counts.get(entry.author) ?? 0) + 1);
    return [...counts].map(([author, count]) => ({ author, count })).sort((a, b) => inOrder(a.author, b.author));
  }

  async listingSecret(): Promise<Buffer> {
    return this.secret;
  }

  async delete(id: string): Promise<boolean> {
    const deleted = this.byId.delete(id);
    this.keysOf.delete(id);
    if (deleted) this.reindex();
    return deleted;
  }

  private keys(entry: ContentEntry): SearchKeys {
    let keys = this.keysOf.get(entry.id);
    if (keys === undefined) {
      keys = searchKeysOf(entry);
      this.keysOf.set(entry.id, keys);
    }
    return keys;
  }

  private reindex(): void {
    const sorted = new Map<string, ContentEntry[]>();
    for (const entry of [...this.byId.values()].sort(byKindCategoryId)) {
      const key = `${entry.kind}/${entry.category}`;
      const entries = sorted.get(key);
      if (entries) entries.push(entry);
      else sorted.set(key, [entry]);
    }
    this.sorted = sorted;
    this.inIdOrder = [...this.byId.values()].sort((a, b) => inOrder(a.id, b.id));
  }
}
