// The one interface every search index implements, plus the query shapes exec/ asks of them.
// Indexes know nothing about GraphQL: they map stored values to sorted arrays of dense node ids.

import type { StoredPostings } from './postings/stored-postings.js';

export interface GeoPoint {
  readonly type: 'Point';
  /** [longitude, latitude] */
  readonly coordinates: readonly [number, number];
}
export interface GeoPolygon {
  readonly type: 'Polygon';
  /** Rings of [longitude, latitude]; the first ring is the outer boundary, the rest are holes. */
  readonly coordinates: readonly (readonly (readonly [number, number])[])[];
}
export interface GeoMultiPolygon {
  readonly type: 'MultiPolygon';
  readonly coordinates: readonly GeoPolygon['coordinates'][];
}
export type GeoValue = GeoPoint | GeoPolygon | GeoMultiPolygon;

/**
 * A stored scalar: String/enum/ID → string, Int/Float → number, Int64 → bigint,
 * DateTime → string (RFC3339 as written; indexes parse it), Boolean → boolean, geo → GeoValue,
 * embedding → Float32Array.
 */
export type ScalarValue = string | number | bigint | boolean | GeoValue | Float32Array;

export interface ValueIndex {
  /** Index one value of node `id` (called once per element for list-valued predicates, unless `addList` exists). */
  add(value: ScalarValue, id: number): void;
  /** Undo a previous `add` of the same value for `id`. */
  remove(value: ScalarValue, id: number): void;
  /**
   * Optional: index a whole list value of node `id` at once. When an index has it, the store hands it
   * every list value whole (`addList`/`removeList` instead of `add`/`remove` per element), always
   * removing the node's previous whole value before adding the new one; single values still go
   * through `add`/`remove`. For indexes that keep one document per node (fulltext).
   */
  addList?(values: readonly ScalarValue[], id: number): void;
  /** Undo a previous `addList` of the same values for `id`. */
  removeList?(values: readonly ScalarValue[], id: number): void;
  /** Number of (token, id) entries, for the planner's estimates and memory reports. */
  readonly entryCount: number;
  /**
   * Optional: a new index's back-fill of every stored value (a restore or a schema change): `fill`
   * calls `add`/`addList` for each, and the index may defer upkeep it would do per write until `fill`
   * returns (the vector index builds one tree instead of merging trees all along).
   */
  backfill?(fill: () => void): void;
  /** Optional (token indexes): the postings as a snapshot stores them, a copy taken at once. */
  storedPostings?(): StoredPostings;
  /**
   * Optional: this new, empty index filled from `storedPostings()`'s output instead of a back-fill.
   * `each` walks the column's values, for an index that also keeps them (trigram).
   */
  loadPostings?(stored: StoredPostings, each: (fn: (value: ScalarValue | readonly ScalarValue[], id: number) => void) => void): void;
}

/** Bounds of a range query; absent bounds are open. */
export interface RangeBounds<V> {
  readonly lower?: { readonly value: V; readonly inclusive: boolean };
  readonly upper?: { readonly value: V; readonly inclusive: boolean };
}
