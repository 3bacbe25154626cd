// Interned sets of type names: each node stores one small integer naming its set of types
// (nodes of an implementing type usually carry [T, Interface...], the same set for all of them).

export class TypeSets {
  private readonly sets: (readonly string[])[] = [[]];
  private readonly byKey = new Map<string, number>([['', 0]]);
  /** set → name → set ∪ {name} (nested maps: no key string built per call). */
  private readonly withCache = new Map<number, Map<string, number>>();

  names(set: number): readonly string[] {
    return this.sets[set] as readonly string[];
  }

  /** The set `set` ∪ {name}. */
  with(set: number, name: string): number {
    let byName = this.withCache.get(set);
    if (byName === undefined) this.withCache.set(set, (byName = new Map()));
    const cached = byName.get(name);
    if (cached !== undefined) return cached;
    const names = this.names(set);
    const next = names.includes(name) ? set : this.internNew([...names, name]);
    byName.set(name, next);
    return next;
  }

  /** Number of interned sets (set ids are 0 .. size-1). */
  get size(): number {
    return this.sets.length;
  }

  /** The set of exactly these names (in this order), interned. */
  intern(names: readonly string[]): number {
    if (names.length === 0) return 0;
    return this.internNew([...names]);
  }

  private internNew(names: string[]): number {
    const key = names.join('\u0000');
    let idx = this.byKey.get(key);
    if (idx === undefined) {
      idx = this.sets.length;
      this.sets.push(Object.freeze(names));
      this.byKey.set(key, idx);
    }
    return idx;
  }
}
