import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { termTokens } from '../../../engine/indexes/term-tokenizer.js';

describe('termTokens', () => {
  it.each([
    ['Hello World', ['hello', 'world']],
    ['  many   spaces\tand\nlines ', ['many', 'spaces', 'and', 'lines']],
    ['Apple apple APPLE', ['apple']],
    ['comma,separated;words!', ['comma', 'separated', 'words']],
    ['hyphen-ated', ['hyphen', 'ated']],
    ['3.14 and 1,000', ['3.14', 'and', '1,000']],
    ["don't stop", ["don't", 'stop']],
    ['e.g. this', ['e.g', 'this']],
    ['snake_case word', ['snake_case', 'word']],
    ['Ünïcödé Straße', ['ünïcödé', 'straße']],
    ['数据库', ['数', '据', '库']],
    ['end.', ['end']],
    ['', []],
    ['?!', []],
  ])('%j', (text, tokens) => {
    expect(termTokens(text)).toEqual(tokens);
  });
});

describe('termTokens ASCII fast path agrees with the Unicode path', () => {
  it('random ASCII text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'B', '1', '2', '_', '.', "'", ':', ',', ';', ' ', '-', '!'), maxLength: 30 }), (s) => {
        // appending a non-ASCII separator forces the Unicode path without changing the tokens
        expect(termTokens(s)).toEqual(termTokens(s + ' \u00a0'));
      }),
      { numRuns: 2000 },
    );
  });
});
