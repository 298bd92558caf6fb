import { LRUCache } from 'lru-cache';

/**
 * A map that forgets its least recently used entries once their total weight exceeds a budget:
 * lru-cache's, with an entry weighing 1 unless its setter says otherwise (its bytes, say), and one
 * heavier than the whole budget not kept (a budget of 0 keeps nothing). A weight is a whole number
 * above 0.
 */
export class LruCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  private readonly entries: LRUCache<K, V>;

  constructor(private readonly budget: number) {
    this.entries = new LRUCache<K, V>({ maxSize: Math.max(budget, 1) });
  }

  /** The value, now counted as the most recently used. */
  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V, weight = 1): void {
    if (weight > this.budget) this.entries.delete(key);
    else this.entries.set(key, value, { size: weight });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Forgets every value. */
  clear(): void {
    this.entries.clear();
  }

  get size(): { readonly entries: number; readonly weight: number } {
    return { entries: this.entries.size, weight: this.entries.calculatedSize };
  }
}
