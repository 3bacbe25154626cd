// `hash` index: exact-match lookups (String, enum, @id fields). A PostingTable from value to posting;
// given the column's key matcher it keeps no copy of the values.

import { postingIds, type Posting } from './postings/posting.js';
import { unionMany, type SortedIds } from '../util/sorted-ids.js';
import { PostingTable, type KeyMatcher } from './postings/posting-table.js';
import type { ScalarValue, ValueIndex } from './value-index.js';

export type HashKey = string | number | bigint | boolean;

/** The key of a value; geo values and vectors are not hashable. */
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
  private readonly table: PostingTable;
  private entries = 0;

  /** `matches` tests a node's stored value: every `add`/`remove` must agree with the column when called. */
  constructor(matches?: KeyMatcher) {
    this.table = new PostingTable(matches);
  }

  get entryCount(): number {
    return this.entries;
  }

  /** Number of distinct values. */
  get keyCount(): number {
    return this.table.size;
  }

  add(value: ScalarValue, id: number): void {
    const key = hashKey(value);
    if (key === undefined) return;
    if (this.table.add(key, id)) this.entries++;
  }

  remove(value: ScalarValue, id: number): void {
    const key = hashKey(value);
    if (key === undefined) return;
    if (this.table.remove(key, id)) this.entries--;
  }

  /** The raw posting under `value` (a bare id, a small array or a PostingList), without copying. */
  posting(value: ScalarValue): Posting | undefined {
    const key = hashKey(value);
    return key === undefined ? undefined : this.table.get(key);
  }

  eq(value: ScalarValue): SortedIds {
    return postingIds(this.posting(value));
  }

  in(values: readonly ScalarValue[]): SortedIds {
    if (values.length === 1) return this.eq(values[0] as ScalarValue);
    return unionMany(values.map((v) => this.eq(v)));
  }
}
