// Physical redo and columnar snapshots reproduce a store exactly: random transactions (with savepoints
// rolled back) on one store, their redo applied to another and a snapshot loaded into a third, all export
// the same state, and the same digest.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GraphStore } from '../../../engine/store/graph-store.js';
import { R_CREATE, R_DELETE, R_SET, R_TYPES } from '../../../engine/store/redo.js';
import { digestStore } from '../../../engine/store/store-digest.js';
import { FactDigest } from '../../../engine/util/fact-digest.js';

const digestOf = (store: GraphStore): string => {
  const digest = new FactDigest();
  digestStore(store, digest);
  return digest.hex();
};

type Op = { k: 'create' } | { k: 'delete'; n: number } | { k: 'type'; n: number; t: string } | { k: 'set'; n: number; p: string; v: unknown } | { k: 'unset'; n: number; p: string } | { k: 'edge'; a: number; b: number; add: boolean } | { k: 'savepoint'; undo: boolean };

const value = fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.string(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.array(fc.string(), { minLength: 1, maxLength: 3 }));
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constant<Op>({ k: 'create' }),
  fc.record({ k: fc.constant('delete' as const), n: fc.nat(20) }),
  fc.record({ k: fc.constant('type' as const), n: fc.nat(20), t: fc.constantFrom('A', 'B', 'C') }),
  fc.record({ k: fc.constant('set' as const), n: fc.nat(20), p: fc.constantFrom('x', 'y', 'z'), v: value }),
  fc.record({ k: fc.constant('unset' as const), n: fc.nat(20), p: fc.constantFrom('x', 'y') }),
  fc.record({ k: fc.constant('edge' as const), a: fc.nat(20), b: fc.nat(20), add: fc.boolean() }),
  fc.record({ k: fc.constant('savepoint' as const), undo: fc.boolean() }),
);

function run(store: GraphStore, ops: readonly Op[]): void {
  const txn = store.begin();
  let mark = txn.savepoint();
  for (const o of ops) {
    const live = (n: number) => n >= 1 && n <= store.maxNodeId && store.nodeExists(n);
    if (o.k === 'create') store.createNode();
    else if (o.k === 'delete') store.deleteNode(o.n);
    else if (o.k === 'type' && live(o.n)) store.addType(o.n, o.t);
    else if (o.k === 'set' && live(o.n)) store.scalar(o.p).set(o.n, o.v as never);
    else if (o.k === 'unset') store.scalar(o.p).delete(o.n);
    else if (o.k === 'edge' && live(o.a) && live(o.b)) {
      if (o.add) store.edges('e').add(o.a, o.b);
      else store.edges('e').remove(o.a, o.b);
    } else if (o.k === 'savepoint') {
      if (o.undo) txn.rollbackTo(mark);
      mark = txn.savepoint();
    }
  }
  const redo = txn.redoSince(0);
  txn.commit();
  store.scalar('x').ensureIndex('hash');
  (store as unknown as { lastRedo: unknown }).lastRedo = redo;
}

const normal = (s: GraphStore) => {
  const snap = s.exportSnapshot();
  const ids = Array.from({ length: snap.nextId - 1 }, (_, i) => i + 1);
  return {
    nextId: snap.nextId,
    alive: ids.map((id) => snap.alive[id] ?? 0),
    types: ids.map((id) => (s.nodeExists(id) ? s.typesOf(id) : [])),
    scalars: snap.scalars
      .map((c) => {
        const values: [number, unknown][] = [];
        s.scalar(c.predicate).forEach((v, id) => values.push([id, v]));
        return { predicate: c.predicate, indexKinds: c.indexKinds, values };
      })
      .filter((c) => c.values.length > 0 || c.indexKinds.length > 0)
      .sort((a, b) => a.predicate.localeCompare(b.predicate)),
    edges: snap.edges.map((e) => ({ predicate: e.predicate, from: [...e.from], to: [...e.to] })).filter((e) => e.from.length > 0),
  };
};

describe('redo and snapshots', () => {
  it('redo replay and snapshot load reproduce the store', () => {
    fc.assert(
      fc.property(fc.array(fc.array(op, { maxLength: 40 }), { minLength: 1, maxLength: 4 }), (txns) => {
        const a = new GraphStore();
        const b = new GraphStore();
        b.scalar('x').ensureIndex('hash');
        for (const ops of txns) {
          run(a, ops);
          b.applyRedo((a as unknown as { lastRedo: never }).lastRedo);
        }
        const c = new GraphStore();
        c.importSnapshot(a.exportSnapshot());
        const expected = normal(a);
        expect(normal(b)).toEqual(expected);
        expect(normal(c)).toEqual(expected);
        expect(c.stats()).toEqual(a.stats());
        // The digest agrees whatever the path (and the layout it left: type-set numbering, column kinds).
        expect(digestOf(b)).toBe(digestOf(a));
        expect(digestOf(c)).toBe(digestOf(a));
      }),
      { numRuns: 200 },
    );
  });

  it("a deleted node's values, edges and types are logged as the delete alone (replaying it removes them)", () => {
    const a = new GraphStore();
    let txn = a.begin();
    const [x, y] = [a.createNode(), a.createNode()];
    a.addType(x, 'A');
    a.scalar('p').set(x, 'v');
    a.edges('e').add(x, y);
    a.edges('e').add(y, x);
    txn.commit();
    const b = new GraphStore();
    b.applyRedo([R_CREATE, x, R_CREATE, y, R_TYPES, x, ['A'], R_SET, 'p', x, 'v']);
    b.edges('e').add(x, y);
    b.edges('e').add(y, x);
    txn = a.begin();
    a.scalar('p').set(y, 'w'); // before the delete, about another node: kept
    a.deleteNode(x);
    const redo = txn.redoSince(0);
    txn.commit();
    expect(redo).toEqual([R_SET, 'p', y, 'w', R_DELETE, x]);
    b.applyRedo(redo);
    expect(normal(b)).toEqual(normal(a));
  });
});
