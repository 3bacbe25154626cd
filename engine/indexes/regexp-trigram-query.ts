// Derives, from a regular expression, a boolean query over trigrams that every string it matches
// must satisfy (after Russ Cox, "Regular Expression Matching with a Trigram Index", which is also
// what Dgraph's trigram index uses). The analysis is conservative: it may keep too many
// candidates (they are verified with the RegExp afterwards) but never loses a true match.
//
// Each sub-expression gets an Info: either the exact set of strings it matches (when small), or
// sets of possible prefixes and suffixes plus a trigram query that its matches satisfy.
// Trigrams are taken over UTF-16 code units, the same way the trigram index splits values.
// The pattern is in Go's RE2 syntax (already validated by ./regexp-compile.ts); every construct
// this parser does not model precisely is read as "any string", which keeps the query sound.

export type TrigramQuery =
  | { readonly op: 'all' }
  | { readonly op: 'none' }
  | { readonly op: 'tri'; readonly trigram: string }
  | { readonly op: 'and' | 'or'; readonly args: readonly TrigramQuery[] };

const ALL: TrigramQuery = { op: 'all' };
const NONE: TrigramQuery = { op: 'none' };

interface Info {
  readonly exact: ReadonlySet<string> | null;
  readonly prefix: ReadonlySet<string>;
  readonly suffix: ReadonlySet<string>;
  readonly match: TrigramQuery;
}

const MAX_SET = 16;
const MAX_CLASS_SPAN = 64;
const MAX_REPEAT = 3;
const EMPTY_SET: ReadonlySet<string> = new Set(['']);

// ---------------------------------------------------------------------------------------------
// Query algebra

function and(a: TrigramQuery, b: TrigramQuery): TrigramQuery {
  if (a.op === 'none' || b.op === 'none') return NONE;
  if (a.op === 'all') return b;
  if (b.op === 'all') return a;
  const args = [...(a.op === 'and' ? a.args : [a]), ...(b.op === 'and' ? b.args : [b])];
  return { op: 'and', args };
}

function or(a: TrigramQuery, b: TrigramQuery): TrigramQuery {
  if (a.op === 'all' || b.op === 'all') return ALL;
  if (a.op === 'none') return b;
  if (b.op === 'none') return a;
  const args = [...(a.op === 'or' ? a.args : [a]), ...(b.op === 'or' ? b.args : [b])];
  return { op: 'or', args };
}

/** Trigrams of one string (distinct), as an AND; ALL when it is shorter than three units. */
export function stringQuery(s: string): TrigramQuery {
  if (s.length < 3) return ALL;
  const seen = new Set<string>();
  for (let i = 0; i + 3 <= s.length; i++) seen.add(s.slice(i, i + 3));
  const args = [...seen].map((t): TrigramQuery => ({ op: 'tri', trigram: t }));
  return args.length === 1 ? (args[0] as TrigramQuery) : { op: 'and', args };
}

/** Every match contains one of `set`: OR of the strings' trigram ANDs. */
function setQuery(set: ReadonlySet<string>): TrigramQuery {
  let q: TrigramQuery = NONE;
  for (const s of set) {
    q = or(q, stringQuery(s));
    if (q.op === 'all') return ALL;
  }
  return set.size === 0 ? NONE : q;
}

// ---------------------------------------------------------------------------------------------
// Info algebra

function cross(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
}

function union(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  return new Set([...a, ...b]);
}

/** Shrinks a prefix (or suffix) set, first moving what it knows into the match query. */
function shrink(set: ReadonlySet<string>, match: TrigramQuery, fromEnd: boolean): [ReadonlySet<string>, TrigramQuery] {
  let tooLong = false;
  for (const s of set) if (s.length > 2) tooLong = true;
  if (set.size <= MAX_SET && !tooLong) return [set, match];
  match = and(match, setQuery(set));
  for (let keep = 2; keep >= 0; keep--) {
    const cut = new Set<string>();
    for (const s of set) cut.add(fromEnd ? s.slice(Math.max(0, s.length - keep)) : s.slice(0, keep));
    if (cut.size <= MAX_SET) return [cut, match];
  }
  return [EMPTY_SET, match];
}

function inexact(prefix: ReadonlySet<string>, suffix: ReadonlySet<string>, match: TrigramQuery): Info {
  const [p, m1] = shrink(prefix, match, false);
  const [s, m2] = shrink(suffix, m1, true);
  return { exact: null, prefix: p, suffix: s, match: m2 };
}

function exactInfo(set: ReadonlySet<string>, match: TrigramQuery): Info {
  if (set.size <= MAX_SET) return { exact: set, prefix: EMPTY_SET, suffix: EMPTY_SET, match };
  return inexact(set, set, and(match, setQuery(set)));
}

