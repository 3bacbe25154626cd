import { describe, expect, it } from 'vitest';
import { writeJson } from '../../../engine/util/json-writer.js';

describe('writeJson', () => {
  it('matches JSON.stringify for plain data, skipping undefined members', () => {
    const value = { a: 1, b: 'x"y', c: [true, null, 2.5], d: undefined, e: { f: NaN } };
    expect(writeJson(value)).toBe(JSON.stringify(value));
  });

  it('writes bigint values at full precision, wherever they sit', () => {
    const value = { big: 9223372036854775807n, list: [1n, -18014398509481985n], nested: { n: 3, s: 'ok', u: undefined } };
    expect(writeJson(value)).toBe('{"big":9223372036854775807,"list":[1,-18014398509481985],"nested":{"n":3,"s":"ok"}}');
  });

  it('writes null for a bare undefined', () => {
    expect(writeJson(undefined)).toBe('null');
  });
});
