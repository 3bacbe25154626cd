// Parameter draws shared by the matrix shapes: a random post, words of its texts, ranges over the
// generated values. Each draw is from the data set, so most variants match something.

import type { Prng } from '../data/prng.js';
import { publishedEpochMs, publishedSpanS, type Dataset, type PostRecord } from '../data/dataset.js';

export function anyPost(prng: Prng, data: Dataset): PostRecord {
  return prng.pick(data.posts);
}

/** `count` distinct words of `text`, in text order. */
export function wordsOf(prng: Prng, text: string, count: number): string[] {
  const all = [...new Set(text.split(' '))];
  const picked = new Set<number>();
  while (picked.size < Math.min(count, all.length)) picked.add(prng.int(all.length));
  return [...picked].sort((a, b) => a - b).map((i) => all[i] ?? '');
}

/** A post that has a summary (two of three do). */
export function postWithSummary(prng: Prng, data: Dataset): PostRecord & { readonly summary: string } {
  for (;;) {
    const p = anyPost(prng, data);
    if (p.summary !== undefined) return p as PostRecord & { readonly summary: string };
  }
}

export const scoreIn = (prng: Prng, data: Dataset, below = data.posts.length): number => 1 + prng.int(Math.max(1, below));

/** A time within the generated span, as RFC 3339 (whole seconds, UTC). */
export function timeAt(prng: Prng, offsetS = 0): string {
  return new Date(publishedEpochMs + (prng.int(publishedSpanS) + offsetS) * 1000).toISOString().replace('.000Z', 'Z');
}

export const addSeconds = (rfc3339: string, seconds: number): string => new Date(Date.parse(rfc3339) + seconds * 1000).toISOString().replace('.000Z', 'Z');
