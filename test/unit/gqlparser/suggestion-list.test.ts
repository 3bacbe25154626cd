// gqlparser's suggestion candidates and lists (validator/suggestionList.go, messaging.go), checked on
// the cases where graphql-js's didYouMean/suggestionList answer otherwise.
import { describe, expect, it } from 'vitest';
import { orList, quotedOrList, suggestionList } from '../../../engine/gqlparser/suggestion-list.js';

describe('suggestionList', () => {
  it('keeps options within half the longer length, nearest first, ties in the given order', () => {
    expect(suggestionList('nage', ['id', 'name', 'nickname', 'age', 'mood'])).toEqual(['name', 'age']);
    expect(suggestionList('nage', ['age', 'name'])).toEqual(['age', 'name']);
  });

  it('counts a transposition as two edits (graphql-js: one)', () => {
    expect(suggestionList('aeg', ['age'])).toEqual([]);
    expect(suggestionList('naem', ['name'])).toEqual(['name']);
  });

  it('a change of case only is one edit; the threshold is at least 1', () => {
    expect(suggestionList('NAME', ['name', 'Name'])).toEqual(['name', 'Name']);
    expect(suggestionList('a', ['b', 'ab', 'abc'])).toEqual(['b', 'ab']);
  });

  it('measures the threshold in UTF-8 bytes and the distance in code points', () => {
    // "éé" is four bytes: threshold 4 / 2 = 2 (by code points it would be 1), distance 2.
    expect(suggestionList('ab', ['éé'])).toEqual(['éé']);
    expect(suggestionList('ab', ['cd'])).toEqual([]);
  });
});

describe('orList', () => {
  it('words one, two and more items as gqlparser does, at most five', () => {
    expect(orList(['a'])).toBe('a');
    expect(orList(['a', 'b'])).toBe('a or b');
    expect(orList(['a', 'b', 'c'])).toBe('a, b, or c');
    expect(orList(['a', 'b', 'c', 'd', 'e', 'f'])).toBe('a, b, c, d, or e');
    expect(quotedOrList(['a', 'b'])).toBe('"a" or "b"');
  });
});
