// The benchmark data set: authors and posts, generated deterministically and shared by every contender
// through one JSON file. Ids are not part of it: each contender assigns its own, the runner asks for them.

import { readFileSync, writeFileSync } from 'node:fs';
import { createPrng, type Prng } from './prng.js';

export interface AuthorRecord {
  readonly handle: string;
  readonly name: string;
}

export interface PostRecord {
  readonly slug: string;
  readonly title: string;
  readonly body: string;
  /** Unique across the data set, so `order: { desc: score }` has one right answer. */
  readonly score: number;
  /** Index into `authors`. */
  readonly author: number;
  /** The shape matrix's fields (bench/matrix/), drawn from their own PRNG so the fields above stay as they were. */
  readonly rating: number;
  /** RFC 3339, whole seconds, UTC. */
  readonly published: string;
  /** `k` + 7 digits (trigram regexp). */
  readonly code: string;
  /** 5 words from the title vocabulary (ngram); absent on every third post (`has`, `@cascade`). */
  readonly summary?: string;
  readonly place: { readonly latitude: number; readonly longitude: number };
  /** 4 multiples of 1/1024 in [-1, 1): exact in float32, so a scan computes the engine's distances. */
  readonly embedding: readonly number[];
}

export interface Dataset {
  readonly seed: number;
  readonly authors: readonly AuthorRecord[];
  readonly posts: readonly PostRecord[];
}

export interface DatasetSize {
  readonly posts: number;
  readonly authors: number;
  readonly seed?: number;
}

const consonants = 'bdgklmnpr';
const vowels = 'aio';

/**
 * Pseudo-words of consonant-vowel syllables over `bdgklmnpr` × `aio`: no English stop word and no
 * suffix the Porter stemmer strips, so a word-level index in the peers matches Dgraph's fulltext index.
 */
export function vocabulary(size: number, syllables: number, prng: Prng): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    let word = '';
    for (let i = 0; i < syllables; i++) word += prng.pick([...consonants]) + prng.pick([...vowels]);
    words.add(word);
  }
  return [...words];
}

export interface Vocabularies {
  readonly titleWords: readonly string[];
  readonly bodyWords: readonly string[];
}

export function vocabularies(seed: number): Vocabularies {
  const prng = createPrng(seed ^ 0x5eed);
  return { titleWords: vocabulary(150, 3, prng), bodyWords: vocabulary(400, 4, prng) };
}

export function generateDataset(size: DatasetSize): Dataset {
  const seed = size.seed ?? 7;
  const prng = createPrng(seed);
  const { titleWords, bodyWords } = vocabularies(seed);
  const authors: AuthorRecord[] = [];
  for (let i = 0; i < size.authors; i++) authors.push({ handle: `author-${i}`, name: `Author ${i} ${prng.pick(titleWords)}` });
  const scores = shuffledRange(size.posts, prng);
  const posts: PostRecord[] = [];
  const extra = createPrng(seed ^ 0x3a7c);
  for (let i = 0; i < size.posts; i++) {
    const base = {
      slug: `post-${i}`,
      title: words(titleWords, 6, prng),
      body: words(bodyWords, 12, prng),
      score: scores[i] ?? i,
      author: prng.int(size.authors),
    };
    posts.push({ ...base, ...matrixFields(i, titleWords, extra) });
  }
  return { seed, authors, posts };
}

/** Epoch of `published`: 2020-01-01T00:00:00Z; posts spread over ~3 years. */
export const publishedEpochMs = Date.UTC(2020, 0, 1);
export const publishedSpanS = 100_000_000;

function matrixFields(i: number, titleWords: readonly string[], prng: Prng): Omit<PostRecord, 'slug' | 'title' | 'body' | 'score' | 'author'> {
  const rating = prng.int(1_000_000) / 1000;
  const published = new Date(publishedEpochMs + prng.int(publishedSpanS) * 1000).toISOString().replace('.000Z', 'Z');
  const code = `k${String(prng.int(10_000_000)).padStart(7, '0')}`;
  // Points on a 40°×60° patch (no poles or date line), 4 decimals.
  const place = { latitude: 20 + prng.int(400_000) / 10_000, longitude: -30 + prng.int(600_000) / 10_000 };
  const embedding = [0, 1, 2, 3].map(() => (prng.int(2048) - 1024) / 1024);
  const summary = words(titleWords, 5, prng);
  return { rating, published, code, place, embedding, ...(i % 3 === 2 ? {} : { summary }) };
}

function words(vocab: readonly string[], count: number, prng: Prng): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(prng.pick(vocab));
  return out.join(' ');
}

function shuffledRange(n: number, prng: Prng): number[] {
  const values = Array.from({ length: n }, (_, i) => i + 1);
  for (let i = n - 1; i > 0; i--) {
    const j = prng.int(i + 1);
    const a = values[i] ?? 0;
    values[i] = values[j] ?? 0;
    values[j] = a;
  }
  return values;
}

export function writeDataset(path: string, dataset: Dataset): void {
  writeFileSync(path, JSON.stringify(dataset));
}

export function readDataset(path: string): Dataset {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!isDataset(parsed)) throw new Error(`${path} is not a benchmark data set`);
  return parsed;
}

function isDataset(value: unknown): value is Dataset {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record['seed'] === 'number' && Array.isArray(record['authors']) && Array.isArray(record['posts']);
}
