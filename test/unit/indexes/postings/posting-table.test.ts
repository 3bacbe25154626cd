// HashIndex over its PostingTable, with and without a value reader, against a Map of Sets (Map's own
// SameValueZero keys: -0 and 0 alike, NaN equal to itself, 1 and '1' and 1n apart).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HashIndex } from '../../../../engine/indexes/hash-index.js';
import { hashOf, sameKey } from '../../../../engine/indexes/postings/posting-table.js';
import { postingIds } from '../../../../engine/indexes/postings/posting.js';

type Key = string | number | bigint | boolean;
const key: fc.Arbitrary<Key> = fc.oneof(
  fc.constantFrom<Key>(0, -0, NaN, 1, '1', 1n, true, false, '', 1.5, -7, 2 ** 40, 'é€', 'x'),
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -50, max: 50 }),
);

/** A column: id → value or list of values; the reader sees it as the index is told. */
type Op = { readonly id: number; readonly values: readonly Key[] | undefined };
const op: fc.Arbitrary<Op> = fc.record({
  id: fc.nat(60),
  values: fc.option(fc.uniqueArray(key, { maxLength: 3, minLength: 1, comparator: 'SameValueZero' }), { nil: undefined }),
});

function run(ops: readonly Op[], withReader: boolean): void {
  const column = new Map<number, readonly Key[]>();
  const index = new HashIndex(withReader ? (id, k) => (column.get(id) ?? []).some((v) => sameKey(v, k)) : undefined);
  const model = new Map<Key, Set<number>>();
  for (const { id, values } of ops) {
    const prev = column.get(id);
    // As ScalarColumn.write does: unindex while the old value is stored, index once the new one is.
    for (const v of prev ?? []) {
      index.remove(v, id);
      model.get(v)?.delete(id);
      if (model.get(v)?.size === 0) model.delete(v);
    }
    if (values === undefined) column.delete(id);
    else column.set(id, values);
    for (const v of values ?? []) {
      index.add(v, id);
      if (!model.has(v)) model.set(v, new Set());
      model.get(v)?.add(id);
    }
  }
  let entries = 0;
  for (const [k, ids] of model) {
    expect(index.eq(k)).toEqual([...ids].sort((a, b) => a - b));
    entries += ids.size;
  }
  expect(index.keyCount).toBe(model.size);
  expect(index.entryCount).toBe(entries);
  for (const k of ['absent', 99, -1n]) if (!model.has(k)) expect(postingIds(index.posting(k))).toEqual([]);
}

describe('PostingTable (through HashIndex)', () => {
  it('agrees with a Map of Sets without a reader (keys kept in the table)', () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 300 }), (ops) => run(ops, false)), { numRuns: 300 });
  });

  it('agrees with a Map of Sets reading keys from the column', () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 300 }), (ops) => run(ops, true)), { numRuns: 300 });
  });

  it('survives growth and removal of many keys (probe runs wrap and shift back)', () => {
    const values = new Map<number, string>();
    const index = new HashIndex((id, k) => values.get(id) === k);
    for (let id = 0; id < 5000; id++) {
      values.set(id, `k${id % 3000}`);
      index.add(`k${id % 3000}`, id);
    }
    for (let id = 0; id < 5000; id += 3) {
      index.remove(values.get(id) as string, id);
      values.delete(id);
    }
    for (let k = 0; k < 3000; k++) {
      const expected = [k, k + 3000].filter((id) => id < 5000 && id % 3 !== 0);
      expect(index.eq(`k${k}`)).toEqual(expected);
    }
  });

  it('hashes SameValueZero-equal keys alike', () => {
    expect(hashOf(0)).toBe(hashOf(-0));
    expect(hashOf(NaN)).toBe(hashOf(Number('x')));
    expect(hashOf('ab')).not.toBe(hashOf('ba'));
  });
});
