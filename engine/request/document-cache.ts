// A small cache keyed by document text. Bad documents are remembered too, so a client that repeats a
// broken query does not pay for parsing and validation again (mercurius does the same).
// Eviction is CLOCK (second chance): a hit only sets a flag, so the hot path never reorders the Map.

interface Entry<V> {
  readonly value: V;
  used: boolean;
}

export class LruCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    entry.used = true;
    return entry.value;
  }

  set(key: string, value: V): void {
    if (!this.#entries.has(key) && this.#entries.size >= this.capacity) this.#evictOne();
    this.#entries.set(key, { value, used: false });
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Oldest first; a recently used entry gets a second chance at the back of the queue. */
  #evictOne(): void {
    for (const [key, entry] of this.#entries) {
      this.#entries.delete(key);
      if (!entry.used) return;
      entry.used = false;
      this.#entries.set(key, entry);
    }
  }
}
