// Fulltext index (`@search(by: [fulltext])` → alloftext / anyoftext) with the semantics of Dgraph's
// default English fulltext tokenizer: a node matches `alloftext` when the tokens of its value (of all
// its values, for a list) include every token of the query, `anyoftext` when they include at least
// one; a query whose tokens are all stop words matches nothing.
//
// Who does what:
// - Tokens are ours: ./fulltext-analyzer.ts (UAX #29-style words, lower-case, NFKC, Dgraph's English
//   stop words, Porter stemmer). flexsearch's default encoder answers 7 of 13 English probe queries
//   differently from Dgraph's tokens. flexsearch gets our finished tokens through a pass-through
//   `encode`, so none of its normalisation touches them (passing `encode: analyzeFulltext` costs the
//   same analysis; analysing first lets a list's values become one document without joining strings,
//   and gives `remove` the tokens it needs).
// - flexsearch (0.8.212; `tokenize: 'strict'`, `resolution: 1`, `fastupdate: true`) stores the
//   postings and adds and removes the documents: one document per node, the union of its values'
//   tokens. It handles whole documents only, hence ValueIndex.addList/removeList (the store hands a
//   list value over whole). With resolution 1 each token has one id array; with `fastupdate` a removal
//   splices the node out of exactly the arrays its register names (the register is ours and keeps
//   4 bytes a node instead of flexsearch's ~150: see NodeRegister).
// - Exact boolean retrieval is ours: flexsearch's `search` ranks and caps by relevance, so an answer
//   that must hold every match (ordering and paging come after filtering) needs `limit: n` and a sort
//   by id: a 2-word alloftext took 70 µs vs 1–2 µs at 10k documents and 15 ms vs 0.05 ms at 1M (bench/
//   micro/fulltext-vs-flexsearch.ts, figures in bench/README.md). We read its id arrays directly and
//   run util/posting-list.ts's set algebra on them (intersectLists: galloping, or cached bitsets for
//   dense lists; unionMany). For that every array is kept ascending by node id (see keepAscending),
//   and nothing of flexsearch's is handed out (see `snapshot`).

import FlexSearch from 'flexsearch';
import type { ScalarValue, ValueIndex } from './value-index.js';
import { analyzeFulltext } from './fulltext-analyzer.js';
import { EMPTY_IDS, contains, lowerBound, unionMany, type SortedIds } from '../util/sorted-ids.js';
import { BITSET_MIN, bitsetOf, intersectLists } from '../util/posting-list.js';

/**
 * The parts of flexsearch's Index read here: `map` is not in its typings, but a named field of the
 * built bundle too (checked in the constructor, and pinned by test/unit/indexes/fulltext-index.test.ts).
 * We read `map` rather than a Resolver from `search(token, { resolve: false })`: the Resolver holds
 * the same arrays, but building one runs the query pipeline and allocates per call, while `map` is
 * one Map lookup per token.
 */
interface FlexInternals {
  /** token → one id array per resolution slot; with resolution 1 only slot 0, in insertion order. */
  readonly map: Map<string, number[][]>;
  add(id: number, content: readonly string[]): unknown;
  remove(id: number): unknown;
  cleanup(): void;
}

/** flexsearch's Index constructor: the second argument is the register it keeps documents in. */
type FlexIndexConstructor = new (options: object, register: NodeRegister) => FlexInternals;

/**
 * `fastupdate`'s register, which flexsearch's constructor lets the caller supply (its second argument).
 * flexsearch asks it which id arrays hold a node (`get`, to splice the node out of exactly those on
 * `remove`), records there the arrays it pushes a node into (`set`, then `get(id).push`), and asks
 * `has`/`size`/`delete`. Its default, a Map of node → array of references, added 264 bytes a node at
 * 12 tokens in bench/micro/fulltext-vs-flexsearch.ts (the same references in an array by node id:
 * 151), and a node rewritten over and over made each lookup cost 15–20 µs (a V8 Map keeps each deleted
 * entry in its key's bucket chain until the table is rehashed). Ours keeps only each node's number of
 * arrays (4 bytes, by dense node id); the arrays are found when needed, from the tokens of the value
 * being removed, which the store always passes (FulltextIndex.arraysOf, checked against the count;
 * otherwise every array is searched), and lent to flexsearch for the one add or remove in progress.
 */
