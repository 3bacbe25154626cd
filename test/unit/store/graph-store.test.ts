import { describe, expect, it } from 'vitest';
import { GraphStore } from '../../../engine/store/graph-store.js';
import { JsonBytes } from '../../../engine/util/json-bytes.js';
import type { HashIndex } from '../../../engine/indexes/hash-index.js';
import type { OrderedIndex } from '../../../engine/indexes/ordered-index.js';
import type { TermIndex } from '../../../engine/indexes/term-index.js';

function storeWith(n: number): GraphStore {
  const s = new GraphStore();
  for (let i = 0; i < n; i++) s.createNode();
  return s;
}

describe('GraphStore nodes and types', () => {
  it('creates dense ids from 1, never reused after delete', () => {
    const s = new GraphStore();
    expect(s.maxNodeId).toBe(0);
    expect([s.createNode(), s.createNode(), s.createNode()]).toEqual([1, 2, 3]);
    expect(s.nodeExists(2)).toBe(true);
    expect(s.nodeExists(0)).toBe(false);
    expect(s.nodeExists(4)).toBe(false);
    s.deleteNode(3);
    expect(s.nodeExists(3)).toBe(false);
    expect(s.createNode()).toBe(4);
    expect(s.maxNodeId).toBe(4);
    expect(s.stats().nodes).toBe(3);
    s.deleteNode(3); // no-op
    expect(s.stats().nodes).toBe(3);
  });

  it('types: add, query, nodesOfType ascending, snapshot semantics', () => {
    const s = storeWith(5);
    s.addType(3, 'Human');
    s.addType(3, 'Character');
    s.addType(1, 'Character');
    s.addType(1, 'Character');
    s.addType(5, 'Droid');
    s.addType(5, 'Character');
    expect(s.typesOf(3)).toEqual(['Human', 'Character']);
    expect(s.typesOf(2)).toEqual([]);
    expect(s.hasType(3, 'Human')).toBe(true);
    expect(s.hasType(1, 'Human')).toBe(false);
    const chars = s.nodesOfType('Character');
    expect(chars).toEqual([1, 3, 5]);
    expect(s.nodesOfType('Nope')).toEqual([]);
    s.deleteNode(3);
    s.addType(2, 'Character');
    expect(chars).toEqual([1, 3, 5]);
    expect(s.nodesOfType('Character')).toEqual([1, 2, 5]);
    expect(s.nodesOfType('Human')).toEqual([]);
    expect(s.typesOf(3)).toEqual([]);
    expect(s.countOfType('Character')).toBe(3);
  });

  it('rejects writes to missing nodes', () => {
    const s = storeWith(2);
    expect(() => s.addType(7, 'T')).toThrow(/0x7 does not exist/);
    expect(() => s.scalar('p').set(9, 'x')).toThrow(new Error('node 0x9 does not exist'));
    expect(() => s.edges('e').add(1, 9)).toThrow(new Error('node 0x9 does not exist'));
    s.deleteNode(2);
    expect(() => s.edges('e').add(2, 1)).toThrow(new Error('node 0x2 does not exist'));
  });
});

