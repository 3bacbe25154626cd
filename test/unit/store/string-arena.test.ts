import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StringArena } from '../../../engine/store/string-arena.js';

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }), // lone surrogates and astral characters too
  fc.string({ unit: fc.constantFrom('a', 'é', 'ÿ', '\u0000', 'Ā', '€', '\ud800'), maxLength: 40 }),
);

describe('StringArena', () => {
  it('agrees with a Map under random sets and deletes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(300), fc.option(text, { nil: undefined })), { maxLength: 400 }), (ops) => {
        const arena = new StringArena();
        const model = new Map<number, string>();
        for (const [id, value] of ops) {
          if (value === undefined) {
            arena.delete(id);
            model.delete(id);
          } else {
            expect(arena.set(id, value)).toBe(true);
            model.set(id, value);
          }
        }
        for (let id = 0; id <= 300; id++) {
          expect(arena.get(id)).toBe(model.get(id));
          expect(arena.has(id)).toBe(model.has(id));
          const other = model.get((id * 7) % 301);
          if (model.has(id)) expect(arena.equals(id, model.get(id) as string)).toBe(true);
          if (other !== undefined) expect(arena.equals(id, other)).toBe(model.get(id) === other);
          expect(arena.equals(id, 'never stored, 25 chars..!')).toBe(false);
        }
        const seen: [number, string][] = [];
        arena.forEach((value, id) => seen.push([id, value]));
        expect(seen).toEqual([...model].sort((a, b) => a[0] - b[0]));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps values across block boundaries, values larger than a block and compaction', () => {
    const arena = new StringArena();
    const big = 'x'.repeat(3 << 20);
    const values = new Map<number, string>();
    for (let round = 0; round < 6; round++) {
      for (let id = 0; id < 20_000; id++) {
        const value = `${round}:${id}:${'é€'.charAt(id % 2).repeat(id % 97)}`;
        arena.set(id, value);
        values.set(id, value);
      }
      arena.set(20_000 + (round % 2), big + round); // replaced: its dead bytes trigger compaction
      values.set(20_000 + (round % 2), big + round);
    }
    for (let id = 0; id < 20_000; id += 2) {
      arena.delete(id);
      values.delete(id);
    }
    for (const [id, value] of values) expect(arena.get(id)).toBe(value);
    expect(arena.get(0)).toBeUndefined();
  });
});
