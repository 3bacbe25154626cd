// Literal regexp patterns (`^k123`, `ab$`, `^x$`, ``) are matched by string search instead of being
// compiled by re2js (~100 µs a pattern): the answer must equal RE2's under Dgraph's `(?m)` prefix
// for every value, newlines, empty lines and repeated occurrences included.

import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { compileRegexp } from '../../../engine/indexes/regexp-compile.js';
import { stringQuery, trigramQuery } from '../../../engine/indexes/regexp-trigram-query.js';

const alphabet = ['a', 'b', 'k', '1', '\n', ' ', '-'];

function* strings(maxLength: number): Generator<string> {
  yield '';
  let level = [''];
  for (let n = 1; n <= maxLength; n++) {
    const next: string[] = [];
    for (const s of level) for (const c of alphabet) next.push(s + c);
    yield* next;
    level = next;
  }
}

const values = [...strings(4)];
const bodies = [...strings(2)].filter((s) => !s.includes('\n'));
const patterns = bodies.flatMap((b) => [b, `^${b}`, `${b}$`, `^${b}$`]);

describe('literal regexp patterns', () => {
  it(`match exactly as RE2 with (?m) does (${patterns.length} patterns × ${values.length} values)`, () => {
    let mismatches = 0;
    for (const pattern of patterns) {
      const re2 = RE2JS.compile(`(?m)${pattern}`);
      const ours = compileRegexp(pattern, '');
      for (const value of values) {
        const expected = value.length > 0 && re2.test(value);
        if (ours.test(value) !== expected) {
          mismatches++;
          expect(ours.test(value), `${JSON.stringify(pattern)} on ${JSON.stringify(value)}`).toBe(expected);
        }
      }
    }
    expect(mismatches).toBe(0);
  });

  it('keep the pattern as its source for the trigram query', () => {
    expect(compileRegexp('^k123', '')).toMatchObject({ source: '^k123', ignoreCase: false });
  });
});

describe('the trigram query of a literal pattern', () => {
  // TrigramIndex takes a literal's query from its text without parsing the pattern: it must be the
  // query the parser derives, or candidates would differ between the two paths.
  const literals = ['^k000', 'k000', 'abc$', '^abcdefghijklmnopqrstuvwxyz0123456789$', 'ab', '^a b-c,d;e:f', 'aaaa', 'abcabcabc'];
  it.each(literals)('%s', (pattern) => {
    const compiled = compileRegexp(pattern, '');
    expect(compiled.literal).toBe(pattern.replace(/^\^/, '').replace(/\$$/, ''));
    expect(stringQuery(compiled.literal as string)).toEqual(trigramQuery(pattern, false));
  });
  it('is not taken for a pattern with metacharacters or the i flag', () => {
    expect(compileRegexp('^k0+', '').literal).toBeUndefined();
    expect(compileRegexp('^k000', 'i').literal).toBeUndefined();
  });
});
