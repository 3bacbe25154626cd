// Trigram index (`@search(by: [trigram])` / `[regexp]` → the `regexp` filter). Values are split
// into trigrams of UTF-16 code units (case-sensitive, as Dgraph splits bytes); a regexp filter
// derives from the pattern a boolean query over trigrams (./regexp-trigram-query.ts), evaluates it
// on the postings to get candidates, and verifies every candidate with the RE2 matcher
// (./regexp-compile.ts). A pattern from which no trigram can be derived (e.g. `/n/`) is answered by
// testing this field's values, as Dgraph's GraphQL filter does (it checks the values of the nodes
// it filters): the cost is bounded by the number of values of the field, each tested in linear time.
// The index keeps the values it was given.

import type { ScalarValue, ValueIndex } from './value-index.js';
import type { SortedIds } from '../util/sorted-ids.js';
import { intersectAll, unionMany } from '../util/sorted-ids.js';
import { IdValues, TokenPostings, toSortedIds } from './fulltext-postings.js';
import { compileRegexp, type CompiledRegexp } from './regexp-compile.js';
import { trigramQuery, type TrigramQuery } from './regexp-trigram-query.js';

export { InvalidRegexpError } from './regexp-compile.js';

interface PreparedRegexp {
  readonly compiled: CompiledRegexp;
  readonly query: TrigramQuery;
}

const CACHE_LIMIT = 256;
const sameString = (a: string, b: string): boolean => a === b;

/** Distinct trigrams of `s` (none when it is shorter than three code units). */
function trigramsOf(s: string): Set<string> {
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
   * Nodes with a value matching `/pattern/flags` (unanchored, like Dgraph): through the trigram
   * postings when the pattern yields trigrams, else by testing every value. Throws
   * `InvalidRegexpError` when the pattern is not RE2 (look-around, back-references, ...) or a flag
   * other than `i` is given.
   */
  regexp(pattern: string, flags: string): SortedIds {
    const { compiled, query } = this.prepare(pattern, flags);
    if (query.op === 'all') return this.scan(compiled);
    const candidates = this.evaluate(query);
    const out: number[] = [];
    for (const id of candidates) {
      if (this.values.get(id).some(compiled.test)) out.push(id);
    }
    return out;
  }

  /** Like `regexp`, but always tests every stored value (the reference the trigram path must equal). */
  regexpScan(pattern: string, flags: string): SortedIds {
    return this.scan(this.prepare(pattern, flags).compiled);
  }

  /** True when `regexp` answers the pattern by testing every value (no trigram to look up). */
  needsScan(pattern: string, flags: string): boolean {
    return this.prepare(pattern, flags).query.op === 'all';
  }

  private prepare(pattern: string, flags: string): PreparedRegexp {
    const key = `${flags}/${pattern}`;
    let p = this.prepared.get(key);
    if (p === undefined) {
      const compiled = compileRegexp(pattern, flags);
      const query = trigramQuery(compiled.source, compiled.ignoreCase);
      p = { compiled, query };
      if (this.prepared.size >= CACHE_LIMIT) this.prepared.clear();
      this.prepared.set(key, p);
    }
    return p;
  }

  private scan(compiled: CompiledRegexp): SortedIds {
    const out: number[] = [];
    for (const [id, vals] of this.values.entries()) if (vals.some(compiled.test)) out.push(id);
    return toSortedIds(out);
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
        throw new Error('trigram query: a top-level all is scanned, and and/or never keep one');
    }
  }
}
