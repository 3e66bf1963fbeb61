/**
 * A bounded cache of recent results, cheap on the hot path: two generations of Maps. Writes go to the young
 * one; when it is full it becomes the old one and the previous old one is dropped whole, and a hit in the old
 * one moves the entry back to the young one. So it keeps at most 2 × `max` entries, keeps whatever is used
 * often, and costs one or two Map lookups per read, with no per-hit reordering (an approximate LRU).
 */
export class RecentCache<K, V> {
  #young = new Map<K, V>();
  #old = new Map<K, V>();

  constructor(readonly max: number) {
    if (!(max >= 1)) throw new Error('RecentCache needs a max of at least 1');
  }

  get(key: K): V | undefined {
    const value = this.#young.get(key);
    if (value !== undefined) return value;
    const old = this.#old.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: K, value: V): void {
    if (this.#young.size >= this.max) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(key, value);
  }

  /** Entries held now (young and old generation; an entry may be in both). */
  get size(): number {
    return this.#young.size + this.#old.size;
  }

  clear(): void {
    this.#young.clear();
    this.#old.clear();
  }
}
