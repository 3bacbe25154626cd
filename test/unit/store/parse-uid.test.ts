import { describe, expect, it } from 'vitest';
import { GraphStore } from '../../../engine/store/graph-store.js';

describe('GraphStore.parseUid (Go strconv.ParseUint(s, 0, 64))', () => {
  it.each([
    ['0x1', 1],
    ['0x1a', 26],
    ['0X1A', 26],
    ['26', 26],
    ['0', 0],
    ['010', 8],
    ['0o17', 15],
    ['0O17', 15],
    ['0b101', 5],
    ['0B11', 3],
    ['1_000', 1000],
    ['0x_1f', 31],
    ['0_7', 7],
    ['0x1fffffffffffff', Number.MAX_SAFE_INTEGER],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
    ['0x0001', 1],
    ['0xFfFfFfFfFfFfF', 2 ** 52 - 1],
    ['0x1_0', 16],
    ['0x00000000000000001', 1],
  ])('%s → %d', (text, id) => {
    expect(GraphStore.parseUid(text)).toBe(id);
    expect(GraphStore.isUidSyntax(text)).toBe(true);
  });

  it.each(['', '0x', '0b', '0o', '08', '0b2', '0xg', '-1', '+1', ' 1', '1 ', 'abc', '1__0', '_1', '1_', '0x1_', '1.5', '1e3', 'HI!', '0x_', '0x1g', '0x 1', '0x-1', '0x1.0', '0xz', '0x@', '0x`'])(
    'rejects %j',
    (text) => {
      expect(GraphStore.parseUid(text)).toBeUndefined();
      expect(GraphStore.isUidSyntax(text)).toBe(false);
    },
  );

  it('valid but above the safe range: parseUid undefined, isUidSyntax true', () => {
    for (const text of ['0x20000000000000', '18446744073709551615', '0xffffffffffffffff']) {
      expect(GraphStore.parseUid(text)).toBeUndefined();
      expect(GraphStore.isUidSyntax(text)).toBe(true);
    }
    expect(GraphStore.isUidSyntax('18446744073709551616')).toBe(false);
    expect(GraphStore.isUidSyntax('0x10000000000000000')).toBe(false);
  });

  it('uidOf round-trips', () => {
    expect(GraphStore.uidOf(26)).toBe('0x1a');
    for (const id of [1, 255, 4096, 123456789]) expect(GraphStore.parseUid(GraphStore.uidOf(id))).toBe(id);
  });
});