describe('ScalarColumn', () => {
  it('stores numbers, booleans, strings, bigints and lists, switching layout as needed', () => {
    const s = storeWith(6);
    const col = s.scalar('T.v');
    expect(s.scalar('T.v')).toBe(col);
    expect(col.predicate).toBe('T.v');
    col.set(2, 1.5);
    col.set(4, -0);
    expect(col.get(2)).toBe(1.5);
    expect(Object.is(col.get(4), -0)).toBe(true);
    col.set(5, 'five');
    col.set(6, 12n);
    col.set(1, ['a', 'b']);
    expect(col.get(2)).toBe(1.5);
    expect(col.get(5)).toBe('five');
    expect(col.get(6)).toBe(12n);
    expect(col.get(1)).toEqual(['a', 'b']);
    expect(col.get(3)).toBeUndefined();
    expect(col.has(3)).toBe(false);
    expect(col.ids()).toEqual([1, 2, 4, 5, 6]);
    expect(col.size).toBe(5);
    col.delete(4);
    expect(col.ids()).toEqual([1, 2, 5, 6]);
    col.set(1, []);
    expect(col.has(1)).toBe(false);
    expect(col.size).toBe(3);
    expect(s.stats().scalarValues).toBe(3);

    const b = s.scalar('T.b');
    b.set(3, false);
    b.set(1, true);
    expect([b.get(1), b.get(2), b.get(3)]).toEqual([true, undefined, false]);
    expect(b.ids()).toEqual([1, 3]);
  });

  it('writeJson writes stored strings and numbers as JSON.stringify does, and nothing for other values', () => {
    const s = storeWith(8);
    const written = (col: ReturnType<GraphStore['scalar']>, id: number): string | false => {
      const out = new JsonBytes();
      return col.writeJson(id, out) && out.finish().toString();
    };
    const nums = s.scalar('T.n');
    const values = [0, -0, 7, -123456, 2 ** 40, 1.5, 1e21, Number.NaN];
    values.forEach((v, i) => nums.set(i + 1, v));
    values.forEach((v, i) => expect(written(nums, i + 1)).toBe(JSON.stringify(v)));
    const strs = s.scalar('T.s');
    strs.set(1, 'plain');
    strs.set(2, 'quote " and \u00e9');
    expect([written(strs, 1), written(strs, 2), written(strs, 3)]).toEqual(['"plain"', JSON.stringify('quote " and \u00e9'), false]);
    const other = s.scalar('T.o');
    other.set(1, true);
    expect(written(other, 1)).toBe(false);
    expect(written(other, 2)).toBe(false);
  });

  it('maintains attached indexes, back-filling on ensureIndex and indexing each list element', () => {
    const s = storeWith(4);
    const name = s.scalar('T.name');
    name.set(1, 'alice');
    name.set(2, 'bob');
    const hash = name.ensureIndex('hash') as HashIndex;
    expect(name.ensureIndex('hash')).toBe(hash);
    expect(name.index('hash')).toBe(hash);
    expect(name.index('exact')).toBeUndefined();
    expect(hash.eq('alice')).toEqual([1]);
    name.set(3, 'alice');
    name.set(1, 'carol');
    expect(hash.eq('alice')).toEqual([3]);
    expect(hash.eq('carol')).toEqual([1]);
    name.delete(2);
    expect(hash.eq('bob')).toEqual([]);
    expect(hash.entryCount).toBe(2);

    const tags = s.scalar('T.tags');
    const term = tags.ensureIndex('term') as TermIndex;
    tags.set(4, ['red apple', 'green apple']);
    expect(term.allOf('apple')).toEqual([4]);
    expect(term.allOf('red green')).toEqual([4]);
    tags.set(4, ['green apple']);
    expect(term.anyOf('red')).toEqual([]);
    expect(term.allOf('apple green')).toEqual([4]);
    expect(s.stats().indexEntries).toBe(2 + 2);
  });
});

