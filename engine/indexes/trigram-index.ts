// Trigram index (`@search(by: [trigram])` / `[regexp]` → the `regexp` filter). Values are split
// into trigrams of UTF-16 code units (case-sensitive, as Dgraph splits bytes); a regexp filter
// derives from the pattern a boolean query over trigrams (./regexp-trigram-query.ts), evaluates it
// on the postings to get candidates, and verifies every candidate with the RegExp itself. A pattern
// from which no trigram can be derived is refused with Dgraph's error (`RegexpNeedsTrigramError`);
// `regexpScan` is the full scan exec may choose instead. The index keeps the values it was given.

import type { ScalarValue, ValueIndex } from './value-index.js';
import type { SortedIds } from '../util/sorted-ids.js';
import { intersectAll, unionMany } from '../util/sorted-ids.js';
import { IdValues, TokenPostings, toSortedIds } from './fulltext-postings.js';
import { compileRegexp, type CompiledRegexp } from './regexp-compile.js';
import { trigramQuery, type TrigramQuery } from './regexp-trigram-query.js';

export { InvalidRegexpError } from './regexp-compile.js';

export class RegexpNeedsTrigramError extends Error {
  constructor() {
    super("regular expression is too wide-ranging and can't be executed efficiently");
    this.name = 'RegexpNeedsTrigramError';
  }
}

interface PreparedRegexp {
  readonly compiled: CompiledRegexp;
  readonly query: TrigramQuery;
}

const CACHE_LIMIT = 256;
const sameString = (a: string, b: string): boolean => a === b;

/** Distinct trigrams of `s` (none when it is shorter than three code units). */
export function trigramsOf(s: string): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + 3 <= s.length; i++) out.add(s.slice(i, i + 3));
  return out;
}

function asText(value: ScalarValue): string {
  if (typeof value !== 'string') throw new TypeError(`trigram index expects string values, got ${typeof value}`);
  return value;
}

export class TrigramIndex implements ValueIndex {
  private readonly postings = new TokenPostings<string>();
  private readonly values = new IdValues<string>();
  private readonly prepared = new Map<string, PreparedRegexp>();

  get entryCount(): number {
    return this.postings.entryCount;
  }

  add(value: ScalarValue, id: number): void {
    const text = asText(value);
    this.values.add(id, text);
    for (let i = 0; i + 3 <= text.length; i++) this.postings.add(text.slice(i, i + 3), id);
  }

  remove(value: ScalarValue, id: number): void {
    const text = asText(value);
    if (!this.values.remove(id, text, sameString)) return;
    const others = this.values.get(id);
    for (const t of trigramsOf(text)) {
      if (!others.some((o) => o.includes(t))) this.postings.delete(t, id);
    }
  }

  /**
   * Nodes with a value matching `/pattern/flags` (unanchored, like Dgraph). Throws
   * `RegexpNeedsTrigramError` when the pattern yields no trigram and `InvalidRegexpError` when it
   * does not compile (or uses syntax RE2 lacks: look-around, back-references, flags other than i).
   */
  regexp(pattern: string, flags: string): SortedIds {
    const { compiled, query } = this.prepare(pattern, flags);
    if (query.op === 'all') throw new RegexpNeedsTrigramError();
    const candidates = this.evaluate(query);
    const re = compiled.regexp;
    const out: number[] = [];
    for (const id of candidates) {
      if (this.values.get(id).some((v) => re.test(v))) out.push(id);
    }
    return out;
  }

  /** Like `regexp`, but tests every stored value (no trigram needed). */
  regexpScan(pattern: string, flags: string): SortedIds {
    const re = this.prepare(pattern, flags).compiled.regexp;
    const out: number[] = [];
    for (const [id, vals] of this.values.entries()) if (vals.some((v) => re.test(v))) out.push(id);
    return toSortedIds(out);
  }

  /** True when `regexp` would refuse the pattern as too wide (so exec can choose a scan up front). */
  needsScan(pattern: string, flags: string): boolean {
    return this.prepare(pattern, flags).query.op === 'all';
  }

  private prepare(pattern: string, flags: string): PreparedRegexp {
    const key = `${flags}/${pattern}`;
    let p = this.prepared.get(key);
    if (p === undefined) {
      const compiled = compileRegexp(pattern, flags);
      const query = trigramQuery(compiled.source, compiled.ignoreCase, compiled.regexp.unicode);
      p = { compiled, query };
      if (this.prepared.size >= CACHE_LIMIT) this.prepared.clear();
      this.prepared.set(key, p);
    }
    return p;
  }

  private evaluate(q: TrigramQuery): SortedIds {
    switch (q.op) {
      case 'tri':
        return this.postings.get(q.trigram);
      case 'and':
        return intersectAll(q.args.filter((a) => a.op !== 'all').map((a) => this.evaluate(a)));
      case 'or':
        return unionMany(q.args.map((a) => this.evaluate(a)));
      case 'none':
        return [];
      case 'all':
        throw new RegexpNeedsTrigramError();
    }
  }
}
