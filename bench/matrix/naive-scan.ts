// The expected answers of the shape matrix, by a plain linear scan over the generated data set: no
// index, no engine code. The generated texts are lower-case pseudo-words joined by single spaces
// (no stop word, nothing the stemmer strips), so a word test is a substring test with spaces around.

import type { Dataset, PostRecord } from '../data/dataset.js';

/** Whether `text` holds the word `word`. */
export const hasWord = (text: string | undefined, word: string): boolean => text !== undefined && ` ${text} `.includes(` ${word} `);

/** Whether `text` holds the words of `phrase` next to each other, in order (a 2-word ngram query). */
export const hasPhrase = (text: string | undefined, phrase: string): boolean => text !== undefined && ` ${text} `.includes(` ${phrase} `);

export type Order = { readonly key: (p: PostRecord) => number | string; readonly desc: boolean } | null;

/**
 * The page of the posts that match, in `order` (ties, and no order at all, in insertion order, which
 * is the engine's uid order), skipping `offset`, at most `first` (all when undefined).
 */
export function page(data: Dataset, matches: (p: PostRecord) => boolean, order: Order, offset = 0, first?: number): PostRecord[] {
  const found = data.posts.filter(matches);
  if (order !== null) {
    const sign = order.desc ? -1 : 1;
    // Array.prototype.sort is stable: equal keys keep insertion order.
    found.sort((a, b) => {
      const x = order.key(a);
      const y = order.key(b);
      return x < y ? -sign : x > y ? sign : 0;
    });
  }
  return found.slice(offset, first === undefined ? undefined : offset + first);
}

export const byScore = (desc: boolean): Order => ({ key: (p) => p.score, desc });

/** Great-circle distance in metres on a sphere of 6,371 km (Dgraph's geo radius). */
export function geoDistanceM(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function euclidean(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += ((a[i] ?? 0) - (b[i] ?? 0)) ** 2;
  return Math.sqrt(sum);
}

/** Posts of author `index`, in insertion order (the inverse edge `Author.posts`). */
export const postsOf = (data: Dataset, index: number): PostRecord[] => data.posts.filter((p) => p.author === index);

export const authorName = (data: Dataset, p: PostRecord): string => data.authors[p.author]?.name ?? '';

/** Float aggregates and distances: equal to 1e-9 relative (summation order may differ). */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}