describe('EdgeColumn', () => {
  it('keeps forward and reverse adjacency in id order', () => {
    const s = storeWith(10);
    const e = s.edges('T.friends');
    expect(e.add(1, 5)).toBe(true);
    expect(e.add(1, 3)).toBe(true);
    expect(e.add(1, 9)).toBe(true);
    expect(e.add(1, 3)).toBe(false);
    expect(e.add(2, 3)).toBe(true);
    expect(e.add(7, 7)).toBe(true);
    expect(e.out(1)).toEqual([3, 5, 9]);
    expect(e.in(3)).toEqual([1, 2]);
    expect(e.in(7)).toEqual([7]);
    expect(e.has(1, 5)).toBe(true);
    expect(e.has(5, 1)).toBe(false);
    expect(e.sources()).toEqual([1, 2, 7]);
    expect(e.targets()).toEqual([3, 5, 7, 9]);
    expect(e.size).toBe(5);
    expect(e.outCount(1)).toBe(3);
    expect(e.firstOut(1)).toBe(3);
    expect(e.firstOut(4)).toBeUndefined();
    expect(e.remove(1, 3)).toBe(true);
    expect(e.remove(1, 3)).toBe(false);
    expect(e.out(1)).toEqual([5, 9]);
    expect(e.in(3)).toEqual([2]);
    e.remove(2, 3);
    expect(e.sources()).toEqual([1, 7]);
    expect(e.out(42)).toEqual([]);
    const all: [number, number][] = [];
    e.forEach((a, b) => all.push([a, b]));
    expect(all).toEqual([[1, 5], [1, 9], [7, 7]]);
    expect(e.size).toBe(3);
  });

  it('handles large fan-in', () => {
    const s = storeWith(3000);
    const e = s.edges('p');
    for (let i = 3000; i >= 2; i--) e.add(i, 1);
    expect(e.in(1).length).toBe(2999);
    expect(e.in(1)[0]).toBe(2);
    for (let i = 2; i <= 3000; i += 2) e.remove(i, 1);
    expect(e.in(1)).toEqual(Array.from({ length: 1499 }, (_, k) => 3 + 2 * k));
  });
});

describe('deleteNode', () => {
  it('removes values, index entries, edges in both directions on every predicate, and types', () => {
    const s = storeWith(4);
    s.addType(2, 'T');
    const name = s.scalar('T.name');
    const age = s.scalar('T.age');
    const hash = name.ensureIndex('hash') as HashIndex;
    const ord = age.ensureIndex('int') as OrderedIndex;
    name.set(2, 'x');
    age.set(2, 30);
    age.set(3, 30);
    const a = s.edges('a');
    const b = s.edges('b');
    a.add(1, 2);
    a.add(2, 3);
    b.add(2, 2);
    b.add(4, 2);
    b.add(4, 1);
    s.deleteNode(2);
    expect(name.has(2)).toBe(false);
    expect(hash.eq('x')).toEqual([]);
    expect(ord.eq(30)).toEqual([3]);
    expect(a.out(1)).toEqual([]);
    expect(a.in(3)).toEqual([]);
    expect(b.out(4)).toEqual([1]);
    expect(b.in(2)).toEqual([]);
    expect(s.nodesOfType('T')).toEqual([]);
    expect(s.stats()).toEqual({ nodes: 3, scalarValues: 1, edges: 1, indexEntries: 1 });
  });
});

