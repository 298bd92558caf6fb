/**
 * A map that forgets its least recently used entries once their total weight exceeds a budget.
 * An entry weighs 1 unless its setter says otherwise (its bytes, say); one heavier than the whole
 * budget is not kept. Maps iterate in insertion order, so re-inserting an entry on use keeps the
 * least recently used one first.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { readonly value: V; readonly weight: number }>();
  private usedWeight = 0;

  constructor(private readonly budget: number) {}

  /** The value, now counted as the most recently used. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, weight = 1): void {
    this.delete(key);
    if (weight > this.budget) return;
    this.entries.set(key, { value, weight });
    this.usedWeight += weight;
    for (const [oldest, { weight: oldestWeight }] of this.entries) {
      if (this.usedWeight <= this.budget) break;
      this.entries.delete(oldest);
      this.usedWeight -= oldestWeight;
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.usedWeight -= entry.weight;
  }

  get size(): { readonly entries: number; readonly weight: number } {
    return { entries: this.entries.size, weight: this.usedWeight };
  }
}
