import { byKindCategoryId, type ContentEntry, type ContentKind } from '../domain/content.js';
import type { CategoryCount, ContentFilter, ContentStore } from '../domain/ports.js';

/** Facts and quotes in memory, kept sorted: for tests and for running without a database. */
export class MemoryContentStore implements ContentStore {
  private readonly byId = new Map<string, ContentEntry>();
  /** Per `kind/category`, its entries in order of id; rebuilt on change, read on every request. */
  private sorted = new Map<string, readonly ContentEntry[]>();

  constructor(entries: readonly ContentEntry[] = []) {
    for (const entry of entries) if (!this.byId.has(entry.id)) this.byId.set(entry.id, entry);
    this.reindex();
  }

  async add(entries: readonly ContentEntry[]): Promise<readonly string[]> {
    const added: string[] = [];
    for (const entry of entries) {
      if (this.byId.has(entry.id)) continue;
      this.byId.set(entry.id, entry);
      added.push(entry.id);
    }
    if (added.length > 0) this.reindex();
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

  async delete(id: string): Promise<boolean> {
    const deleted = this.byId.delete(id);
    if (deleted) this.reindex();
    return deleted;
  }

  private reindex(): void {
    const sorted = new Map<string, ContentEntry[]>();
    for (const entry of [...this.byId.values()].sort(byKindCategoryId)) {
      const key = `${entry.kind}/${entry.category}`;
      sorted.set(key, [...(sorted.get(key) ?? []), entry]);
    }
    this.sorted = sorted;
  }
}
