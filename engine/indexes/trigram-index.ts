// Trigram index (`@search(by: [trigram])` / `[regexp]` → the `regexp` filter). Values are split
// into trigrams of UTF-16 code units (case-sensitive, as Dgraph splits bytes); a regexp filter
// derives from the pattern a boolean query over trigrams (./regexp-trigram-query.ts), evaluates it
// on the postings to get candidates, and verifies every candidate with the RE2 matcher
// (./regexp-compile.ts). A pattern from which no trigram can be derived (e.g. `/n/`) is answered by
// testing this field's values, as Dgraph's GraphQL filter does (it checks the values of the nodes
// it filters): the cost is bounded by the number of values of the field, each tested in linear time.
// A token index over ./trigram-tokenizer.ts's trigrams that also keeps the values it was given.

import type { ScalarValue } from './value-index.js';
import type { SortedIds } from '../util/sorted-ids.js';
import { intersectAll, unionMany } from '../util/sorted-ids.js';
import type { Posting } from './postings/posting.js';
import { TokenPostings } from './postings/token-postings.js';
import type { StoredPostings } from './postings/stored-postings.js';
import { membershipOf } from './postings/membership.js';
import { compileRegexp, literalRegexp, type CompiledRegexp } from './regexp-compile.js';
import { stringQuery, trigramQuery, type TrigramQuery } from './regexp-trigram-query.js';
import { TokenIndex } from './token-index.js';
import { trigramTokenizer } from './trigram-tokenizer.js';

export { InvalidRegexpError } from './regexp-compile.js';

interface PreparedRegexp {
  readonly compiled: CompiledRegexp;
  readonly query: TrigramQuery;
}

const CACHE_LIMIT = 256;

/** A value this long (UTF-16 units) or shorter is searched for a literal at once, before any other trigram list. */
const shortValue = 64;

const EMPTY: SortedIds = [];

/** A regexp tested per node (TrigramIndex.regexpCheck). */
export interface RegexpCheck {
  /** Ascending ids holding every match (a superset). */
  readonly candidates: SortedIds;
  /** Whether an id of `candidates` matches. */
  candidateTest(id: number): boolean;
  /** Whether any node of the field matches (its value against the pattern). */
  test(id: number): boolean;
}

export class TrigramIndex extends TokenIndex<Posting> {
  /**
   * Each node's value (a list's values as an array) by id, to verify candidates and to scan: an array,
   * not a Map (a candidate's value is read per id tested; an id is a dense index).
   */
  private readonly values: (string | readonly string[] | undefined)[] = [];
  private readonly prepared = new Map<string, PreparedRegexp>();

  constructor() {
    super(trigramTokenizer, new TokenPostings(1));
  }

  override add(value: ScalarValue, id: number): void {
    const text = this.text(value);
    super.add(text, id);
    this.values[id] = text;
  }

  /** The node's value gone; the array is shortened past trailing holes, so a scan stops at the last value. */
  private forget(id: number): void {
    const values = this.values;
    values[id] = undefined;
    if (id === values.length - 1) {
      let n = id;
      while (n > 0 && values[n - 1] === undefined) n--;
      values.length = n;
    }
  }

  override addList(values: readonly ScalarValue[], id: number): void {
    super.addList(values, id);
    this.values[id] = values.map((v) => this.text(v));
  }

  /** The values it verifies against are the column's, read again (not stored twice). */
  override loadPostings(stored: StoredPostings, each: (fn: (value: ScalarValue | readonly ScalarValue[], id: number) => void) => void): void {
    super.loadPostings(stored);
    each((value, id) => {
      this.values[id] = Array.isArray(value) ? value.map((v: ScalarValue) => this.text(v)) : this.text(value as ScalarValue);
    });
  }

  override remove(value: ScalarValue, id: number): void {
    super.remove(value, id);
    this.forget(id);
  }

  override removeList(values: readonly ScalarValue[], id: number): void {
    super.removeList(values, id);
    this.forget(id);
  }

  /**
   * Nodes with a value matching `/pattern/flags` (unanchored, like Dgraph): through the trigram
   * postings when the pattern yields trigrams, else by testing every value. Throws
   * `InvalidRegexpError` when the pattern is not RE2 (look-around, back-references, ...) or a flag
   * other than `i` is given.
   */
  regexp(pattern: string, flags: string): SortedIds {
    const literal = this.literalCheck(pattern, flags);
    if (literal !== undefined) {
      const { candidates, candidateTest } = literal;
      const out: number[] = [];
      for (let i = 0; i < candidates.length; i++) if (candidateTest(candidates[i] as number)) out.push(candidates[i] as number);
      return out;
    }
    const { compiled, query } = this.prepare(pattern, flags);
    if (query.op === 'all') return this.scan(compiled);
    const candidates = this.evaluate(query);
    const out: number[] = [];
    for (const id of candidates) {
      if (this.holds(id, compiled)) out.push(id);
    }
    return out;
  }

