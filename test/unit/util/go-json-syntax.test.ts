// Go's encoding/json scanner errors, as Dgraph passes them on (texts from Go's scanner.go states).

import { describe, expect, it } from 'vitest';
import { goJsonSyntaxError, goQuoteChar } from '../../../engine/util/go-json-syntax.js';

describe('goJsonSyntaxError', () => {
  it('accepts one JSON value with surrounding space', () => {
    for (const text of ['{}', ' [1, -0.5e+3, "a\\u00e9\\n", true, false, null] ', '{"a":{"b":[]}}', '0', '"x"']) expect(goJsonSyntaxError(text)).toBeUndefined();
  });

  it('names the first invalid character and where the scanner was', () => {
    const cases: [string, string][] = [
      ['not json', "invalid character 'o' in literal null (expecting 'u')"],
      ['abc', "invalid character 'a' looking for beginning of value"],
      ['{not json', "invalid character 'n' looking for beginning of object key string"],
      ['{"a" 1}', "invalid character '1' after object key"],
      ['{"a":1 "b"}', 'invalid character \'"\' after object key:value pair'],
      ['[1 2]', "invalid character '2' after array element"],
      ['{} x', "invalid character 'x' after top-level value"],
      ['"a\tb"', "invalid character '\\t' in string literal"],
      ['"\\x"', "invalid character 'x' in string escape code"],
      ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
      ['-a', "invalid character 'a' in numeric literal"],
      ['1.e', "invalid character 'e' after decimal point in numeric literal"],
      ['1e+', 'invalid character \' \' in exponent of numeric literal'],
      ['tru', "invalid character ' ' in literal true (expecting 'e')"],
      ["'a'", "invalid character '\\'' looking for beginning of value"],
      ['\u0001', "invalid character '\\x01' looking for beginning of value"],
    ];
    for (const [text, message] of cases) expect(goJsonSyntaxError(text)).toBe(message);
  });

  it('unexpected end of JSON input when a value is left open', () => {
    for (const text of ['', '  ', '{', '{"a":', '[1,', '"abc']) expect(goJsonSyntaxError(text)).toBe('unexpected end of JSON input');
  });

  it('bytes as strconv.Quote shows the rune of their value', () => {
    expect(goQuoteChar(0x80)).toBe("'\\u0080'");
    expect(goQuoteChar(0xc3)).toBe("'Ã'");
    expect(goQuoteChar(0x7f)).toBe("'\\x7f'");
    expect(goQuoteChar(0x5c)).toBe("'\\\\'");
  });
});