class NodeRegister {
  /** Per node: how many id arrays hold it (0: no document). */
  private counts = new Int32Array(0);
  size = 0;
  /** The node flexsearch is adding or removing right now, and the arrays lent for it. */
  private lentId = -1;
  private lent: number[][] | undefined;
  /** What an add's arrays are collected in, reused (flexsearch's own `[first]` would grow by push: an allocation a node). */
  private readonly scratch: number[][] = [];

  has(id: number): boolean {
    return (this.counts[id] ?? 0) > 0;
  }

  count(id: number): number {
    return this.counts[id] ?? 0;
  }

  get(id: number): number[][] | undefined {
    return id === this.lentId ? this.lent : undefined;
  }

  /** flexsearch's add, at a node's first token (`refs` = [its array]): it pushes the rest into `get(id)`. */
  set(id: number, refs: number[][]): this {
    if (id !== this.lentId) throw new Error(`flexsearch registered node ${id} outside an add`);
    const scratch = this.scratch;
    scratch.length = 0;
    for (const ids of refs) scratch.push(ids);
    this.lent = scratch;
    return this;
  }

  /** flexsearch's remove, when done. */
  delete(id: number): boolean {
    if (!this.has(id)) return false;
    this.counts[id] = 0;
    this.size--;
    return true;
  }

  clear(): void {
    this.counts = new Int32Array(0);
    this.size = 0;
  }

  /** Lends `refs` (or, for an add, none yet) for flexsearch's next add or remove of `id`. */
  lend(id: number, refs: number[][] | undefined): void {
    this.lentId = id;
    this.lent = refs;
  }

  /** Ends the add of `id`: the arrays flexsearch pushed it into (none for a document without tokens; valid until the next add). */
  added(id: number): readonly number[][] {
    const refs = this.lent ?? [];
    this.lentId = -1;
    this.lent = undefined;
    if (refs.length > 0) {
      if (id >= this.counts.length) {
        const grown = new Int32Array(Math.max(id + 1, Math.ceil(this.counts.length * 1.5), 1024));
        grown.set(this.counts);
        this.counts = grown;
      }
      this.counts[id] = refs.length;
      this.size++;
    }
    return refs;
  }

  /** Ends a remove. */
  removed(): void {
    this.lentId = -1;
    this.lent = undefined;
  }
}

/** Our analyzer has already made the tokens: flexsearch gets the array as its "content". */
const passTokens = (tokens: string): string[] => tokens as unknown as string[];

/** Single-token answers shorter than this are copied on every read (not worth caching). */
const COPY_CACHE_MIN = 64;
/** Removed documents leave empty id arrays in flexsearch's map; cleanup() runs past this many. */
const CLEANUP_MIN = 4096;

/** Derived from one id array; dropped whenever that array changes. */
interface Derived {
  /** A copy handed out as a single-token answer (flexsearch's arrays change in place). */
  copy?: SortedIds;
  /** Membership bitset for intersections; null when the array is too short or sparse. */
  bits?: Uint32Array | null;
}

function asText(value: ScalarValue): string {
  if (typeof value !== 'string') throw new TypeError(`fulltext index expects string values, got ${typeof value}`);
  return value;
}

/** The distinct tokens, in first-seen order (a short list needs no Set). */
function distinct(tokens: readonly string[]): readonly string[] {
  if (tokens.length < 2) return tokens;
  if (tokens.length > 24) return [...new Set(tokens)];
  const out: string[] = [];
  for (const t of tokens) if (!out.includes(t)) out.push(t);
  return out;
}

