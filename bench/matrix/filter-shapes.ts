// The matrix's filter shapes on queryPost: one per filter kind (hash, term, fulltext, regexp, ngram,
// int/float/datetime ranges, has, geo near, and/or/not trees), ordered and unordered pages, offsets.
// Unordered pages come back in uid order (insertion order here), which the peers' hand-written store
// does not reproduce: those shapes are service-only, as are the filter kinds outside the peers' subset.

import type { Dataset, PostRecord } from '../data/dataset.js';
import type { Scenario } from '../scenarios.js';
import { addSeconds, anyPost, postWithSummary, scoreIn, timeAt, wordsOf } from './draw.js';
import { byScore, geoDistanceM, hasPhrase, hasWord, page } from './naive-scan.js';
import { readShape } from './varied-shape.js';

const list = (posts: readonly PostRecord[], pick: (p: PostRecord) => Record<string, unknown>): { queryPost: Record<string, unknown>[] } => ({ queryPost: posts.map(pick) });
const slugScore = (p: PostRecord): Record<string, unknown> => ({ slug: p.slug, score: p.score });
const query = (name: string, vars: string, args: string, fields: string): string => `query ${name}(${vars}) { queryPost(${args}) { ${fields} } }`;

export function filterShapes(data: Dataset): Scenario[] {
  const n = data.posts.length;
  return [
    readShape(data, {
      name: 'hash-eq',
      description: 'slug (@id, hash) eq',
      document: query('HashEq', '$slug: String!', 'filter: { slug: { eq: $slug } }', 'slug title score'),
      peers: true,
      draw: (prng) => anyPost(prng, data).slug,
      variables: (slug) => ({ slug }),
      expected: (slug) => list(page(data, (p) => p.slug === slug, null), (p) => ({ slug: p.slug, title: p.title, score: p.score })),
    }),
    readShape(data, {
      name: 'hash-in',
      description: 'slug in [3 slugs], order asc slug',
      document: query('HashIn', '$slugs: [String]!', 'filter: { slug: { in: $slugs } }, order: { asc: slug }', 'slug score'),
      peers: true,
      draw: (prng) => [anyPost(prng, data).slug, anyPost(prng, data).slug, anyPost(prng, data).slug],
      variables: (slugs) => ({ slugs }),
      expected: (slugs) => list(page(data, (p) => slugs.includes(p.slug), { key: (p) => p.slug, desc: false }), slugScore),
    }),
    readShape(data, {
      name: 'term-all-2',
      description: 'title allofterms 2 terms, unordered first 10',
      document: query('TermAll2', '$t: String!', 'filter: { title: { allofterms: $t } }, first: 10', 'slug title'),
      peers: false,
      draw: (prng) => wordsOf(prng, anyPost(prng, data).title, 2),
      variables: (w) => ({ t: w.join(' ') }),
      expected: (w) => list(page(data, (p) => w.every((x) => hasWord(p.title, x)), null, 0, 10), (p) => ({ slug: p.slug, title: p.title })),
    }),
    readShape(data, {
      name: 'term-all-3',
      description: 'title allofterms 3 terms, order asc score',
      document: query('TermAll3', '$t: String!', 'filter: { title: { allofterms: $t } }, order: { asc: score }', 'slug score'),
      peers: true,
      draw: (prng) => wordsOf(prng, anyPost(prng, data).title, 3),
      variables: (w) => ({ t: w.join(' ') }),
      expected: (w) => list(page(data, (p) => w.every((x) => hasWord(p.title, x)), byScore(false)), slugScore),
    }),
    readShape(data, {
      name: 'term-any',
      description: 'title anyofterms 2 terms, order desc score, first 10, offset 0-45',
      document: query('TermAny', '$t: String!, $o: Int', 'filter: { title: { anyofterms: $t } }, order: { desc: score }, first: 10, offset: $o', 'slug score'),
      peers: true,
      draw: (prng) => ({ w: [wordsOf(prng, anyPost(prng, data).title, 1)[0] ?? '', wordsOf(prng, anyPost(prng, data).title, 1)[0] ?? ''], o: 5 * prng.int(10) }),
      variables: (v) => ({ t: v.w.join(' '), o: v.o }),
      expected: (v) => list(page(data, (p) => v.w.some((x) => hasWord(p.title, x)), byScore(true), v.o, 10), slugScore),
    }),
    readShape(data, {
      name: 'fulltext-any',
      description: 'body anyoftext 2 words, order desc score, first 10, offset 0-45',
      document: query('TextAny', '$t: String!, $o: Int', 'filter: { body: { anyoftext: $t } }, order: { desc: score }, first: 10, offset: $o', 'slug score'),
      peers: true,
      draw: (prng) => ({ w: [wordsOf(prng, anyPost(prng, data).body, 1)[0] ?? '', wordsOf(prng, anyPost(prng, data).body, 1)[0] ?? ''], o: 5 * prng.int(10) }),
      variables: (v) => ({ t: v.w.join(' '), o: v.o }),
      expected: (v) => list(page(data, (p) => v.w.some((x) => hasWord(p.body, x)), byScore(true), v.o, 10), slugScore),
    }),
    readShape(data, {
      name: 'regexp',
      description: 'code regexp /^k + 3 digits/, unordered first 10',
      document: query('Regexp', '$re: String!', 'filter: { code: { regexp: $re } }, first: 10', 'slug code'),
      peers: false,
      // Every 3-digit prefix once (codes are uniform): 1,000 distinct bodies.
      draw: (_prng, _data, i) => `k${String(i % 1000).padStart(3, '0')}`,
      variables: (prefix) => ({ re: `/^${prefix}/` }),
      expected: (prefix) => list(page(data, (p) => p.code.startsWith(prefix), null, 0, 10), (p) => ({ slug: p.slug, code: p.code })),
    }),
    readShape(data, {
      name: 'ngram',
      description: 'summary ngram (2-word phrase), order desc score, first 10',
      document: query('Ngram', '$phrase: String!', 'filter: { summary: { ngram: $phrase } }, order: { desc: score }, first: 10', 'slug summary'),
      peers: false,
      draw: (prng) => {
        const words = postWithSummary(prng, data).summary.split(' ');
        const at = prng.int(words.length - 1);
        return `${words[at] ?? ''} ${words[at + 1] ?? ''}`;
      },
      variables: (phrase) => ({ phrase }),
      expected: (phrase) => list(page(data, (p) => hasPhrase(p.summary, phrase), byScore(true), 0, 10), (p) => ({ slug: p.slug, summary: p.summary })),
    }),
    readShape(data, {
      name: 'int-between',
      description: 'score between (300 wide), order asc score, first 10, offset 0-20',
      document: query('IntBetween', '$min: Int!, $max: Int!, $o: Int', 'filter: { score: { between: { min: $min, max: $max } } }, order: { asc: score }, first: 10, offset: $o', 'slug score'),
      peers: false,
      draw: (prng) => {
        const min = scoreIn(prng, data);
        return { min, max: min + 300, o: prng.int(21) };
      },
      variables: (v) => v,
      expected: (v) => list(page(data, (p) => p.score >= v.min && p.score <= v.max, byScore(false), v.o, 10), slugScore),
    }),
    readShape(data, {
      name: 'int-gt',
      description: 'score gt, order asc score, first 10, offset 0-90',
      document: query('IntGt', '$gt: Int!, $o: Int', 'filter: { score: { gt: $gt } }, order: { asc: score }, first: 10, offset: $o', 'slug score'),
      peers: true,
      draw: (prng) => ({ gt: scoreIn(prng, data, n - 100), o: 10 * prng.int(10) }),
      variables: (v) => v,
      expected: (v) => list(page(data, (p) => p.score > v.gt, byScore(false), v.o, 10), slugScore),
    }),
    readShape(data, {
      name: 'float-between',
      description: 'rating between (20 wide of 1,000), order desc score, first 10',
      document: query('FloatBetween', '$min: Float!, $max: Float!', 'filter: { rating: { between: { min: $min, max: $max } } }, order: { desc: score }, first: 10', 'slug rating'),
      peers: false,
      draw: (prng) => {
        const min = prng.int(980_000) / 1000;
        return { min, max: min + 20 };
      },
      variables: (v) => v,
      expected: (v) => list(page(data, (p) => p.rating >= v.min && p.rating <= v.max, byScore(true), 0, 10), (p) => ({ slug: p.slug, rating: p.rating })),
    }),
    readShape(data, {
      name: 'float-gt',
      description: 'rating gt, unordered first 10, offset 0-90',
      document: query('FloatGt', '$gt: Float!, $o: Int', 'filter: { rating: { gt: $gt } }, first: 10, offset: $o', 'slug rating'),
      peers: false,
      draw: (prng) => ({ gt: prng.int(990_000) / 1000, o: 10 * prng.int(10) }),
      variables: (v) => v,
      expected: (v) => list(page(data, (p) => p.rating > v.gt, null, v.o, 10), (p) => ({ slug: p.slug, rating: p.rating })),
    }),
    readShape(data, {
      name: 'datetime-between',
      description: 'published between (30 days), order desc score, first 10',
      document: query('DateBetween', '$min: DateTime!, $max: DateTime!', 'filter: { published: { between: { min: $min, max: $max } } }, order: { desc: score }, first: 10', 'slug published'),
      peers: false,
      draw: (prng) => {
        const min = timeAt(prng);
        return { min, max: addSeconds(min, 30 * 86_400) };
      },
      variables: (v) => v,
      expected: (v) => list(page(data, (p) => p.published >= v.min && p.published <= v.max, byScore(true), 0, 10), (p) => ({ slug: p.slug, published: p.published })),
    }),
    readShape(data, {
      name: 'datetime-gt',
      description: 'published gt, order asc score, first 10',
      document: query('DateGt', '$gt: DateTime!', 'filter: { published: { gt: $gt } }, order: { asc: score }, first: 10', 'slug published'),
      peers: false,
      draw: (prng) => timeAt(prng),
      variables: (gt) => ({ gt }),
      expected: (gt) => list(page(data, (p) => p.published > gt, byScore(false), 0, 10), (p) => ({ slug: p.slug, published: p.published })),
    }),
    readShape(data, {
      name: 'has',
      description: 'has summary, order desc score, first 10, offset 0-999',
      document: query('Has', '$o: Int', 'filter: { has: [summary] }, order: { desc: score }, first: 10, offset: $o', 'slug score'),
      peers: false,
      draw: (_prng, _data, i) => i % 1000,
      variables: (o) => ({ o }),
      expected: (o) => list(page(data, (p) => p.summary !== undefined, byScore(true), o, 10), slugScore),
    }),
    readShape(data, {
      name: 'geo-near',
      description: 'place near (150 km of a point), order desc score, first 10',
      document: query('Near', '$lat: Float!, $lon: Float!', 'filter: { place: { near: { coordinate: { latitude: $lat, longitude: $lon }, distance: 150000 } } }, order: { desc: score }, first: 10', 'slug place { latitude longitude }'),
      peers: false,
      draw: (prng) => ({ lat: 22 + prng.int(36_000) / 1000, lon: -28 + prng.int(56_000) / 1000 }),
      variables: (v) => v,
      expected: (v) => list(page(data, (p) => geoDistanceM({ latitude: v.lat, longitude: v.lon }, p.place) <= 150_000, byScore(true), 0, 10), (p) => ({ slug: p.slug, place: p.place })),
    }),
    readShape(data, {
      name: 'and-or-not',
      description: 'and: [or: [title allofterms a, title allofterms b], not: score lt], order desc score, first 10',
      document: query('Tree', '$a: String!, $b: String!, $lt: Int!', 'filter: { and: [{ or: [{ title: { allofterms: $a } }, { title: { allofterms: $b } }] }, { not: { score: { lt: $lt } } }] }, order: { desc: score }, first: 10', 'slug score'),
      peers: false,
      draw: (prng) => ({ a: wordsOf(prng, anyPost(prng, data).title, 1)[0] ?? '', b: wordsOf(prng, anyPost(prng, data).title, 1)[0] ?? '', lt: scoreIn(prng, data) }),
      variables: (v) => v,
      expected: (v) => list(page(data, (p) => (hasWord(p.title, v.a) || hasWord(p.title, v.b)) && !(p.score < v.lt), byScore(true), 0, 10), slugScore),
    }),
    readShape(data, {
      name: 'and-tree',
      description: 'and: [title allofterms, score gt], order desc score, first 10',
      document: query('And', '$t: String!, $gt: Int!', 'filter: { and: [{ title: { allofterms: $t } }, { score: { gt: $gt } }] }, order: { desc: score }, first: 10', 'slug score'),
      peers: true,
      draw: (prng) => ({ t: wordsOf(prng, anyPost(prng, data).title, 1)[0] ?? '', gt: scoreIn(prng, data, n / 2) }),
      variables: (v) => v,
      expected: (v) => list(page(data, (p) => hasWord(p.title, v.t) && p.score > v.gt, byScore(true), 0, 10), slugScore),
    }),
  ];
}
