import { describe, expect, it } from 'vitest';
import { FloatText, hasFloatText, parseRequestJson } from '../../../engine/request/json-numbers.js';

describe('parseRequestJson', () => {
  it('parses ordinary JSON as JSON.parse does (fast path)', () => {
    const text = '{"variables":{"a":1,"b":[2.5,"1.0 in a string"],"c":null}}';
    const parsed = parseRequestJson(text);
    expect(parsed).toEqual(JSON.parse(text));
    expect(hasFloatText(parsed)).toBe(false);
  });

  it('keeps the text of integral numbers written as floats and marks their containers', () => {
    const parsed = parseRequestJson('{"variables":{"Post":[{"numViews":180143985094.0,"title":"x 2.0"}],"n":1e3}}') as any;
    const value = parsed.variables.Post[0].numViews;
    expect(value).toBeInstanceOf(FloatText);
    expect(value).toMatchObject({ value: 180143985094, text: '180143985094.0' });
    expect(parsed.variables.n).toMatchObject({ value: 1000, text: '1e3' });
    expect(parsed.variables.Post[0].title).toBe('x 2.0');
    expect(hasFloatText(parsed)).toBe(true);
    expect(hasFloatText(parsed.variables)).toBe(true);
  });

  it('finds float-written integers after any JSON separator and whitespace, not inside strings', () => {
    const parsed = parseRequestJson('{"v":[ 2.0,\n\t-1E2 ],"w":\r\n 3.00,"id":"0x2e5","s":"a:1e3"}') as any;
    expect(parsed.v[0]).toMatchObject({ value: 2, text: '2.0' });
    expect(parsed.v[1]).toMatchObject({ value: -100, text: '-1E2' });
    expect(parsed.w).toMatchObject({ value: 3, text: '3.00' });
    expect(parsed.id).toBe('0x2e5');
    expect(parsed.s).toBe('a:1e3');
    expect(parseRequestJson('7.0')).toMatchObject({ value: 7, text: '7.0' });
  });

  it('skips strings with escaped quotes and backslashes, and leaves fractions and non-integral exponents as numbers', () => {
    const text = '{"query":"{ q(a: 1.0) }","s":"x\\"2.0\\" \\\\","t":"\\\\","f":[2.5,1e-1,-0.25],"n":3}';
    const parsed = parseRequestJson(text);
    expect(parsed).toEqual(JSON.parse(text));
    expect(hasFloatText(parsed)).toBe(false);
    const after = parseRequestJson('{"t":"\\\\","n":4.0}') as any;
    expect(after.n).toMatchObject({ value: 4, text: '4.0' });
  });

  it('keeps the text of a fraction that rounds to an integer whatever else the body holds (Go sees a float)', () => {
    // Before, this depended on an unrelated number: marked beside `1e3`, a plain integer alone.
    expect((parseRequestJson('{"a":2.000000000000000001}') as any).a).toMatchObject({ value: 2, text: '2.000000000000000001' });
    expect((parseRequestJson('{"a":2.000000000000000001,"b":1e3}') as any).a).toMatchObject({ value: 2, text: '2.000000000000000001' });
  });

  it('keeps the text of a fraction whose non-zero digit lies past what a double holds, and only then', () => {
    // 16 and more characters: the number is converted (1.0000000000000001 is the double 1); up to 15 it cannot round.
    expect((parseRequestJson('{"a":1.0000000000000001}') as any).a).toMatchObject({ value: 1, text: '1.0000000000000001' });
    expect((parseRequestJson('{"a":-99999999999999.99999}') as any).a).toMatchObject({ value: -100000000000000, text: '-99999999999999.99999' });
    expect((parseRequestJson('{"a":0.10000000000000001e1}') as any).a).toMatchObject({ value: 1, text: '0.10000000000000001e1' });
    const text = '{"a":[1.00000000000001,-0.000000000009,99999999999.999,0.5e1,0.25]}';
    const parsed = parseRequestJson(text) as any;
    expect(parsed.a.slice(0, 3)).toEqual([1.00000000000001, -0.000000000009, 99999999999.999]);
    expect(parsed.a[3]).toMatchObject({ value: 5, text: '0.5e1' });
    expect(parsed.a[4]).toBe(0.25);
  });
});
