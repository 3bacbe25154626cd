// A small LRU keyed by document text. Bad documents are remembered too, so a client that repeats a
// broken query does not pay for parsing and validation again (mercurius does the same).

export class LruCache<V> {
  readonly #entries = new Map<string, V>();
  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      // Re-insert to mark as most recently used.
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    if (this.#entries.size >= this.capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, value);
  }

  get size(): number {
    return this.#entries.size;
  }
}
