import { describe, expect, it } from 'vitest';
import { bitsetOf } from '../../../../engine/indexes/postings/bitsets.js';
import { inBitsets, membershipOf } from '../../../../engine/indexes/postings/membership.js';
import { TermIndex } from '../../../../engine/indexes/term-index.js';

const evens = Array.from({ length: 4096 }, (_, i) => 2 * i + 2);

describe('membership tests', () => {
  it('answers like a binary search before and after switching to the bitset', () => {
    const builds: boolean[] = [];
    const m = membershipOf(evens, undefined, (build) => {
      builds.push(build);
      return build ? bitsetOf(evens) : undefined;
    });
    // 4096 / (3 × log2(4097)) ≈ 114 searches, then the bitset.
    const answers: boolean[] = [];
    for (let id = 0; id < 20_000; id++) answers.push(m.has(id));
    expect(answers).toEqual(Array.from({ length: 20_000 }, (_, id) => id >= 2 && id <= 8192 && id % 2 === 0));
    expect(builds).toEqual([false, true]);
  });

  it('counts the searches of one list across memberships (one per request): a list searched a little by many requests gets its bitset', () => {
    const ids = Array.from({ length: 4096 }, (_, i) => 2 * i + 1);
    const builds: boolean[] = [];
    let bits: Uint32Array | undefined;
    const bitset = (build: boolean): Uint32Array | undefined => {
      builds.push(build);
      if (build) bits = bitsetOf(ids);
      return bits;
    };
    // Each request tests 80 ids; the budget is about 114 searches in all: the second request builds.
    for (let request = 0; request < 3; request++) {
      const m = membershipOf(ids, undefined, bitset);
      for (let k = 0; k < 80; k++) expect(m.has(k * 37)).toBe((k * 37) % 2 === 1);
    }
    expect(builds).toEqual([false, false, true, false]);
  });

  it('uses a cached bitset at once and never builds for a few tests', () => {
    const asked: boolean[] = [];
    const few = membershipOf(evens, undefined, (build) => (asked.push(build), undefined));
    for (let id = 0; id < 100; id++) few.has(id);
    expect(asked).toEqual([false]);
    const bits = bitsetOf(evens);
    const cached = membershipOf(evens, undefined, (build) => (build ? undefined : bits));
    expect([cached.has(8192), cached.has(8194), cached.has(3), cached.has(1 << 30)]).toEqual([true, false, false, false]);
  });

  it('a token index member switches to its posting bitset (same answers as allOf)', () => {
    const index = new TermIndex();
    for (let id = 1; id <= 6000; id++) index.add(id % 3 === 0 ? 'alpha beta' : 'alpha', id);
    const [alpha, beta] = index.members('alpha beta');
    const both = [];
    for (let id = 0; id <= 6001; id++) if (alpha?.has(id) && beta?.has(id)) both.push(id);
    expect(both).toEqual(index.allOf('alpha beta'));
  });
});

describe('membership searches', () => {
  it('ascending, descending and random probes answer as the list holds', () => {
    const ids = Array.from({ length: 3000 }, (_, i) => 3 * i + (i % 3));
    const holds = new Set(ids);
    const probes = [
      Array.from({ length: 10_000 }, (_, i) => i),
      Array.from({ length: 10_000 }, (_, i) => 10_000 - i),
      Array.from({ length: 10_000 }, (_, i) => (i * 7919) % 10_007),
      [5, 5, 4, 9000, 9001, 8999, 0, 1 << 30, 2, 2],
    ];
    for (const sequence of probes) {
      const m = membershipOf(ids);
      expect(sequence.map((id) => m.has(id))).toEqual(sequence.map((id) => holds.has(id)));
    }
  });
});

describe('inBitsets', () => {
  it('answers whether an id is in any of one, two or three bitsets (ids past a bitset\'s end included)', () => {
    const lists = [evens, Array.from({ length: 2000 }, (_, i) => 3 * i + 1), Array.from({ length: 3000 }, (_, i) => 5 * i + 3)];
    const sets = lists.map((l) => bitsetOf(l) as Uint32Array);
    for (let n = 1; n <= 3; n++) {
      const test = inBitsets(sets.slice(0, n));
      const holds = new Set(lists.slice(0, n).flat());
      const probes = Array.from({ length: 20_000 }, (_, id) => id);
      expect(probes.filter(test), `${n} bitsets`).toEqual(probes.filter((id) => holds.has(id)));
    }
    expect(inBitsets([])(5)).toBe(false);
  });

  it('a membership exposes its bitset only once cached (a built-on-the-way one is not)', () => {
    const bits = bitsetOf(evens);
    expect(membershipOf(evens, undefined, (build) => (build ? undefined : bits)).bits).toBe(bits);
    expect(membershipOf(evens, undefined, (build) => (build ? bits : undefined)).bits).toBeUndefined();
    expect(membershipOf(evens).bits).toBeUndefined();
  });
});
