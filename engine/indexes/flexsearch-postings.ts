// flexsearch as a TokenStore (./postings/token-store.ts): the postings of the fulltext index. The only
// importer of flexsearch (0.8.212; `tokenize: 'strict'`, `resolution: 1`, `fastupdate: true`).
//
// - flexsearch stores the postings (its `map`) and removes the documents: one document per node, the
//   tokens of its value (of all its values, for a list). Our analyzer has made the tokens; a document is
//   added by pushing the node onto its tokens' arrays as flexsearch's add leaves them (`put`: its add
//   cost ~2 µs a token in per-call dedupe objects and scoring), so none of its normalisation touches
//   them (its `encode` is a pass-through all the same). With resolution 1
//   each token has one id array; a removal marks the node gone in exactly the arrays of its tokens
//   (found by binary search; flexsearch's own `indexOf` scanned them) and flexsearch only unregisters it
//   (the register is ours and keeps 4 bytes a node instead of flexsearch's ~150: see NodeRegister).
//   Gone ids leave an array on its next read, or once they are an eighth of it (see `gone`): a splice
//   per removal moved half of a common token's array (30k ids at 1M posts, ~12 per deleted post).
// - Exact boolean retrieval is ours: flexsearch's documented `search` ranks and caps by relevance, so an
//   answer that must hold every match (ordering and paging come after filtering) needs `limit: n` and a
//   sort by id, 30-300x slower for 2 words (bench/README.md, "flexsearch: documented API or internals").
//   We read its id arrays (`map`) and run ./postings/'s set algebra on them. For that every array is kept
//   ascending by node id (see keepAscending), and nothing of flexsearch's is handed out (see `snapshot`).
// Everything used here that flexsearch does not document is pinned by
// test/unit/indexes/flexsearch-contract.test.ts, so an upgrade that changes it fails loudly.