/** The tokens of all of a list's values (flexsearch skips repeats within a document). */
function listTokens(values: readonly ScalarValue[]): string[] {
  if (values.length === 1) return analyzeFulltext(asText(values[0] as ScalarValue));
  const tokens: string[] = [];
  for (const v of values) for (const t of analyzeFulltext(asText(v))) tokens.push(t);
  return tokens;
}

/**
 * flexsearch appends a newly indexed id at the end of each of its document's arrays: bulk loads add
 * ascending ids, so nothing moves; an older node (re)indexed later is moved into place (a memmove via
 * pop + splice; Array#copyWithin walks the elements generically and is ~250x slower). Its removals
 * splice by indexOf, which keeps the order.
 */
function keepAscending(ids: number[]): void {
  const last = ids.length - 1;
  const id = ids[last] as number;
  if (last === 0 || (ids[last - 1] as number) < id) return;
  ids.pop();
  ids.splice(lowerBound(ids, id), 0, id);
}

/**
 * One flexsearch document per node: `add` (a single value) and `addList` (a list's values) set the
 * node's document, replacing any previous one; `remove`/`removeList` drop the node's document (the
 * store always removes the previous whole value before adding the new one). Answers are fresh arrays
 * or cached copies, never flexsearch's own arrays, so later writes do not change them.
 */
export class FulltextIndex implements ValueIndex {
  private readonly flex: FlexInternals;
  private readonly reg = new NodeRegister();
  private entries = 0;
  /** Removals that left an id array empty since the last cleanup (an upper bound). */
  private emptied = 0;
  private readonly derived = new Map<readonly number[], Derived>();

  constructor() {
    const Index = FlexSearch.Index as unknown as FlexIndexConstructor;
    const flex = new Index({ tokenize: 'strict', resolution: 1, fastupdate: true, encode: passTokens }, this.reg);
    if (!(flex.map instanceof Map) || (flex as unknown as { reg: unknown }).reg !== this.reg) throw new Error('flexsearch internals changed: Index.map / Index.reg not as expected');
    this.flex = flex;
  }

  /** Number of (token, node) pairs. */
  get entryCount(): number {
    return this.entries;
  }

  /** Number of distinct tokens held by some node (counts flexsearch's map: for tests and reports). */
  get tokenCount(): number {
    let n = 0;
    for (const slots of this.flex.map.values()) if ((slots[0]?.length ?? 0) > 0) n++;
    return n;
  }

  add(value: ScalarValue, id: number): void {
    this.put(analyzeFulltext(asText(value)), id);
  }

  addList(values: readonly ScalarValue[], id: number): void {
    this.put(listTokens(values), id);
  }

  remove(value: ScalarValue, id: number): void {
    this.drop(id, analyzeFulltext(asText(value)));
  }

  removeList(values: readonly ScalarValue[], id: number): void {
    this.drop(id, listTokens(values));
  }

  /** Nodes whose tokens include every (non-stop-word) token of `text`. */
  allOfText(text: string): SortedIds {
    const lists: number[][] = [];
    for (const token of new Set(analyzeFulltext(text))) {
      const ids = this.posting(token);
      if (ids === undefined) return EMPTY_IDS;
      lists.push(ids);
    }
    if (lists.length === 1) return this.snapshot(lists[0] as number[]);
    // Two or more non-empty arrays: intersectLists returns a fresh array.
    return intersectLists(lists, (ids) => ids.length, (ids) => ids, (ids) => this.bitset(ids));
  }

  /** Nodes whose tokens include at least one (non-stop-word) token of `text`. */
  anyOfText(text: string): SortedIds {
    const lists: number[][] = [];
    for (const token of new Set(analyzeFulltext(text))) {
      const ids = this.posting(token);
      if (ids !== undefined) lists.push(ids);
    }
    if (lists.length === 0) return EMPTY_IDS;
    return lists.length === 1 ? this.snapshot(lists[0] as number[]) : unionMany(lists);
  }

