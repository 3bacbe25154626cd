// A token index's postings flat, as a snapshot stores them (format version 2, engine/persist/README.md):
// a restore loads them instead of tokenising every value again. Packed from and unpacked into any token
// store (./token-postings.ts, ../flexsearch-postings.ts) through one token-by-token walk.

/**
 * What made stored tokens: the tokenizers' own version (bump it when term, fulltext, ngram or trigram
 * tokenising changes what a value yields) and the Unicode tables behind normalize/toLowerCase (Node's).
 * Postings of another make are not loaded but rebuilt from the values: loaded, they would answer other
 * tokens than this build's queries make, and a later removal would leave the old tokens matching.
 */
export const TOKENS_MADE_BY = `tokenizers 1, unicode ${process.versions.unicode ?? 'unknown'}`;

/** Token → ascending ids, flat. Tokens are UTF-16 code units (trigrams split surrogate pairs: no UTF-8). */
export interface StoredPostings {
  /** The tokens' code units one after another: bytes when every unit is Latin-1, else 16-bit units. */
  readonly text: Uint8Array | Uint16Array;
  /** Per token, its length in code units. */
  readonly lengths: Int32Array;
  /** Per token, its number of ids (≥ 1). */
  readonly counts: Int32Array;
  /** Each token's ids ascending, token after token. */
  readonly ids: Int32Array;
}

/**
 * Builds StoredPostings from (token, ids) pairs: `each` calls `add` once per token with a non-empty list
 * (a lone id as a number: most ngram tokens have one, and an array each cost a tenth of the capture).
 */
export function packPostings(each: (add: (token: string, ids: number | ArrayLike<number>) => void) => void): StoredPostings {
  const tokens: string[] = [];
  const lists: (number | ArrayLike<number>)[] = [];
  let total = 0;
  each((token, ids) => {
    tokens.push(token);
    lists.push(ids);
    total += typeof ids === 'number' ? 1 : ids.length;
  });
  const lengths = new Int32Array(tokens.length);
  const counts = new Int32Array(tokens.length);
  const ids = new Int32Array(total);
  let at = 0;
  for (let i = 0; i < tokens.length; i++) {
    lengths[i] = (tokens[i] as string).length;
    const list = lists[i] as number | ArrayLike<number>;
    if (typeof list === 'number') {
      counts[i] = 1;
      ids[at++] = list;
      continue;
    }
    counts[i] = list.length;
    for (let k = 0; k < list.length; k++) ids[at++] = list[k] as number;
  }
  return { text: packText(tokens.join('')), lengths, counts, ids };
}

function packText(joined: string): Uint8Array | Uint16Array {
  const latin1 = !/[^\0-\xff]/.test(joined);
  const text = latin1 ? new Uint8Array(joined.length) : new Uint16Array(joined.length);
  // Buffer's latin1/utf16le writers copy code units as they are (lone surrogates included).
  Buffer.from(text.buffer, 0, text.byteLength).write(joined, latin1 ? 'latin1' : 'utf16le');
  return text;
}

/**
 * Calls `fn` per token with its ids (a view of `stored.ids`, valid during the call). The structure must
 * have been checked (`postingsProblem`): the snapshot reader does it before anything is loaded.
 */
export function unpackPostings(stored: StoredPostings, fn: (token: string, ids: Int32Array) => void): void {
  const { text, lengths, counts, ids } = stored;
  const joined = Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString(text instanceof Uint8Array ? 'latin1' : 'utf16le');
  let from = 0;
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    const length = lengths[i] as number;
    const count = counts[i] as number;
    fn(joined.slice(from, from + length), ids.subarray(at, at + count));
    from += length;
    at += count;
  }
}

/** Why `stored` is not well-formed postings for ids below `nextId` (undefined: it is). One pass over the ids. */
export function postingsProblem(stored: StoredPostings, nextId: number): string | undefined {
  const { text, lengths, counts, ids } = stored;
  if (!(text instanceof Uint8Array || text instanceof Uint16Array) || !(lengths instanceof Int32Array) || !(counts instanceof Int32Array) || !(ids instanceof Int32Array)) return 'postings are not typed arrays';
  if (lengths.length !== counts.length) return `${lengths.length} token lengths for ${counts.length} tokens`;
  let units = 0;
  for (const n of lengths) {
    if (n < 0) return 'a negative token length';
    units += n;
  }
  if (units !== text.length) return `token lengths add up to ${units}, the text has ${text.length}`;
  let at = 0;
  for (const n of counts) {
    if (n < 1 || at + n > ids.length) return 'a token id count out of range';
    let prev = 0;
    for (const end = at + n; at < end; at++) {
      const id = ids[at] as number;
      if (id <= prev || id >= nextId) return `id ${id} out of order or out of range`;
      prev = id;
    }
  }
  if (at !== ids.length) return `token id counts add up to ${at}, there are ${ids.length} ids`;
  return undefined;
}
