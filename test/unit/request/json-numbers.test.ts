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
});
