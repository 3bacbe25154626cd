// Physical redo records: what a committed transaction did, in apply order, as a flat array
// [code, args..., code, args...]. Derived from the undo log (final values are read from the store when
// the redo is taken, right after the operation), replayed by GraphStore.applyRedo. No GraphQL, no clock.

import type { StoredValue } from './scalar-column.js';

export const R_CREATE = 1; // id
export const R_DELETE = 2; // id
export const R_TYPES = 3; // id, type names (the final set)
export const R_SET = 4; // predicate, id, value
export const R_UNSET = 5; // predicate, id
export const R_EDGE_ADD = 6; // predicate, from, to
export const R_EDGE_REMOVE = 7; // predicate, from, to
export const R_INDEX = 8; // predicate, index kind

/** Number of slots (code included) taken by each op code. */
export const redoWidth: Readonly<Record<number, number>> = {
  [R_CREATE]: 2,
  [R_DELETE]: 2,
  [R_TYPES]: 3,
  [R_SET]: 4,
  [R_UNSET]: 3,
  [R_EDGE_ADD]: 4,
  [R_EDGE_REMOVE]: 4,
  [R_INDEX]: 3,
};

/** A flat list of redo ops. Values are StoredValue, names are strings, ids are numbers. */
export type RedoOps = (number | string | StoredValue | readonly string[])[];
