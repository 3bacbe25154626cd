// A shape of the matrix whose parameters vary per request: `variantsPerShape` variants drawn by a
// seeded PRNG from the data set (variant i of a shape is the same in every run), each with its expected
// answer from a linear scan (naive-scan.ts). Request n uses variant n % variantsPerShape, so a cache
// that only helps a repeated identical request sees each body once per 1,000 requests.

import { createPrng, type Prng } from '../data/prng.js';
import type { Dataset } from '../data/dataset.js';
import type { ContenderIds, Scenario } from '../scenarios.js';
import { compare } from './json-diff.js';

export const variantsPerShape = 1_000;
/** Variants checked against the scan before timing (the first ones; any 20 would do). */
export const checkedVariants = 20;

export interface ShapeSpec<V> {
  readonly name: string;
  readonly description: string;
  readonly document: string;
  /** Whether the peers' GraphQL subset (contenders/peer/) expresses the shape with Dgraph's answer. */
  readonly peers: boolean;
  /** Variant `index`'s parameters, from its own PRNG. */
  draw(prng: Prng, data: Dataset, index: number): V;
  variables(variant: V, ids: ContenderIds): Record<string, unknown>;
  expected(variant: V, data: Dataset, ids: ContenderIds): unknown;
}

/** A stable seed per shape name (FNV-1a), so adding a shape does not change the others' variants. */
export function seedOf(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Memoized variants of one shape: variant i is drawn from its own PRNG. */
export function variantsOf<V>(name: string, data: Dataset, draw: (prng: Prng, data: Dataset, index: number) => V): (n: number) => V {
  const drawn = new Map<number, V>();
  const seed = seedOf(name);
  return (n) => {
    const i = n % variantsPerShape;
    let found = drawn.get(i);
    if (found === undefined) {
      found = draw(createPrng(seed + i * 7919), data, i);
      drawn.set(i, found);
    }
    return found;
  };
}

/** The answer of median size among the checked variants: the ceiling's fixed body. */
export function representative(answers: readonly unknown[]): unknown {
  const sized = answers.map((a) => ({ a, size: JSON.stringify(a).length })).sort((x, y) => x.size - y.size);
  return sized[Math.floor(sized.length / 2)]?.a ?? null;
}

export function readShape<V>(data: Dataset, spec: ShapeSpec<V>): Scenario {
  const variant = variantsOf(spec.name, data, spec.draw);
  return {
    name: spec.name,
    description: spec.description,
    document: spec.document,
    isMutation: false,
    peers: spec.peers,
    variants: variantsPerShape,
    variables: (ids, n) => spec.variables(variant(n), ids),
    check: (got, ids, n) => compare(got, spec.expected(variant(n), data, ids)),
    sample: (ids) => representative(Array.from({ length: checkedVariants }, (_, i) => spec.expected(variant(i), data, ids))),
  };
}

/** The posts whose ids the runner resolves for each contender (get by id picks among them). */
export function idPool(data: Dataset): string[] {
  const prng = createPrng(seedOf('id-pool'));
  const slugs = new Set<string>();
  const size = Math.min(variantsPerShape, data.posts.length);
  while (slugs.size < size) slugs.add(data.posts[prng.int(data.posts.length)]?.slug ?? '');
  return [...slugs];
}

/** Made-up ids for the ceiling, which speaks no GraphQL (its body only needs the answer's size). */
export const ceilingIds: ContenderIds = { idOf: (slug) => `0x${(slug.length * 4099).toString(16)}` };
