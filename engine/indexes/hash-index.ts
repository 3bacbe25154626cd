// `hash` index: exact-match lookups (String, enum, @id fields). A Map from value to posting.

import { postingAdd, postingIds, postingRemove, type Posting } from '../util/posting-list.js';
import { EMPTY_IDS, unionMany, type SortedIds } from '../util/sorted-ids.js';
import type { ScalarValue, ValueIndex } from './value-index.js';

export type HashKey = string | number | bigint | boolean;

/** The Map key of a value; geo values and vectors are not hashable. */
export function hashKey(value: ScalarValue): HashKey | undefined {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'bigint':
    case 'boolean':
      return value;
    default:
      return undefined;
  }
}

export class HashIndex implements ValueIndex {
  private readonly map = new Map<HashKey, Posting>();
  private entries = 0;

  get entryCount(): number {
    return this.entries;
  }

  /** Number of distinct values. */
  get keyCount(): number {
    return this.map.size;
  }

  add(value: ScalarValue, id: number): void {
    const key = hashKey(value);
    if (key === undefined) return;
    const prev = this.map.get(key);
    const next = postingAdd(prev, id);
    if (next === null) return;
    if (next !== prev) this.map.set(key, next); // a PostingList grows in place
    this.entries++;
  }

  remove(value: ScalarValue, id: number): void {
    const key = hashKey(value);
    if (key === undefined) return;
    const prev = this.map.get(key);
    const next = postingRemove(prev, id);
    if (next === null) return;
    if (next === undefined) this.map.delete(key);
    else if (next !== prev) this.map.set(key, next);
    this.entries--;
  }

  /** The raw posting under `value` (a bare id, a small array or a PostingList), without copying. */
  posting(value: ScalarValue): Posting | undefined {
    const key = hashKey(value);
    return key === undefined ? undefined : this.map.get(key);
  }

  eq(value: ScalarValue): SortedIds {
    const key = hashKey(value);
    return key === undefined ? EMPTY_IDS : postingIds(this.map.get(key));
  }

  in(values: readonly ScalarValue[]): SortedIds {
    if (values.length === 1) return this.eq(values[0] as ScalarValue);
    return unionMany(values.map((v) => this.eq(v)));
  }
}
