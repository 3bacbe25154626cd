// The store's digest: one fact per node, type, value and edge, summed, so it follows the logical state
// only: not the order of writes, not the columns' layout, not a value rewritten to what it was.

import { describe, expect, it } from 'vitest';
import { GraphStore, type StoredValue } from '../../../engine/store/graph-store.js';
import { digestStore } from '../../../engine/store/store-digest.js';
import { FactDigest } from '../../../engine/util/fact-digest.js';

const digestOf = (store: GraphStore): string => {
  const digest = new FactDigest();
  digestStore(store, digest);
  return digest.hex();
};

/** Two nodes with types (the first: A then B), a value of `p` on the first, an edge between them. */
function build(value: StoredValue, order: 'forward' | 'backward' = 'forward', types = ['A', 'B']): GraphStore {
  const store = new GraphStore();
  const txn = store.begin();
  const [a, b] = [store.createNode(), store.createNode()];
  for (const type of types) store.addType(a, type);
  const steps = [() => store.addType(b, 'B'), () => store.scalar('q').set(b, 7), () => store.scalar('p').set(a, value), () => store.edges('e').add(a, b), () => store.edges('e').add(b, a)];
  for (const step of order === 'forward' ? steps : steps.reverse()) step();
  txn.commit();
  return store;
}

describe('store digest', () => {
  it('is 16 hex digits, the same for the same facts written in another order', () => {
    const digest = digestOf(build('x'));
    expect(digest).toMatch(/^[0-9a-f]{16}$/);
    expect(digestOf(build('x', 'backward'))).toBe(digest);
    expect(digestOf(new GraphStore())).not.toBe(digest);
    // A node's type order counts: its first object type is the one it is served as.
    expect(digestOf(build('x', 'forward', ['B', 'A']))).not.toBe(digest);
    expect(digestOf(build('x', 'forward', ['A']))).not.toBe(digest);
  });

  it('tells every kind of value and every change apart', () => {
    const values: StoredValue[] = ['1', 1, 1n, true, 0, -0, 1.5, 'x', 'xy', 'yx', ['a', 'b'], ['b', 'a'], ['ab'], new Float32Array([1, 2]), { type: 'Point', coordinates: [1, 2] }, { type: 'Point', coordinates: [2, 1] }];
    const digests = values.map((value) => digestOf(build(value)));
    expect(new Set(digests).size).toBe(values.length);
    // A geo value's key order is not part of it.
    expect(digestOf(build({ coordinates: [1, 2], type: 'Point' } as StoredValue))).toBe(digests[14]);
  });

  it('follows types, edges, deletes and the id counter, and comes back when a change is undone', () => {
    const store = build('x');
    const before = digestOf(store);
    const txn = store.begin();
    store.edges('e').remove(1, 2);
    const noEdge = digestOf(store);
    store.edges('f').add(1, 2);
    const otherPredicate = digestOf(store);
    txn.rollback();
    expect(new Set([before, noEdge, otherPredicate]).size).toBe(3);
    expect(digestOf(store)).toBe(before);

    const deleted = store.begin();
    store.deleteNode(2);
    const afterDelete = digestOf(store);
    deleted.commit();
    expect(afterDelete).not.toBe(before);
    // A node created and deleted again leaves only the id counter moved: still another state (later ids differ).
    const other = build('x');
    const t = other.begin();
    other.deleteNode(other.createNode());
    t.commit();
    expect(digestOf(other)).not.toBe(before);
  });
});