import FlexSearch from 'flexsearch';
import type { TokenStore } from './postings/token-store.js';
import { BITSET_MIN, bitsetOf } from './postings/bitsets.js';
import { contains, lowerBound, removeAll, type SortedIds } from '../util/sorted-ids.js';
import { distinct } from './token-index.js';
import { packPostings, unpackPostings, type StoredPostings } from './postings/stored-postings.js';

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
 * `remove`; its add would record them with `set`, but `put` adds without it), and asks
 * `has`/`size`/`delete`. Its default, a Map of node → array of references, added 264 bytes a node at
 * 12 tokens in bench/micro/fulltext-vs-flexsearch.ts (the same references in an array by node id:
 * 151), and a node rewritten over and over made each lookup cost 15–20 µs (a V8 Map keeps each deleted
 * entry in its key's bucket chain until the table is rehashed). Ours keeps only each node's number of
 * arrays and a signature of its tokens (8 bytes, by dense node id); the arrays are found when needed, from
 * the tokens of the value being removed, which the store always passes (checked against the count and the
 * signature, else each array's holding the node is checked; otherwise every array is searched), and lent
 * to flexsearch for the one remove in progress.
 */
class NodeRegister {
  /** Per node: how many id arrays hold it (0: no document). */
  private counts = new Int32Array(0);
  /** Per node: tokenSignature of the tokens it was put with (0: unknown, e.g. loaded from a snapshot; meaningful while its count is not 0). */
  private signs = new Int32Array(0);
  size = 0;
  /** The node flexsearch is removing right now, and the arrays lent for it. */
  private lentId = -1;
  private lent: number[][] | undefined;

  has(id: number): boolean {
    return (this.counts[id] ?? 0) > 0;
  }

  count(id: number): number {
    return this.counts[id] ?? 0;
  }

  sign(id: number): number {
    return this.signs[id] ?? 0;
  }

  get(id: number): number[][] | undefined {
    return id === this.lentId ? this.lent : undefined;
  }

  /** flexsearch's add registers here; ours never calls it (`FlexsearchPostings.put` pushes the node itself). */
  set(id: number): this {
    throw new Error(`flexsearch registered node ${id}: its add is not used`);
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
    this.signs = new Int32Array(0);
    this.size = 0;
  }

  /** Lends `refs` for flexsearch's next remove of `id`. */
  lend(id: number, refs: number[][] | undefined): void {
    this.lentId = id;
    this.lent = refs;
  }

  /** Registers the add of `id` into `count` (> 0) arrays. */
  added(id: number, count: number, sign: number): void {
    if (id >= this.counts.length) {
      const length = Math.max(id + 1, Math.ceil(this.counts.length * 1.5), 1024);
      this.counts = grownTo(this.counts, length);
      this.signs = grownTo(this.signs, length);
    }
    this.counts[id] = count;
    this.signs[id] = sign;
    this.size++;
  }

  /** A restore's register: each node's number of arrays, counted from every array's ids (`ids`, all of them). */
  load(ids: Int32Array): void {
    let max = 0;
    for (const id of ids) if (id > max) max = id;
    const counts = new Int32Array(Math.max(max + 1, 1024));
    let size = 0;
    for (const id of ids) if ((counts[id] = (counts[id] as number) + 1) === 1) size++;
    this.counts = counts;
    // The values' tokens (repeats included) are not in the postings: unknown, so a removal checks each array.
    this.signs = new Int32Array(counts.length);
    this.size = size;
  }

  /** Ends a remove. */
  removed(): void {
    this.lentId = -1;
    this.lent = undefined;
  }
}

function grownTo(a: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(length);
  grown.set(a);
  return grown;
}

/**
 * A value's tokens (repeats included) as one number, whatever their order: a removal whose tokens give the
 * node's signature and count takes their arrays as they are, without a binary search per array for the node.
 */
function tokenSignature(tokens: readonly string[]): number {
  let sum = 0;
  for (const token of tokens) {
    let h = 0x811c9dc5; // FNV-1a per token, summed: the order does not count
    for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 0x01000193);
    sum = (sum + h) | 0;
  }
  return sum | 1; // never 0, the register's "unknown"
}

/** Our analyzer has already made the tokens: flexsearch gets the array as its "content" (undocumented: content is a string). */
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

/**
 * flexsearch appends a newly indexed id at the end of each of its document's arrays: bulk loads add
 * ascending ids, so nothing moves; an older node (re)indexed later is moved into place (a memmove via
 * pop + splice; Array#copyWithin walks the elements generically and is ~250x slower). Removals
 * splice at a binary-searched place (`drop`), which keeps the order.
 */
function keepAscending(ids: number[]): void {
  const last = ids.length - 1;
  const id = ids[last] as number;
  if (last === 0 || (ids[last - 1] as number) < id) return;
  ids.pop();
  ids.splice(lowerBound(ids, id), 0, id);
}

const noArrays: number[][] = [];


/**
 * One flexsearch document per node. `put` sets the node's document, replacing any previous one; `drop`
 * removes it. Answers are fresh arrays or cached copies, never flexsearch's own arrays.
 */
export class FlexsearchPostings implements TokenStore<number[]> {
  private readonly flex: FlexInternals;
  private readonly reg = new NodeRegister();
  private entries = 0;
  /** Removals that left an id array empty since the last cleanup (an upper bound). */
  private emptied = 0;
  private readonly derived = new Map<readonly number[], Derived>();
  /**
   * Per id array, the ids removed from it that are still in it: taken out (one pass, removeAll) when
   * the array is next read (`list`), or once they outnumber an eighth of it (amortised O(1) a removal).
   * Nothing reads an array with gone ids but `holds`; an array whose ids are all gone is emptied at once.
   */
  private readonly gone = new Map<readonly number[], Set<number>>();

  constructor() {
    const Index = FlexSearch.Index as unknown as FlexIndexConstructor;
    const flex = new Index({ tokenize: 'strict', resolution: 1, fastupdate: true, encode: passTokens }, this.reg);
    if (!(flex.map instanceof Map) || (flex as unknown as { reg: unknown }).reg !== this.reg) throw new Error('flexsearch internals changed: Index.map / Index.reg not as expected');
    this.flex = flex;
  }

  get entryCount(): number {
    return this.entries;
  }

  /** Counts flexsearch's non-empty arrays (for tests and reports). */
  get tokenCount(): number {
    let n = 0;
    for (const slots of this.flex.map.values()) if ((slots[0]?.length ?? 0) > 0) n++;
    return n;
  }

  list(token: string): number[] | undefined {
    const ids = this.posting(token);
    if (ids !== undefined && this.gone.size > 0) this.flush(ids);
    return ids;
  }

  size(list: number[]): number {
    return list.length;
  }

  ids(list: number[]): SortedIds {
    return list;
  }

  /** flexsearch's live, ascending id array for `token` (undefined when no node has it; may hold gone ids). Never hand it out. */
  private posting(token: string): number[] | undefined {
    const ids = this.flex.map.get(token)?.[0];
    return ids === undefined || ids.length === 0 ? undefined : ids;
  }

  /** Sets the node's document (replacing one it has, found by searching every array: the store removes first). */
  put(id: number, tokens: readonly string[]): void {
    const reg = this.reg;
    if (reg.has(id)) this.drop(id, undefined);
    const refs = this.push(id, tokens);
    if (refs.length === 0) return;
    reg.added(id, refs.length, tokenSignature(tokens));
    const derived = this.derived.size > 0;
    const gone = this.gone.size > 0;
    for (const ids of refs) {
      const g = gone ? this.gone.get(ids) : undefined;
      // Still there from its removal: flexsearch's push is undone and the id is back in its place.
      if (g?.delete(id) === true) {
        ids.pop();
        if (g.size === 0) this.gone.delete(ids);
      } else keepAscending(ids);
      if (derived) this.derived.delete(ids);
    }
    this.entries += refs.length;
  }

  /**
   * What flexsearch's add (resolution 1, no context) does, without it: the node pushed at the end of each
   * distinct token's slot-0 array, made when new. Its add built two dedupe objects keyed by token and
   * scored each token per call: ~2 µs a token, 7% of a matrix add's CPU. The arrays it pushed into.
   */
  private push(id: number, tokens: readonly string[]): readonly number[][] {
    const map = this.flex.map;
    const refs = this.scratch;
    refs.length = 0;
    for (const token of distinct(tokens)) {
      if (token.length === 0) continue; // flexsearch skips empty tokens
      let slots = map.get(token);
      if (slots === undefined) map.set(token, (slots = []));
      const ids = (slots[0] ??= []);
      ids.push(id);
      refs.push(ids);
    }
    return refs;
  }

  /** The arrays of the add in progress, reused (valid until the next put). */
  private readonly scratch: number[][] = [];

  /** Removes the node's document; `tokens` are those of the value it was added with, if known. */
  drop(id: number, tokens: readonly string[] | undefined): void {
    const count = this.reg.count(id);
    if (count === 0) return;
    let refs = tokens === undefined ? undefined : this.arraysOf(id, tokens, count);
    if (refs === undefined || refs.length !== count) refs = this.arraysHolding(id);
    this.entries -= refs.length;
    if (this.derived.size > 0) for (const ids of refs) this.derived.delete(ids);
    // The arrays are ascending: the node was found by binary search, not by flexsearch's indexOf (a scan
    // of every array, O(nodes) for common tokens); flexsearch is lent no arrays and only unregisters it.
    for (const ids of refs) this.forget(ids, id);
    this.reg.lend(id, noArrays);
    this.flex.remove(id);
    this.reg.removed();
    if (this.emptied > CLEANUP_MIN && this.emptied * 2 > this.flex.map.size) {
      this.flex.cleanup(); // deletes the tokens whose arrays are empty (nothing holds them)
      this.emptied = 0;
    }
  }

  /** Removes `id` from `ids`: popped when last, else marked gone (see `gone`). */
  private forget(ids: number[], id: number): void {
    let g = this.gone.get(ids);
    if (ids[ids.length - 1] === id) ids.pop();
    else {
      if (g === undefined) this.gone.set(ids, (g = new Set()));
      g.add(id);
    }
    if (g === undefined) {
      if (ids.length === 0) this.emptied++;
    } else if (g.size === ids.length) {
      ids.length = 0;
      this.gone.delete(ids);
      this.emptied++;
    } else if (g.size > (ids.length >>> 3) + 16) this.flush(ids);
  }

  /** Takes the gone ids out of `ids`. */
  private flush(ids: number[]): void {
    const g = this.gone.get(ids);
    if (g === undefined) return;
    removeAll(ids, g);
    this.gone.delete(ids);
  }

  /** Whether `ids` holds `id` and it is not gone. */
  private holds(ids: readonly number[], id: number): boolean {
    return contains(ids, id) && this.gone.get(ids)?.has(id) !== true;
  }

  /**
   * The id arrays of the distinct `tokens`, if each holds `id`; undefined when one does not (the value is
   * not the one the node was added with). Tokens of the node's signature and count are its own: their
   * arrays are taken unchecked. Otherwise each is checked (binary search: they are ascending), and
   * `drop` checks their number against the register's count.
   */
  private arraysOf(id: number, tokens: readonly string[], count: number): number[][] | undefined {
    const own = tokenSignature(tokens) === this.reg.sign(id);
    const unique = distinct(tokens);
    const checked = !own || unique.length !== count;
    const refs: number[][] = [];
    for (const token of unique) {
      const ids = this.posting(token);
      if (ids === undefined || (checked && !this.holds(ids, id))) return undefined;
      refs.push(ids);
    }
    return refs;
  }

  /** Every id array holding `id`, searched token by token (when the node's value is not known). */
  private arraysHolding(id: number): number[][] {
    const refs: number[][] = [];
    for (const slots of this.flex.map.values()) {
      const ids = slots[0];
      if (ids !== undefined && this.holds(ids, id)) refs.push(ids);
    }
    return refs;
  }

  exportPostings(): StoredPostings {
    return packPostings((add) => {
      for (const [token, slots] of this.flex.map) {
        const ids = slots[0];
        if (ids === undefined) continue;
        this.flush(ids);
        if (ids.length > 0) add(token, ids);
      }
    });
  }

  /** Each token's array as flexsearch's add would have left it (one slot, ascending), and the register's counts. */
  importPostings(stored: StoredPostings): void {
    if (this.entries !== 0 || this.flex.map.size !== 0) throw new Error('importPostings needs an empty store');
    const map = this.flex.map;
    unpackPostings(stored, (token, ids) => map.set(token, [Array.from(ids)]));
    this.reg.load(stored.ids);
    this.entries = stored.ids.length;
  }

  /** A single-token answer: a copy, cached until the array's next write. */
  snapshot(ids: number[]): SortedIds {
    if (ids.length < COPY_CACHE_MIN) return ids.slice();
    const d = this.derivedOf(ids);
    return (d.copy ??= ids.slice());
  }

  bitset(ids: number[], build = true): Uint32Array | undefined {
    if (ids.length < BITSET_MIN) return undefined;
    if (!build) return this.derived.get(ids)?.bits ?? undefined;
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
