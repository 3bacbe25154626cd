// A mutation record's frame, written by redo-frame.ts without msgpackr for the common values, must be
// the bytes msgpackr wrote for it (old logs and new ones alike, and cluster mode compares frames made
// again from decoded records): every value kind at every msgpack size boundary, against msgpackr.

import { describe, expect, it } from 'vitest';
import { checksum } from '../../../engine/persist/checksum.js';
import { frameRecord, KIND_MUTATION, readFrames } from '../../../engine/persist/log-format.js';
import { encode, markNegativeZero } from '../../../engine/persist/msgpack-codec.js';
import type { RedoOps } from '../../../engine/store/redo.js';

/** What frameRecord wrote before: msgpackr's encoding of [kind, lsn, ops], -0 marked in the values. */
function msgpackrFrame(lsn: number, ops: readonly unknown[]): Buffer {
  const payload = encode([KIND_MUTATION, lsn, ops.map((v) => markNegativeZero(v))]);
  const frame = Buffer.allocUnsafe(8 + payload.length);
  frame.writeUInt32LE(payload.length, 0);
  frame.writeUInt32LE(checksum(frame.subarray(0, 4), payload), 4);
  payload.copy(frame, 8);
  return frame;
}

const ascii = (n: number): string => 'abcdefghij'.repeat(Math.ceil(n / 10)).slice(0, n);
const lengths = [0, 1, 31, 32, 63, 64, 255, 256, 65_535, 65_536];
const strings = [
  ...lengths.map(ascii),
  // Multi-byte text whose UTF-16 length and UTF-8 length fall on either side of a header size.
  ...[10, 11, 21, 22, 63, 64, 85, 86, 21_845, 21_846].map((n) => 'é€'.repeat(n).slice(0, n)),
  ...[15, 16, 31, 32, 40].map((n) => '😀'.repeat(n)),
  'lone \ud800 high',
  `${'x'.repeat(70)}\udc00 lone low in a long string`,
  'Post.title',
  '',
];
const numbers = [
  0, 1, 0x1f, 0x20, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 2 ** 32 - 1, 2 ** 32, 2 ** 53,
  -1, -0x20, -0x21, -0x80, -0x81, -0x8000, -0x8001, -(2 ** 31), -(2 ** 31) - 1, -(2 ** 53),
  0.5, -2.25, 1e300, Number.MIN_VALUE, NaN, Infinity, -Infinity, -0,
];
const others: unknown[] = [
  null, true, false, 123_456_789_012_345_678n, -5n, new Float32Array([1.5, -0, 3]), new Float64Array([2.5]),
  { type: 'Point', coordinates: [1.5, -0] }, ['Post', 'Dated'], [], ['a', 1], [1.5, -0, 2], ['😀', 'x'.repeat(80)],
];

describe('redo frame', () => {
  it('each value alone, as every op slot, is the frame msgpackr wrote', () => {
    for (const value of [...strings, ...numbers, ...others]) {
      const ops = [4, 'Post.x', 301, value] as RedoOps;
      expect(frameRecord({ kind: KIND_MUTATION, lsn: 7, ops }).equals(msgpackrFrame(7, ops)), String(value).slice(0, 40)).toBe(true);
    }
  });

  it('random records (every value kind, lengths over the array header sizes, LSNs past 32 bits) are msgpackr\'s frames and read back', () => {
    const pool = [...strings, ...numbers, ...others];
    const short = pool.filter((v) => typeof v !== 'string' || v.length < 300); // long records of short values
    let seed = 16;
    const next = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) >>> 0;
      return seed % n;
    };
    for (const size of [0, 1, 15, 16, 200, 65_535, 65_536]) {
      const from = size > 200 ? short : pool;
      const ops = Array.from({ length: size }, () => from[next(from.length)]) as RedoOps;
      for (const lsn of [1, 300, 2 ** 32 + 5]) {
        const frame = frameRecord({ kind: KIND_MUTATION, lsn, ops });
        expect(frame.equals(msgpackrFrame(lsn, ops)), `${size} ops at LSN ${lsn}`).toBe(true);
        const [record] = readFrames(frame);
        expect(record?.lsn).toBe(lsn);
      }
    }
    // A small record after a large one: the writer's scratch is not left holding the large one's bytes.
    const small = [1, 5, 4, 'Post.slug', 5, 'bench-p-1'] as RedoOps;
    expect(frameRecord({ kind: KIND_MUTATION, lsn: 9, ops: small }).equals(msgpackrFrame(9, small))).toBe(true);
  });
});