const ANY_CHAR: Info = { exact: null, prefix: EMPTY_SET, suffix: EMPTY_SET, match: ALL };
const EMPTY: Info = { exact: EMPTY_SET, prefix: EMPTY_SET, suffix: EMPTY_SET, match: ALL };

/** The query an Info guarantees for its whole match. */
function fullQuery(x: Info): TrigramQuery {
  if (x.exact !== null) return and(x.match, setQuery(x.exact));
  return and(and(x.match, setQuery(x.prefix)), setQuery(x.suffix));
}

function concat(x: Info, y: Info): Info {
  const match = and(x.match, y.match);
  if (x.exact !== null && y.exact !== null) {
    const xy = cross(x.exact, y.exact);
    if (xy.size <= MAX_SET) return { exact: xy, prefix: EMPTY_SET, suffix: EMPTY_SET, match };
  }
  let m = match;
  const prefix = x.exact !== null ? cross(x.exact, y.exact ?? y.prefix) : x.prefix;
  const suffix = y.exact !== null ? cross(x.exact ?? x.suffix, y.exact) : y.suffix;
  if (x.exact === null && y.exact === null) m = and(m, setQuery(cross(x.suffix, y.prefix)));
  if (x.exact !== null && y.exact === null) m = and(m, setQuery(y.suffix));
  if (x.exact === null && y.exact !== null) m = and(m, setQuery(x.prefix));
  return inexact(prefix, suffix, m);
}

function alternate(x: Info, y: Info): Info {
  if (x.exact !== null && y.exact !== null) return exactInfo(union(x.exact, y.exact), or(x.match, y.match));
  const prefix = union(x.exact ?? x.prefix, y.exact ?? y.prefix);
  const suffix = union(x.exact ?? x.suffix, y.exact ?? y.suffix);
  return inexact(prefix, suffix, or(fullQuery(x), fullQuery(y)));
}

const STAR: Info = { exact: null, prefix: EMPTY_SET, suffix: EMPTY_SET, match: ALL };

function repeat(x: Info, min: number, max: number): Info {
  if (max === 0) return EMPTY;
  if (min === 0) return max === 1 ? alternate(x, EMPTY) : STAR;
  let acc = x;
  for (let k = 1; k < Math.min(min, MAX_REPEAT); k++) acc = concat(acc, x);
  return max > min ? concat(acc, STAR) : min > MAX_REPEAT ? concat(acc, STAR) : acc;
}

// ---------------------------------------------------------------------------------------------
// Case variants of RE2's `(?i)` matching, which folds by Unicode simple case folding orbits (k, K
// and the Kelvin sign K are one orbit). The orbits are built by joining every BMP character with
// its one-unit upper- and lower-case forms: that covers every simple folding orbit (a superset
// only costs candidates, never a match).

let caseClasses: Map<number, string[]> | null = null;

function buildCaseClasses(): Map<number, string[]> {
  const parent = new Int32Array(0x10000);
  for (let u = 0; u < 0x10000; u++) parent[u] = u;
  const find = (u: number): number => {
    while (parent[u] !== u) u = parent[u] = parent[parent[u] as number] as number;
    return u;
  };
  const join = (u: number, other: number): void => {
    const a = find(u);
    const b = find(other);
    if (a !== b) parent[a] = b;
  };
  // Case-map 256 characters per call (one call per character costs ~90 ms); a block whose mapped
  // length changed holds a one-to-many mapping (ß → SS) and is redone one character at a time.
  const codes = new Uint16Array(256);
  for (let base = 0; base < 0x10000; base += 256) {
    if (base >= 0xd800 && base <= 0xdfff) continue;
    for (let i = 0; i < 256; i++) codes[i] = base + i;
    const block = String.fromCharCode(...codes);
    for (const mapped of [block.toUpperCase(), block.toLowerCase()]) {
      if (mapped.length === block.length) {
        for (let i = 0; i < 256; i++) if (mapped.charCodeAt(i) !== base + i) join(base + i, mapped.charCodeAt(i));
        continue;
      }
      for (let i = 0; i < 256; i++) {
        const ch = block[i] as string;
        for (const other of [ch.toUpperCase(), ch.toLowerCase()]) if (other.length === 1 && other !== ch) join(base + i, other.charCodeAt(0));
      }
    }
  }
  const groups = new Map<number, string[]>();
  for (let u = 0; u <= 0xffff; u++) {
    const r = find(u);
    if (r === u && parent[u] === u && !groups.has(u)) continue; // a root alone is skipped below
    let g = groups.get(r);
    if (g === undefined) groups.set(r, (g = [String.fromCharCode(r)]));
    if (u !== r) g.push(String.fromCharCode(u));
  }
  const out = new Map<number, string[]>();
  for (const g of groups.values()) if (g.length > 1) for (const m of g) out.set(m.charCodeAt(0), g);
  return out;
}

