import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { InvalidRegexpError, TrigramIndex } from '../../../engine/indexes/trigram-index.js';

function indexOf(values: readonly string[]): TrigramIndex {
  const idx = new TrigramIndex();
  values.forEach((v, i) => idx.add(v, i + 1));
  return idx;
}

// The oracle: RE2 as Dgraph compiles it ((?m), (?i) for the i flag), empty values never match.
function naive(values: readonly string[], pattern: string, flags: string): number[] {
  const re = RE2JS.compile((flags === 'i' ? '(?i)' : '') + '(?m)' + pattern);
  return values.flatMap((v, k) => (v !== '' && re.test(v) ? [k + 1] : []));
}

describe('TrigramIndex', () => {
  const values = ['Alice Smith', 'alice cooper', 'Bob Alison', 'bobby tables', 'Carol', 'xy'];
  const idx = indexOf(values);

  it('matches unanchored and anchored patterns', () => {
    expect(idx.regexp('lic', '')).toEqual([1, 2]);
    expect(idx.regexp('^Ali', '')).toEqual([1]);
    expect(idx.regexp('bles$', '')).toEqual([4]);
    expect(idx.regexp('Smith|cooper', '')).toEqual([1, 2]);
  });
  it('supports the i flag (and RE2 (?i))', () => {
    expect(idx.regexp('ALI', 'i')).toEqual([1, 2, 3]);
    expect(idx.regexp('(?i)^bob', '')).toEqual([3, 4]);
    expect(idx.regexp('carol', '')).toEqual([]);
    expect(idx.regexp('carol', 'i')).toEqual([5]);
  });
  it('handles alternation, classes, optional parts and repeats', () => {
    expect(idx.regexp('(Ali|Bob)(ce|by)', '')).toEqual([1]);
    expect(idx.regexp('bob+y?', '')).toEqual([4]);
    expect(idx.regexp('[bc]ob', 'i')).toEqual([3, 4]);
    expect(idx.regexp('al(ice|ison)', 'i')).toEqual([1, 2, 3]);
    expect(idx.regexp('o{2}p', '')).toEqual([2]);
    expect(idx.regexp('Smi.h', '')).toEqual([1]);
  });
  it('answers patterns with no trigram by testing the values (as Dgraph does)', () => {
    for (const p of ['.*', 'ab', 'a.c', '[a-z]+', 'ab|cde', '^x']) {
      expect(idx.needsScan(p, '')).toBe(true);
      expect(idx.regexp(p, '')).toEqual(naive(values, p, ''));
    }
    expect(idx.regexp('.*', '')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(idx.regexp('^xy$', '')).toEqual([6]);
    expect(idx.regexp('o', 'i')).toEqual([2, 3, 4, 5]);
    expect(idx.regexpScan('o', 'i')).toEqual([2, 3, 4, 5]);
  });
  it('derives trigrams soundly from RE2-only syntax', () => {
    const i = indexOf(['abc\u0007de', 'x.yz', 'Kelvin', 'a]bc', 'q\u00dfr', 'line1\nline2']);
    const cases: [string, string][] = [
      ['abc\\ade', ''], ['\\Qx.y\\Ez', ''], ['\\Qx.\\Ey?yz', ''], ['[]a]bc', ''], ['\\x{df}r', ''], ['q\\303r', ''],
      ['\\pLelvin', ''], ['[[:upper:]]elvin', ''], ['\\Aline1', ''], ['line2\\z', ''], ['(?i)kELVIN', ''], ['x(?i:\\.Y)z', ''],
      ['(?P<n>elv)in', ''], ['\\x{212a}elvin', 'i'], ['^line2$', ''],
    ];
    for (const [p, f] of cases) expect([p, f, i.regexp(p, f)]).toEqual([p, f, naive(['abc\u0007de', 'x.yz', 'Kelvin', 'a]bc', 'q\u00dfr', 'line1\nline2'], p, f)]);
    expect(i.regexp('\\x{212a}elvin', 'i')).toEqual([3]);
    expect(i.regexp('^line2$', '')).toEqual([6]);
  });
  it('rejects invalid regexes and syntax RE2 lacks with the messages of Go', () => {
    expect(() => idx.regexp('(abc', '')).toThrow(new InvalidRegexpError('error parsing regexp: missing closing ): `(?m)(abc`'));
    expect(() => idx.regexp('abc[', '')).toThrow(new InvalidRegexpError('error parsing regexp: missing closing ]: `[`'));
    expect(() => idx.regexp('(?=abc)abc', '')).toThrow(new InvalidRegexpError('error parsing regexp: invalid or unsupported Perl syntax: `(?=`'));
    expect(() => idx.regexp('(abc)\\1', '')).toThrow(new InvalidRegexpError('error parsing regexp: invalid escape sequence: `\\1`'));
    expect(() => idx.regexp('abc', 'g')).toThrow(new InvalidRegexpError('Invalid regexp modifier: g'));
  });
  it('updates: removed values no longer match, other values of the node still do', () => {
    // A list is written whole, as the store does: the old list removed, the new one added.
    const i = new TrigramIndex();
    i.addList(['hello world', 'worldwide'], 1);
    expect(i.regexp('hello', '')).toEqual([1]);
    i.removeList(['hello world', 'worldwide'], 1);
    i.addList(['worldwide'], 1);
    expect(i.regexp('hello', '')).toEqual([]);
    expect(i.regexp('world', '')).toEqual([1]);
    expect(i.regexpScan('world', '')).toEqual([1]);
    i.removeList(['worldwide'], 1);
    expect(i.regexp('world', '')).toEqual([]);
    expect(i.entryCount).toBe(0);
  });
  it('a scan answers in id order whatever the order values were written and removed in', () => {
    const i = new TrigramIndex();
    for (const id of [40, 3, 17, 1_000, 0]) i.add(`v${id}`, id);
    expect(i.regexp('^v', '')).toEqual([0, 3, 17, 40, 1_000]);
    i.remove('v1000', 1_000);
    i.remove('v40', 40);
    expect(i.regexp('^v', '')).toEqual([0, 3, 17]);
    i.add('v2000', 2_000);
    i.remove('v0', 0);
    expect(i.regexp('^v', '')).toEqual([3, 17, 2_000]);
    expect(i.regexp('v2000', '')).toEqual([2_000]);
    expect(i.regexp('v40', '')).toEqual([]);
  });
  it('handles non-ASCII case folding and astral characters', () => {
    const i = indexOf(['ΣΊΣΥΦΟΣ', 'straße', 'smile 😀😀 ok']);
    expect(i.regexp('σίσ', 'i')).toEqual([1]);
    expect(i.regexp('ςίς', 'i')).toEqual([1]);
    expect(i.regexp('STRASSE|straße', 'i')).toEqual([2]);
    expect(i.regexp('STRASSE', 'i')).toEqual([]); // RE2 folds simply: ß is not ss
    expect(i.regexp('e 😀+ ok', '')).toEqual([3]);
    expect(i.regexp('le 😀?', '')).toEqual([3]);
  });

  // Differential test: the trigram pre-filter must never lose a true match.
  const alphabet = fc.constantFrom('a', 'b', 'a', 'b', 'A', 'B', '.', ' ');
  const str = fc.array(alphabet, { maxLength: 16 }).map((cs) => cs.join(''));
  const lit = fc.constantFrom('a', 'b', 'a', 'b', 'A', 'B', '\\.', ' ');
  const regex: fc.Arbitrary<string> = fc.letrec<{ re: string; atom: string; seq: string }>((tie) => ({
    atom: fc.oneof(
      { weight: 6, arbitrary: lit },
      { weight: 1, arbitrary: fc.constantFrom('.', '[ab]', '[a-c]', '[^a]', '\\w', '^', '$', '\\b') },
      { weight: 1, arbitrary: tie('re').map((r) => `(${r})`) },
    ),
    seq: fc
      .array(
        fc.tuple(tie('atom'), fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{1,2}', '{0,1}')).map(([a, q]) => (a === '^' || a === '$' || a === '\\b' ? a : a + q)),
        { minLength: 1, maxLength: 6 },
      )
      .map((xs) => xs.join('')),
    re: fc.oneof({ weight: 4, arbitrary: tie('seq') }, { weight: 1, arbitrary: fc.tuple(tie('seq'), tie('seq')).map(([x, y]) => `${x}|${y}`) }),
  })).re;

  it('never loses a match compared with a naive scan (random strings and regexes)', () => {
    let indexedHits = 0;
    fc.assert(
      fc.property(fc.array(str, { maxLength: 40 }), regex, fc.constantFrom('', 'i'), (vals, pattern, flags) => {
        const i = indexOf(vals);
        const expected = naive(vals, pattern, flags);
        expect(i.regexpScan(pattern, flags)).toEqual(expected);
        const got = i.regexp(pattern, flags);
        expect(got).toEqual(expected);
        if (got.length > 0 && !i.needsScan(pattern, flags)) indexedHits++;
      }),
      { numRuns: 3000 },
    );
    expect(indexedHits).toBeGreaterThan(20); // the generator reaches the trigram path with real matches
  });

  // Patterns cut from stored values (then perturbed), so that most of them do match something.
  const escape = (c: string): string => (c === '.' ? '\\.' : c);
  const derived = fc
    .tuple(fc.array(str, { minLength: 1, maxLength: 40 }), fc.nat(), fc.nat(), fc.integer({ min: 3, max: 8 }), fc.array(fc.constantFrom('', '', '', '.', '?', '*', '+', '|', '[ab]', 'x'), { maxLength: 10 }))
    .map(([vals, pick, start, len, edits]) => {
      const src = vals[pick % vals.length] as string;
      const from = src.length === 0 ? 0 : start % src.length;
      const chars = [...src.slice(from, from + len)];
      const parts = chars.map((c, k) => {
        const e = edits[k] ?? '';
        if (e === '.' || e === '[ab]' || e === 'x') return e;
        if (e === '|') return `${escape(c)}|`;
        return escape(c) + e;
      });
      return { vals, pattern: parts.join('') };
    })
    .filter(({ pattern }) => pattern.length > 0 && !pattern.endsWith('|'));

  it('never loses a match for patterns derived from the stored values', () => {
    let indexedHits = 0;
    fc.assert(
      fc.property(derived, fc.constantFrom('', 'i'), ({ vals, pattern }, flags) => {
        const i = indexOf(vals);
        const expected = naive(vals, pattern, flags);
        const got = i.regexp(pattern, flags);
        expect(got).toEqual(expected);
        if (got.length > 0 && !i.needsScan(pattern, flags)) indexedHits++;
      }),
      { numRuns: 3000 },
    );
    expect(indexedHits).toBeGreaterThan(250);
  });
});

describe('TrigramIndex.regexpCheck', () => {
  it('drives by the smallest trigram list, the rest of the query tested per candidate (same matches as regexp)', () => {
    const index = new TrigramIndex();
    for (let id = 1; id <= 3000; id++) index.add(`k${String((id * 7919) % 10_000).padStart(4, '0')}`, id);
    for (const pattern of ['^k123', 'k12', '23', '(k1|k2)34', '^k0.*9$']) {
      const check = index.regexpCheck(pattern, '');
      const expected = index.regexp(pattern, '');
      if (check === undefined) {
        expect(index.needsScan(pattern, '')).toBe(true);
        continue;
      }
      expect(check.candidates.filter((id) => check.candidateTest(id))).toEqual(expected);
      expect(check.candidates.filter((id) => check.test(id))).toEqual(expected);
    }
    // ^k123: 'k12' and '123' lists, the driver is the smaller one (not their intersection).
    const check = index.regexpCheck('^k123', '');
    expect(check?.candidates.length).toBe(Math.min(index.ids('k12').length, index.ids('123').length));
  });

  it('answers a literal over short, long (over 64 units, looked up in the other lists first) and list values as RE2 does', () => {
    const index = new TrigramIndex();
    const values: string[] = [];
    for (let id = 1; id <= 600; id++) {
      const code = `k${String((id * 7919) % 1000).padStart(3, '0')}`;
      // Short values, long ones padded past 64 units, and lines: ^ also matches after a newline (Dgraph's (?m)).
      const value = id % 3 === 0 ? code : id % 3 === 1 ? `${'x'.repeat(70)}${code}\n${code}z` : `pre ${code}\nk${String(id % 1000).padStart(3, '0')}`;
      values[id] = value;
      if (id % 10 === 0) index.addList([value, 'k999 tail'], id);
      else index.add(value, id);
    }
    const re2 = (pattern: string) => RE2JS.compile(`(?m)${pattern}`);
    for (const pattern of ['^k123', 'k12', 'k123$', '^k123$', '^k999', '^pre k', '^xxxk']) {
      const re = re2(pattern);
      const expected = values.flatMap((v, id) => (v !== undefined && (re.test(v) || (id % 10 === 0 && re.test('k999 tail'))) ? [id] : []));
      // '^xxxk' is in every long value, never at a line's start.
      if (pattern === '^xxxk') expect(expected).toEqual([]);
      else if (!pattern.endsWith('$')) expect(expected.length, pattern).toBeGreaterThan(0);
      const check = index.regexpCheck(pattern, '');
      expect(check, pattern).toBeDefined();
      expect(check?.candidates.filter((id) => check.candidateTest(id)), pattern).toEqual(expected);
      expect(index.regexp(pattern, ''), pattern).toEqual(expected);
      expect(index.regexpScan(pattern, ''), pattern).toEqual(expected);
    }
  });
});
