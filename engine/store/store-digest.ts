// The store's part of the state digest: every live node with its types (in order: the first object type
// is the one a node is served as), every scalar value and every edge, each one fact of a FactDigest (an
// order-free sum), plus the highest id ever created (it decides the ids of later nodes). Reads values through the columns' public API, so it does not depend on how they
// are laid out (numbers, booleans, arena strings, arrays), on index internals, block pools or the
// interned type-set numbering: a store reached by live writes, by log replay or from a snapshot agrees.

import { nameKey, type FactDigest } from '../util/fact-digest.js';
import type { GraphStore, StoredValue } from './graph-store.js';

const T_NEXT_ID = 1;
const T_NODE = 2;
const T_VALUE = 4;
const T_EDGE = 5;

/** Adds the store's facts to `into` (a walk of the whole store: on demand, never on a write path). */
export function digestStore(store: GraphStore, into: FactDigest): void {
  into.begin(T_NEXT_ID).num(store.maxNodeId).end();
  const max = store.maxNodeId;
  for (let id = 1; id <= max; id++) {
    if (!store.nodeExists(id)) continue;
    into.begin(T_NODE).int(id);
    for (const name of store.typesOf(id)) into.int(nameKey(name));
    into.end();
  }
  const { scalars, edges } = store.predicates();
  for (const predicate of scalars) {
    const key = nameKey(predicate);
    store.scalar(predicate).forEach((value, id) => digestValue(into.begin(T_VALUE).int(key).int(id), value).end());
  }
  for (const predicate of edges) {
    const key = nameKey(predicate);
    store.edges(predicate).forEach((from, to) => into.begin(T_EDGE).int(key).int(from).int(to).end());
  }
}

const V_STRING = 1;
const V_NUMBER = 2;
const V_BIGINT = 3;
const V_BOOLEAN = 4;
const V_FLOAT32 = 5;
const V_LIST = 6;
const V_OTHER = 7;

/** A value as fact parts: its kind, then its content (a list element by element, in order). */
export function digestValue(into: FactDigest, value: StoredValue): FactDigest {
  switch (typeof value) {
    case 'string':
      return into.int(V_STRING).str(value);
    case 'number':
      return into.int(V_NUMBER).num(value);
    case 'bigint':
      return into.int(V_BIGINT).str(value.toString());
    case 'boolean':
      return into.int(V_BOOLEAN).int(value ? 1 : 0);
  }
  if (value instanceof Float32Array) {
    into.int(V_FLOAT32).int(value.length);
    for (const x of value) into.num(x);
    return into;
  }
  if (Array.isArray(value)) {
    into.int(V_LIST).int(value.length);
    for (const element of value as readonly StoredValue[]) digestValue(into, element);
    return into;
  }
  // Geo values: plain data whose key order may depend on where they were decoded from.
  return into.int(V_OTHER).str(canonicalJson(value));
}

/** JSON with object keys sorted. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