describe('transactions', () => {
  function snapshot(s: GraphStore): unknown {
    const name = s.scalar('T.name');
    const e = s.edges('T.e');
    const ids = Array.from({ length: s.maxNodeId + 2 }, (_, i) => i);
    return {
      max: s.maxNodeId,
      stats: s.stats(),
      alive: ids.map((i) => s.nodeExists(i)),
      types: ids.map((i) => s.typesOf(i)),
      byType: s.nodesOfType('T'),
      names: ids.map((i) => name.get(i)),
      nameIds: name.ids(),
      hash: ['a', 'b', 'c', 'z'].map((v) => (name.index('hash') as HashIndex).eq(v)),
      out: ids.map((i) => e.out(i)),
      in: ids.map((i) => e.in(i)),
      sources: e.sources(),
      indexes: name.indexKinds(),
    };
  }

  it('rollback restores everything, including the id counter', () => {
    const s = storeWith(3);
    s.addType(1, 'T');
    s.addType(2, 'T');
    const name = s.scalar('T.name');
    name.ensureIndex('hash');
    name.set(1, 'a');
    name.set(2, 'b');
    const e = s.edges('T.e');
    e.add(1, 2);
    e.add(2, 3);
    e.add(3, 1);
    const before = snapshot(s);

    const tx = s.begin();
    expect(() => s.begin()).toThrow(new Error('a transaction is already open'));
    const n4 = s.createNode();
    s.addType(n4, 'T');
    s.addType(3, 'T');
    s.addType(1, 'U');
    name.set(n4, 'z');
    name.set(1, 'c');
    name.delete(2);
    e.add(n4, 1);
    e.remove(1, 2);
    s.deleteNode(3);
    name.ensureIndex('exact');
    expect(snapshot(s)).not.toEqual(before);
    tx.rollback();
    expect(snapshot(s)).toEqual(before);
    expect(name.index('exact')).toBeUndefined();
    expect(() => tx.rollback()).toThrow(new Error('transaction already finished'));
    expect(s.createNode()).toBe(4);
  });

  it('commit keeps changes and allows the next transaction', () => {
    const s = storeWith(1);
    const tx = s.begin();
    const id = s.createNode();
    s.scalar('p').set(id, 1);
    tx.commit();
    expect(() => tx.commit()).toThrow(new Error('transaction already finished'));
    expect(s.scalar('p').get(2)).toBe(1);
    const tx2 = s.begin();
    s.deleteNode(2);
    tx2.rollback();
    expect(s.scalar('p').get(2)).toBe(1);
    expect(s.nodeExists(2)).toBe(true);
    expect(s.inTransaction).toBe(false);
  });

  // Pipelined groups of writes (server/cluster/README.md): N+1 runs on N's uncommitted state; acks commit
  // them oldest first; a refusal rolls back what is still open, newest first.
  it('stacked groups: commitThrough commits the older group alone, told once; the newer stay undoable, their marks valid', () => {
    const s = storeWith(2);
    const name = s.scalar('T.name');
    name.ensureIndex('hash');
    name.set(1, 'a');
    const e = s.edges('T.e');
    const told: string[][] = [];
    s.onCommit = (touched) => told.push([...touched.predicates, ...touched.types]);
    const tx = s.begin();
    const first = tx.savepoint();
    const n3 = s.createNode();
    name.set(n3, 'b');
    name.set(1, 'z');
    const second = tx.savepoint();
    const afterFirst = snapshot(s);
    e.add(n3, 1);
    name.set(1, 'c');
    s.addType(2, 'T');
    const afterSecond = snapshot(s);
    tx.commitThrough(second);
    expect(told).toEqual([['T.name']]);
    expect(snapshot(s)).toEqual(afterSecond);
    expect(() => tx.rollbackTo(first)).toThrow(new Error(`savepoint ${first} was committed`));
    expect(tx.changesSince(second)).toBe(3);
    const third = tx.savepoint();
    name.set(2, 'd');
    expect(tx.changesSince(second)).toBe(4);
    expect(tx.redoSince(third)).toContain('d');
    expect(tx.redoSince(third)).not.toContain('c');
    tx.rollbackTo(second);
    expect(snapshot(s)).toEqual(afterFirst);
    tx.commitThrough(tx.savepoint());
    expect(told).toEqual([['T.name']]);
    tx.commit();
    expect(told).toEqual([['T.name'], []]);
    expect(s.inTransaction).toBe(false);
    expect(snapshot(s)).toEqual(afterFirst);
  });

  it('stacked groups: a rollback after commitThrough undoes only the newer group (its node ids rewound)', () => {
    const s = storeWith(1);
    const p = s.scalar('p');
    const tx = s.begin();
    const a = s.createNode();
    p.set(a, 1);
    const mark = tx.savepoint();
    const before = { max: s.maxNodeId, values: p.ids() };
    const b = s.createNode();
    p.set(b, 2);
    p.set(a, 3);
    tx.commitThrough(mark);
    tx.rollback();
    expect({ max: s.maxNodeId, values: p.ids() }).toEqual(before);
    expect([p.get(a), s.nodeExists(b)]).toEqual([1, false]);
    expect(s.createNode()).toBe(b);
    expect(() => tx.commitThrough(mark)).toThrow(new Error('transaction already finished'));
  });
});