function caseVariants(ch: string): string[] {
  caseClasses ??= buildCaseClasses();
  return caseClasses.get(ch.charCodeAt(0)) ?? [ch];
}

// ---------------------------------------------------------------------------------------------
// Parser (Go RE2 syntax; the pattern compiled before, so it is well formed)

class Parser {
  private pos = 0;
  private readonly unicode = true; // RE2 matches code points: a surrogate pair is one character

  constructor(
    private readonly src: string,
    private readonly ignoreCase: boolean,
  ) {}

  parse(): Info {
    const info = this.alternation();
    if (this.pos < this.src.length) return STAR; // unbalanced `)`: cannot happen after RE2 compiled it
    return info;
  }

  private alternation(): Info {
    let info = this.sequence();
    while (this.src[this.pos] === '|') {
      this.pos++;
      info = alternate(info, this.sequence());
    }
    return info;
  }

  private sequence(): Info {
    let info = EMPTY;
    while (this.pos < this.src.length) {
      const ch = this.src[this.pos];
      if (ch === '|' || ch === ')') break;
      info = concat(info, this.quantified(this.atom()));
    }
    return info;
  }

  private quantified(atom: Info): Info {
    for (;;) {
      const ch = this.src[this.pos];
      let min: number;
      let max: number;
      if (ch === '*') [min, max] = [0, Infinity];
      else if (ch === '+') [min, max] = [1, Infinity];
      else if (ch === '?') [min, max] = [0, 1];
      else if (ch === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
        if (m === null) return atom;
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' || m[3] === undefined ? Infinity : Number(m[3]);
        this.pos += m[0].length - 1;
      } else return atom;
      this.pos++;
      if (this.src[this.pos] === '?') this.pos++;
      atom = repeat(atom, min, max);
    }
  }

  private literal(ch: string): Info {
    return exactInfo(new Set(this.ignoreCase ? caseVariants(ch) : [ch]), ALL);
  }

  /**
   * `\Q...\E`: the text up to `\E` (or the end) taken literally. A quantifier after it applies to
   * its last character only, so that one is quantified here.
   */
  private quoted(): Info {
    const end = this.src.indexOf('\\E', this.pos);
    const chars = [...this.src.slice(this.pos, end < 0 ? this.src.length : end)];
    this.pos = end < 0 ? this.src.length : end + 2;
    const one = (ch: string): Info => (ch.length > 1 ? this.astral(ch) : this.literal(ch));
    let info = EMPTY;
    chars.forEach((ch, k) => {
      info = concat(info, k === chars.length - 1 ? this.quantified(one(ch)) : one(ch));
    });
    return info;
  }

  /** A character outside the BMP (two code units); case variants of those are not modelled. */
  private astral(pair: string): Info {
    return this.ignoreCase ? ANY_CHAR : exactInfo(new Set([pair]), ALL);
  }

