// Derives, from a regular expression, a boolean query over trigrams that every string it matches
// must satisfy (after Russ Cox, "Regular Expression Matching with a Trigram Index", which is also
// what Dgraph's trigram index uses). The analysis is conservative: it may keep too many
// candidates (they are verified with the RegExp afterwards) but never loses a true match.
//
// Each sub-expression gets an Info: either the exact set of strings it matches (when small), or
// sets of possible prefixes and suffixes plus a trigram query that its matches satisfy.
// Trigrams are taken over UTF-16 code units, the same way the trigram index splits values.

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
function stringQuery(s: string): TrigramQuery {
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
// Case variants of JS's non-Unicode `i` matching: two code units match when their
// Canonicalize() values are equal (toUpperCase when that is one unit, never non-ASCII → ASCII).

let caseClasses: Map<number, string[]> | null = null;

function canonical(u: number): number {
  const up = String.fromCharCode(u).toUpperCase();
  if (up.length !== 1) return u;
  const cu = up.charCodeAt(0);
  return u >= 128 && cu < 128 ? u : cu;
}

function caseVariants(ch: string): string[] {
  if (caseClasses === null) {
    const groups = new Map<number, string[]>();
    for (let u = 0; u <= 0xffff; u++) {
      if (u >= 0xd800 && u <= 0xdfff) continue;
      const c = canonical(u);
      let g = groups.get(c);
      if (g === undefined) groups.set(c, (g = []));
      g.push(String.fromCharCode(u));
    }
    caseClasses = new Map();
    for (const g of groups.values()) if (g.length > 1) for (const m of g) caseClasses.set(m.charCodeAt(0), g);
  }
  return caseClasses.get(ch.charCodeAt(0)) ?? [ch];
}

// ---------------------------------------------------------------------------------------------
// Parser (JS regex syntax, as produced by ./regexp-compile.ts)

class Parser {
  private pos = 0;

  constructor(
    private readonly src: string,
    private readonly ignoreCase: boolean,
    private readonly unicode: boolean,
  ) {}

  parse(): Info {
    const info = this.alternation();
    if (this.pos < this.src.length) return STAR; // unbalanced `)`: the RegExp compiler decides
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

  private atom(): Info {
    const ch = this.src[this.pos++] as string;
    switch (ch) {
      case '(': {
        if (this.src[this.pos] === '?') {
          const m = /^\?(:|<[A-Za-z_$][\w$]*>)/.exec(this.src.slice(this.pos));
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
          return exactInfo(new Set([ch + String.fromCharCode(next)]), ALL);
        }
        return this.literal(ch);
      }
    }
  }

  private escape(): Info {
    const ch = this.src[this.pos++];
    if (ch === undefined) return STAR;
    if ('dDwWsS'.includes(ch)) return ANY_CHAR;
    if (ch === 'b' || ch === 'B') return EMPTY;
    if (ch === 'p' || ch === 'P') {
      const m = /^\{[^}]*\}/.exec(this.src.slice(this.pos));
      if (m !== null) this.pos += m[0].length;
      return ANY_CHAR;
    }
    const code = this.escapedCode(ch);
    if (code === null) return ANY_CHAR;
    // In Unicode mode an escaped surrogate may pair with the next one into one quantifier operand.
    if (this.unicode && code >= 0xd800 && code <= 0xdfff) return STAR;
    return this.literal(String.fromCharCode(code));
  }

  /** Code unit of a single-character escape (after the backslash), or null when not simple. */
  private escapedCode(ch: string): number | null {
    switch (ch) {
      case 'n': return 10;
      case 'r': return 13;
      case 't': return 9;
      case 'f': return 12;
      case 'v': return 11;
      case '0': return 0;
      case 'x': {
        const m = /^[0-9A-Fa-f]{2}/.exec(this.src.slice(this.pos));
        if (m === null) return 'x'.charCodeAt(0);
        this.pos += 2;
        return parseInt(m[0], 16);
      }
      case 'u': {
        if (this.src[this.pos] === '{') {
          const end = this.src.indexOf('}', this.pos);
          this.pos = end < 0 ? this.src.length : end + 1;
          return null;
        }
        const m = /^[0-9A-Fa-f]{4}/.exec(this.src.slice(this.pos));
        if (m === null) return 'u'.charCodeAt(0);
        this.pos += 4;
        return parseInt(m[0], 16);
      }
      case 'c': {
        const next = this.src[this.pos];
        if (next !== undefined && /[A-Za-z]/.test(next)) {
          this.pos++;
          return next.charCodeAt(0) % 32;
        }
        return null;
      }
      default:
        return ch.charCodeAt(0);
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
    while (this.pos < this.src.length && this.src[this.pos] !== ']') {
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
      if (c >= 0xd800 && c <= 0xdfff) return ANY_CHAR;
      const s = String.fromCharCode(c);
      for (const v of this.ignoreCase ? caseVariants(s) : [s]) chars.add(v);
      if (chars.size > MAX_SET) return ANY_CHAR;
    }
    return exactInfo(chars, ALL);
  }

  /** One class member as a code unit, or null for a class escape / anything not simple. */
  private classAtom(): number | null {
    const ch = this.src[this.pos++] as string;
    if (ch !== '\\') return ch.charCodeAt(0);
    const e = this.src[this.pos++];
    if (e === undefined) return null;
    if ('dDwWsSpP'.includes(e)) {
      if (e === 'p' || e === 'P') {
        const m = /^\{[^}]*\}/.exec(this.src.slice(this.pos));
        if (m !== null) this.pos += m[0].length;
      }
      return null;
    }
    if (e === 'b') return 8;
    return this.escapedCode(e);
  }
}

/**
 * The trigram query every match of `source` (JS syntax) satisfies, for a RegExp compiled with
 * the `i` flag when `ignoreCase` and with the `u` flag when `unicode`.
 */
export function trigramQuery(source: string, ignoreCase: boolean, unicode: boolean): TrigramQuery {
  return fullQuery(new Parser(source, ignoreCase, unicode).parse());
}