  /** Estimated result size of `allOfText` without computing it (the smallest posting). */
  estimateAllOfText(text: string): number {
    const tokens = new Set(analyzeFulltext(text));
    if (tokens.size === 0) return 0;
    let min = Infinity;
    for (const t of tokens) min = Math.min(min, this.posting(t)?.length ?? 0);
    return min;
  }

  /** flexsearch's live, ascending id array for `token` (undefined when no node has it). Never hand it out. */
  private posting(token: string): number[] | undefined {
    const ids = this.flex.map.get(token)?.[0];
    return ids === undefined || ids.length === 0 ? undefined : ids;
  }

  /** Sets the node's document (replacing one it has, found by searching every array: the store removes first). */
  private put(tokens: string[], id: number): void {
    const reg = this.reg;
    if (reg.has(id)) this.drop(id, undefined);
    if (tokens.length === 0) return;
    reg.lend(id, undefined);
    this.flex.add(id, tokens);
    const refs = reg.added(id);
    const derived = this.derived.size > 0;
    for (const ids of refs) {
      keepAscending(ids);
      if (derived) this.derived.delete(ids);
    }
    this.entries += refs.length;
  }

  /** Removes the node's document; `tokens` are those of the value it was added with, if known. */
  private drop(id: number, tokens: readonly string[] | undefined): void {
    const count = this.reg.count(id);
    if (count === 0) return;
    let refs = tokens === undefined ? undefined : this.arraysOf(id, tokens);
    if (refs === undefined || refs.length !== count) refs = this.arraysHolding(id);
    this.entries -= refs.length;
    if (this.derived.size > 0) for (const ids of refs) this.derived.delete(ids);
    this.reg.lend(id, refs);
    this.flex.remove(id);
    this.reg.removed();
    for (const ids of refs) if (ids.length === 0) this.emptied++;
    if (this.emptied > CLEANUP_MIN && this.emptied * 2 > this.flex.map.size) {
      this.flex.cleanup(); // deletes the tokens whose arrays are empty (nothing holds them)
      this.emptied = 0;
    }
  }

  /**
   * The id arrays of the distinct `tokens`, if each holds `id` (binary search: they are ascending);
   * undefined when one does not (the value is not the one the node was added with). `drop` also checks
   * their number against the register's count.
   */
  private arraysOf(id: number, tokens: readonly string[]): number[][] | undefined {
    const refs: number[][] = [];
    for (const token of distinct(tokens)) {
      const ids = this.posting(token);
      if (ids === undefined || !contains(ids, id)) return undefined;
      refs.push(ids);
    }
    return refs;
  }

  /** Every id array holding `id`, searched token by token (when the node's value is not known). */
  private arraysHolding(id: number): number[][] {
    const refs: number[][] = [];
    for (const slots of this.flex.map.values()) {
      const ids = slots[0];
      if (ids !== undefined && contains(ids, id)) refs.push(ids);
    }
    return refs;
  }

  /** A single-token answer: a copy, cached until the array's next write. */
  private snapshot(ids: number[]): SortedIds {
    if (ids.length < COPY_CACHE_MIN) return ids.slice();
    const d = this.derivedOf(ids);
    return (d.copy ??= ids.slice());
  }

  private bitset(ids: number[]): Uint32Array | undefined {
    if (ids.length < BITSET_MIN) return undefined;
    const d = this.derivedOf(ids);
    if (d.bits === undefined) d.bits = bitsetOf(ids) ?? null;
    return d.bits ?? undefined;
  }

  private derivedOf(ids: number[]): Derived {
    let d = this.derived.get(ids);
    if (d === undefined) this.derived.set(ids, (d = {}));
    return d;
  }
}
