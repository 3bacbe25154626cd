import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StringArena } from '../../../engine/store/string-arena.js';
import { JsonBytes } from '../../../engine/util/json-bytes.js';

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }), // lone surrogates and astral characters too
  fc.string({ unit: fc.constantFrom('a', 'é', 'ÿ', '\u0000', 'Ā', '€', '\ud800'), maxLength: 40 }),
);

describe('StringArena', () => {
  it('writes every value as JSON.stringify does, plain ASCII copied in place or not', () => {
    const ascii = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 70 });
    fc.assert(
      fc.property(fc.array(fc.oneof(ascii, text), { minLength: 1, maxLength: 60 }), (values) => {
        const arena = new StringArena();
        values.forEach((value, id) => arena.set(id, value));
        const out = new JsonBytes();
        out.byte(0x5b);
        values.forEach((_, id) => {
          if (id > 0) out.byte(0x2c);
          expect(arena.writeJson(id, out)).toBe(true);
        });
        out.byte(0x5d);
        expect(out.finish().toString('utf8')).toBe(JSON.stringify(values));
        expect(arena.writeJson(values.length, out)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('writes plain values from any block, and after compaction', () => {
    const arena = new StringArena();
    const values: string[] = [];
    // ~4 MiB of values of every length mod 4, so most sit in later blocks.
    for (let id = 0; id < 60_000; id++) values.push(`${id}-${'abcdefghij'.repeat(id % 13)}${'xyz'.slice(0, id % 4)}`);
    values.forEach((value, id) => arena.set(id, value));
    const writesAll = (): void => {
      const out = new JsonBytes();
      for (let id = 0; id < values.length; id += 997) {
        out.reset();
        arena.writeJson(id, out);
        expect(out.finish().toString('latin1')).toBe(JSON.stringify(values[id]));
      }
    };
    writesAll();
    // Replacing every value twice leaves more dead bytes than live ones (and over 4 MiB): the blocks are rewritten.
    const blocks = (): number => (arena as unknown as { blocks: unknown[] }).blocks.length;
    const before = blocks();
    for (const round of ['!', '?']) values.forEach((value, id) => arena.set(id, (values[id] = `${value.slice(0, -1)}${round}`)));
    // Without a rewrite the three rounds would fill three times the blocks.
    expect(blocks()).toBeLessThan(before * 3);
    writesAll();
  });

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