  private atom(): Info {
    const ch = this.src[this.pos++] as string;
    switch (ch) {
      case '(': {
        if (this.src[this.pos] === '?') {
          // `(?flags)` alone changes flags only (case folding is already decided for the whole
          // pattern); `(?flags:...)`, `(?P<name>...)` and `(?<name>...)` are groups.
          const flagsOnly = /^\?[A-Za-z-]*\)/.exec(this.src.slice(this.pos));
          if (flagsOnly !== null) {
            this.pos += flagsOnly[0].length;
            return EMPTY;
          }
          const m = /^\?([A-Za-z-]*:|P?<[A-Za-z_][\w]*>)/.exec(this.src.slice(this.pos));
          this.pos += m === null ? 1 : m[0].length;
          if (m === null) {
            this.alternation();
            this.pos++;
            return STAR;
          }
        }
        const inner = this.alternation();
        this.pos++; // ')'
        return inner;
      }
      case '[':
        return this.charClass();
      case '.':
        return ANY_CHAR;
      case '^':
      case '$':
        return EMPTY;
      case '\\':
        return this.escape();
      default: {
        const code = ch.charCodeAt(0);
        const next = this.src.charCodeAt(this.pos);
        if (this.unicode && code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          this.pos++; // a surrogate pair is one character (and one quantifier operand) in Unicode mode
          return this.astral(ch + String.fromCharCode(next));
        }
        return this.literal(ch);
      }
    }
  }

  private escape(): Info {
    const ch = this.src[this.pos++];
    if (ch === undefined) return STAR;
    if ('dDwWsSC'.includes(ch)) return ANY_CHAR;
    if ('bBAz'.includes(ch)) return EMPTY; // word boundaries, start and end of text
    if (ch === 'Q') return this.quoted();
    if (ch === 'p' || ch === 'P') {
      this.skipUnicodeClassName();
      return ANY_CHAR;
    }
    const code = this.escapedCode(ch);
    if (code === null) return ANY_CHAR;
    if (code > 0xffff) return this.astral(String.fromCodePoint(code));
    if (code >= 0xd800 && code <= 0xdfff) return ANY_CHAR;
    return this.literal(String.fromCharCode(code));
  }

  /** After `\p` / `\P`: a one-letter class name or a `{Name}`. */
  private skipUnicodeClassName(): void {
    const m = /^\{[^}]*\}/.exec(this.src.slice(this.pos));
    this.pos += m !== null ? m[0].length : 1;
  }

  /** Code point of a single-character RE2 escape (after the backslash), or null when not simple. */
  private escapedCode(ch: string): number | null {
    switch (ch) {
      case 'a': return 7;
      case 'n': return 10;
      case 'r': return 13;
      case 't': return 9;
      case 'f': return 12;
      case 'v': return 11;
      case 'x': {
        const m = /^(?:\{([0-9A-Fa-f]+)\}|([0-9A-Fa-f]{2}))/.exec(this.src.slice(this.pos));
        if (m === null) return null;
        this.pos += m[0].length;
        return parseInt(m[1] ?? m[2] ?? '', 16);
      }
      default: {
        if (ch >= '0' && ch <= '7') {
          // octal: up to two more octal digits (RE2 rejects a lone \1-\7 as a back-reference)
          const m = /^[0-7]{0,2}/.exec(this.src.slice(this.pos)) as RegExpExecArray;
          this.pos += m[0].length;
          return parseInt(ch + m[0], 8);
        }
        return /[A-Za-z0-9]/.test(ch) ? null : ch.charCodeAt(0);
      }
    }
  }

  private charClass(): Info {
    let negated = false;
    if (this.src[this.pos] === '^') {
      negated = true;
      this.pos++;
    }
    let big = false;
    const codes: number[] = [];
    let first = true; // RE2 reads a `]` right after `[` or `[^` as a member
    while (this.pos < this.src.length && (this.src[this.pos] !== ']' || first)) {
      first = false;
      if (this.src.startsWith('[:', this.pos)) {
        const end = this.src.indexOf(':]', this.pos + 2); // POSIX class such as [:alpha:]
        this.pos = end < 0 ? this.src.length : end + 2;
        big = true;
        continue;
      }
      const lo = this.classAtom();
      if (lo === null) {
        big = true;
        continue;
      }
      if (this.src[this.pos] === '-' && this.src[this.pos + 1] !== ']' && this.pos + 1 < this.src.length) {
        this.pos++;
        const hi = this.classAtom();
        if (hi === null || hi - lo > MAX_CLASS_SPAN) big = true;
        else for (let c = lo; c <= hi; c++) codes.push(c);
      } else codes.push(lo);
    }
    this.pos++; // ']'
    if (negated || big || codes.length === 0) return ANY_CHAR;
    const chars = new Set<string>();
    for (const c of codes) {
      if (c >= 0xd800) return ANY_CHAR; // surrogates and astral members: not modelled
      const s = String.fromCharCode(c);
      for (const v of this.ignoreCase ? caseVariants(s) : [s]) chars.add(v);
      if (chars.size > MAX_SET) return ANY_CHAR;
    }
    return exactInfo(chars, ALL);
  }

  /** One class member as a code point, or null for a class escape / anything not simple. */
  private classAtom(): number | null {
    const ch = this.src.codePointAt(this.pos) as number;
    this.pos += ch > 0xffff ? 2 : 1;
    if (ch !== 0x5c) return ch;
    const e = this.src[this.pos++];
    if (e === undefined) return null;
    if ('dDwWsS'.includes(e)) return null;
    if (e === 'p' || e === 'P') {
      this.skipUnicodeClassName();
      return null;
    }
    if (e === 'Q') {
      const end = this.src.indexOf('\\E', this.pos);
      this.pos = end < 0 ? this.src.length : end + 2;
      return null;
    }
    return this.escapedCode(e);
  }
}

/**
 * The trigram query every match of `source` (Go RE2 syntax) satisfies, for a matcher that folds
 * case when `ignoreCase`.
 */
export function trigramQuery(source: string, ignoreCase: boolean): TrigramQuery {
  return fullQuery(new Parser(source, ignoreCase).parse());
}
