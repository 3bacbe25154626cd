// A hash table from values to postings that need not hold the values: given a matcher that tells
// whether a node's stored value is a key, a slot's key is the value of any id in its posting. A column's `hash` index (an @id
// field's, typically) then costs 8 bytes per slot instead of a Map entry plus a key string per node,
// and a lookup that misses touches one slot instead of a Map bucket, an entry and a key string.
//
// Open addressing with linear probing over [hash, ref] pairs in one Int32Array; a ref is a bare id
// (>= 0) or a larger posting kept aside; deletion shifts later entries back (no tombstones).

import { postingAdd, postingRemove, postingSomeId, type Posting } from './posting.js';

export type TableKey = string | number | bigint | boolean;

/** Whether node `id`'s stored value is (or, for list-valued predicates, contains) `key`, as Map's SameValueZero sees it. */
export type KeyMatcher = (id: number, key: TableKey) => boolean;

const EMPTY = -1;
const MIN_CAPACITY = 16;

export class PostingTable {
  /** [hash, ref] per slot; ref EMPTY, an id (>= 0), or -2 - k for aside[k]. */
  private slots = emptySlots(MIN_CAPACITY);
  private mask = MIN_CAPACITY - 1;
  private used = 0;
  private readonly aside: (Posting | undefined)[] = [];
  private readonly freeAside: number[] = [];
  /** Keys per slot, only without a matcher. */
  private keys: (TableKey | undefined)[] | undefined;

  constructor(private readonly matches?: KeyMatcher) {
    if (matches === undefined) this.keys = new Array<TableKey | undefined>(MIN_CAPACITY);
  }

  /** Number of distinct keys. */
  get size(): number {
    return this.used;
  }

  get(key: TableKey): Posting | undefined {
    const slot = this.find(key, hashOf(key));
    return slot < 0 ? undefined : this.postingAt(slot);
  }

  /** Adds `id` under `key`; false if it was there already. */
  add(key: TableKey, id: number): boolean {
    const hash = hashOf(key);
    let slot = this.find(key, hash);
    if (slot >= 0) {
      const prev = this.postingAt(slot);
      const next = postingAdd(prev, id);
      if (next === null) return false;
      if (next !== prev) this.setPosting(slot, next); // a PostingList grows in place
      return true;
    }
    if ((this.used + 1) * 2 > this.mask + 1) {
      this.grow();
      slot = this.find(key, hash);
    }
    slot = -slot - 1;
    this.slots[2 * slot] = hash;
    this.slots[2 * slot + 1] = EMPTY;
    if (this.keys !== undefined) this.keys[slot] = key;
    this.used++;
    this.setPosting(slot, id);
    return true;
  }

  /** Removes `id` from `key`; false if it was not there. */
  remove(key: TableKey, id: number): boolean {
    const slot = this.find(key, hashOf(key));
    if (slot < 0) return false;
    const prev = this.postingAt(slot);
    const next = postingRemove(prev, id);
    if (next === null) return false;
    if (next === undefined) this.removeSlot(slot);
    else if (next !== prev) this.setPosting(slot, next);
    return true;
  }

  /** The slot holding `key`, or -1 - (the empty slot where it would go). */
  private find(key: TableKey, hash: number): number {
    const slots = this.slots;
    const mask = this.mask;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const ref = slots[2 * i + 1] as number;
      if (ref === EMPTY) return -i - 1;
      if (slots[2 * i] === hash && this.holds(i, ref, key)) return i;
    }
  }

  private holds(slot: number, ref: number, key: TableKey): boolean {
    if (this.keys !== undefined) return sameKey(this.keys[slot], key);
    const id = ref >= 0 ? ref : postingSomeId(this.aside[-ref - 2]);
    return id !== undefined && (this.matches as KeyMatcher)(id, key);
  }

  private postingAt(slot: number): Posting | undefined {
    const ref = this.slots[2 * slot + 1] as number;
    return ref >= 0 ? ref : this.aside[-ref - 2];
  }

  private setPosting(slot: number, posting: Posting): void {
    const ref = this.slots[2 * slot + 1] as number;
    if (typeof posting === 'number' && posting >= 0 && posting <= 0x7fffffff) {
      if (ref <= -2) this.release(-ref - 2);
      this.slots[2 * slot + 1] = posting;
      return;
    }
    if (ref <= -2) {
      this.aside[-ref - 2] = posting;
      return;
    }
    const k = this.freeAside.pop() ?? this.aside.length;
    this.aside[k] = posting;
    this.slots[2 * slot + 1] = -2 - k;
  }

  private release(k: number): void {
    this.aside[k] = undefined;
    this.freeAside.push(k);
  }

  /** Empties `slot`, shifting back later entries of its probe run that may move (no tombstones). */
  private removeSlot(slot: number): void {
    const ref = this.slots[2 * slot + 1] as number;
    if (ref <= -2) this.release(-ref - 2);
    const slots = this.slots;
    const mask = this.mask;
    let hole = slot;
    for (let j = (hole + 1) & mask; slots[2 * j + 1] !== EMPTY; j = (j + 1) & mask) {
      const home = (slots[2 * j] as number) & mask;
      // Entry j stays if its home lies cyclically in (hole, j].
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (stays) continue;
      slots[2 * hole] = slots[2 * j] as number;
      slots[2 * hole + 1] = slots[2 * j + 1] as number;
      if (this.keys !== undefined) this.keys[hole] = this.keys[j];
      hole = j;
    }
    slots[2 * hole + 1] = EMPTY;
    if (this.keys !== undefined) this.keys[hole] = undefined;
    this.used--;
  }

  private grow(): void {
    const old = this.slots;
    const oldKeys = this.keys;
    const capacity = 2 * (this.mask + 1);
    this.slots = emptySlots(capacity);
    this.mask = capacity - 1;
    if (oldKeys !== undefined) this.keys = new Array<TableKey | undefined>(capacity);
    const slots = this.slots;
    for (let i = 0; i < old.length / 2; i++) {
      const ref = old[2 * i + 1] as number;
      if (ref === EMPTY) continue;
      const hash = old[2 * i] as number;
      let j = hash & this.mask;
      while (slots[2 * j + 1] !== EMPTY) j = (j + 1) & this.mask;
      slots[2 * j] = hash;
      slots[2 * j + 1] = ref;
      if (oldKeys !== undefined) (this.keys as (TableKey | undefined)[])[j] = oldKeys[i];
    }
  }
}

function emptySlots(capacity: number): Int32Array {
  return new Int32Array(2 * capacity).fill(EMPTY);
}

/** Map's SameValueZero. */
export function sameKey(a: unknown, b: unknown): boolean {
  return a === b || (a !== a && b !== b);
}


const float = new Float64Array(1);
const floatWords = new Int32Array(float.buffer);

/** A well-mixed 32-bit hash; equal keys (SameValueZero) hash alike. */
export function hashOf(key: TableKey): number {
  let h: number;
  switch (typeof key) {
    case 'string':
      h = 0x811c9dc5;
      for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
      break;
    case 'number':
      if (key !== key) h = 0x7ff80000;
      else if ((key | 0) === key) h = key | 0; // -0 too
      else {
        float[0] = key;
        h = Math.imul((floatWords[0] as number) ^ 0x2545f491, 0x9e3779b1) ^ (floatWords[1] as number);
      }
      break;
    case 'bigint':
      return hashOf(`n${key.toString()}`) ^ 0x5bd1e995;
    default:
      h = key ? 0x3c6ef372 : 0x1b873593;
  }
  // murmur3's finalizer
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
