// A small cache keyed by document text. Bad documents are remembered too, so a client that repeats a
// broken query does not pay for parsing and validation again (mercurius does the same).
// Eviction is CLOCK (second chance): a hit only sets a flag, so the hot path never reorders the Map.
// The last key read is compared first: a request's text is a new string whose hash V8 computes on a
// Map lookup (~200 ns for a 100-character query), while comparing it with the last one is a memcmp.

interface Entry<V> {
  readonly value: V;
  used: boolean;
}

export class LruCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  /** The key last read and its entry (cleared by every `set`, the only place entries change). */
  #lastKey: string | undefined;
  #last: Entry<V> | undefined;
  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const entry = key === this.#lastKey ? this.#last : this.#entries.get(key);
    if (entry === undefined) return undefined;
    entry.used = true;
    this.#lastKey = key;
    this.#last = entry;
    return entry.value;
  }

  set(key: string, value: V): void {
    this.#lastKey = undefined;
    this.#last = undefined;
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
