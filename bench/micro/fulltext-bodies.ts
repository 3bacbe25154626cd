// The documents of the fulltext micro-benchmarks: the scale benchmark's body vocabulary, seeded per id.

import { vocabularies } from '../data/dataset.js';

const { bodyWords } = vocabularies(7);

/** Document `i`: 12 words of the benchmark's 400-word body vocabulary (seeded by `i` and `salt`). */
export function body(i: number, salt = 0): string {
  const out: string[] = [];
  let s = i * 2 + 2 + salt * 7919;
  for (let k = 0; k < 12; k++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out.push(bodyWords[(s >>> 8) % bodyWords.length] as string);
  }
  return out.join(' ');
}

/** The vocabulary the bodies are drawn from. */
export const bodyVocabulary: readonly string[] = bodyWords;