  /**
   * The regexp as a per-node test with its trigram candidates (ascending, a superset of the
   * matches), for a filter that tests nodes one at a time and stops early; undefined when the
   * pattern yields no trigram. Throws as `regexp` does.
   */
  regexpCheck(pattern: string, flags: string): RegexpCheck | undefined {
    const literal = this.literalCheck(pattern, flags);
    if (literal !== undefined) return literal;
    const { compiled, query } = this.prepare(pattern, flags);
    if (query.op === 'all') return undefined;
    const test = (id: number): boolean => this.holds(id, compiled);
    const lazy = this.lazy(query);
    const within = lazy.test;
    return { candidates: lazy.ids, candidateTest: within === undefined ? test : (id) => within(id) && test(id), test };
  }

  /**
   * A literal pattern of 3 or more characters (`^k123`), made per request without the prepared cache
   * or a query object: its matches hold every trigram of its text, so the smallest trigram list is
   * the candidates. A candidate's short value is tested at once (one string search costs about what
   * one membership search in another trigram list costs, and the search settles it); a long one (or
   * a list) is first looked up in the other lists, built on the first such value.
   */
  private literalCheck(pattern: string, flags: string): RegexpCheck | undefined {
    const compiled = literalRegexp(pattern, flags);
    const text = compiled?.literal;
    if (compiled === undefined || text === undefined || text.length < 3) return undefined;
    const lists: SortedIds[] = [];
    let candidates: SortedIds = EMPTY;
    for (let i = 0; i + 3 <= text.length; i++) {
      const list = this.ids(text.slice(i, i + 3));
      if (i === 0 || list.length < candidates.length) candidates = list;
      lists.push(list);
    }
    const values = this.values;
    const matches = compiled.test;
    const test = (id: number): boolean => this.holds(id, compiled);
    let inOthers: ((id: number) => boolean) | undefined;
    const others = (): ((id: number) => boolean) => {
      const tests = lists.filter((l) => l !== candidates).map((l) => membershipOf(l).has);
      return (id) => tests.every((t) => t(id));
    };
    const candidateTest = (id: number): boolean => {
      const v = values[id];
      if (typeof v === 'string' && v.length <= shortValue) return matches(v);
      return (inOthers ??= others())(id) && test(id);
    };
    return { candidates, candidateTest, test };
  }

  /** Like `regexp`, but always tests every stored value (the reference the trigram path must equal). */
  regexpScan(pattern: string, flags: string): SortedIds {
    return this.scan(this.prepare(pattern, flags).compiled);
  }

  /** True when `regexp` answers the pattern by testing every value (no trigram to look up). */
  needsScan(pattern: string, flags: string): boolean {
    if (this.literalCheck(pattern, flags) !== undefined) return false;
    return this.prepare(pattern, flags).query.op === 'all';
  }

  private prepare(pattern: string, flags: string): PreparedRegexp {
    const key = `${flags}/${pattern}`;
    let p = this.prepared.get(key);
    if (p === undefined) {
      const compiled = compileRegexp(pattern, flags);
      // A literal's matches contain its text: its trigrams, without parsing the pattern (a few µs).
      const query = compiled.literal !== undefined ? stringQuery(compiled.literal) : trigramQuery(compiled.source, compiled.ignoreCase);
      p = { compiled, query };
      if (this.prepared.size >= CACHE_LIMIT) this.prepared.clear();
      this.prepared.set(key, p);
    }
    return p;
  }

  private scan(compiled: CompiledRegexp): SortedIds {
    const out: number[] = [];
    const values = this.values;
    for (let id = 0; id < values.length; id++) if (values[id] !== undefined && this.holds(id, compiled)) out.push(id);
    return out;
  }

  /** Whether a value of node `id` matches. */
  private holds(id: number, compiled: CompiledRegexp): boolean {
    const v = this.values[id];
    if (v === undefined) return false;
    return typeof v === 'string' ? compiled.test(v) : v.some(compiled.test);
  }

  /**
   * The query as a list holding every node it selects (a conjunction's smallest list, not the
   * intersection) and the test of an id of that list against the rest of the query (undefined: none
   * needed), so a page tests candidates in uid order and stops early instead of intersecting whole
   * lists; a disjunction is evaluated.
   */
  private lazy(q: TrigramQuery): { readonly ids: SortedIds; readonly test?: (id: number) => boolean } {
    if (q.op === 'tri') return { ids: this.ids(q.trigram) };
    if (q.op !== 'and') return { ids: this.evaluate(q) };
    const parts = q.args.filter((a) => a.op !== 'all').map((a) => this.lazy(a));
    parts.sort((a, b) => a.ids.length - b.ids.length);
    const driver = parts[0];
    if (driver === undefined || driver.ids.length === 0) return { ids: [] };
    const tests = parts.slice(1).map((p) => {
      const has = membershipOf(p.ids).has;
      const own = p.test;
      return own === undefined ? has : (id: number) => has(id) && own(id);
    });
    if (driver.test !== undefined) tests.unshift(driver.test);
    if (tests.length === 0) return { ids: driver.ids };
    const only = tests[0] as (id: number) => boolean;
    return { ids: driver.ids, test: tests.length === 1 ? only : (id) => tests.every((t) => t(id)) };
  }

  private evaluate(q: TrigramQuery): SortedIds {
    switch (q.op) {
      case 'tri':
        return this.ids(q.trigram);
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
