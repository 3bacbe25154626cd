// The matrix's graph shapes: get by id and by @id, the term and fulltext lists the suite always had,
// nested edges with their own filter/order/page over the inverse edge Author.posts (@hasInverse), an
// interface query, @cascade, aggregates and counts (root and nested), and similarity search.

import type { Dataset, PostRecord } from '../data/dataset.js';
import type { Scenario } from '../scenarios.js';
import { anyPost, scoreIn, timeAt, addSeconds, wordsOf } from './draw.js';
import { authorName, byScore, euclidean, hasWord, mean, page, postsOf } from './naive-scan.js';
import { idPool, readShape } from './varied-shape.js';

const item = (data: Dataset, p: PostRecord, id: string): Record<string, unknown> => ({ id, slug: p.slug, title: p.title, score: p.score, author: { name: authorName(data, p) } });
const itemFields = 'id slug title score author { name }';

export function graphShapes(data: Dataset): Scenario[] {
  const pool = idPool(data);
  const bySlug = new Map(data.posts.map((p) => [p.slug, p]));
  const postOf = (slug: string): PostRecord => {
    const found = bySlug.get(slug);
    if (found === undefined) throw new Error(`no post ${slug}`);
    return found;
  };
  const anyAuthor = (prng: { int(n: number): number }): number => prng.int(data.authors.length);
  const handle = (a: number): string => data.authors[a]?.handle ?? '';
  return [
    readShape(data, {
      name: 'get-by-id',
      description: 'getPost(id) with a nested author',
      document: `query GetById($id: ID!) { getPost(id: $id) { ${itemFields} } }`,
      peers: true,
      // Each pool post once (a pick with replacement would repeat a third of them).
      draw: (_prng, _data, i) => pool[i % pool.length] ?? '',
      variables: (slug, ids) => ({ id: ids.idOf(slug) }),
      expected: (slug, _data, ids) => ({ getPost: item(data, postOf(slug), ids.idOf(slug)) }),
    }),
    readShape(data, {
      name: 'get-by-xid',
      description: 'getPost(slug) by the @id field, nested author',
      document: `query GetBySlug($slug: String!) { getPost(slug: $slug) { ${itemFields} } }`,
      peers: true,
      // Each pool post once (a pick with replacement would repeat a third of them).
      draw: (_prng, _data, i) => pool[i % pool.length] ?? '',
      variables: (slug) => ({ slug }),
      expected: (slug, _data, ids) => ({ getPost: item(data, postOf(slug), ids.idOf(slug)) }),
    }),
    readShape(data, {
      name: 'filtered-list',
      description: 'title allofterms 1 term (~4% of posts), order desc score, first 10, nested author',
      document: 'query Filtered($terms: String!) { queryPost(filter: { title: { allofterms: $terms } }, order: { desc: score }, first: 10) { slug title score author { name } } }',
      peers: true,
      draw: (prng) => wordsOf(prng, anyPost(prng, data).title, 1)[0] ?? '',
      variables: (terms) => ({ terms }),
      expected: (t) => ({ queryPost: page(data, (p) => hasWord(p.title, t), byScore(true), 0, 10).map((p) => ({ slug: p.slug, title: p.title, score: p.score, author: { name: authorName(data, p) } })) }),
    }),
    readShape(data, {
      name: 'fulltext',
      description: 'body alloftext 2 words, order desc score, first 10',
      document: 'query Fulltext($text: String!) { queryPost(filter: { body: { alloftext: $text } }, order: { desc: score }, first: 10) { slug title score } }',
      peers: true,
      draw: (prng) => wordsOf(prng, anyPost(prng, data).body, 2),
      variables: (w) => ({ text: w.join(' ') }),
      expected: (w) => ({ queryPost: page(data, (p) => w.every((x) => hasWord(p.body, x)), byScore(true), 0, 10).map((p) => ({ slug: p.slug, title: p.title, score: p.score })) }),
    }),
    readShape(data, {
      name: 'nested-edge',
      description: 'getAuthor(handle) { posts(filter score gt, order desc score, first 3) } over the inverse edge',
      document: 'query Nested($h: String!, $gt: Int!) { getAuthor(handle: $h) { name posts(filter: { score: { gt: $gt } }, order: { desc: score }, first: 3) { slug score } } }',
      peers: false,
      draw: (prng) => ({ a: anyAuthor(prng), gt: scoreIn(prng, data, data.posts.length / 2) }),
      variables: (v) => ({ h: handle(v.a), gt: v.gt }),
      expected: (v) => ({
        getAuthor: {
          name: data.authors[v.a]?.name,
          posts: postsOf(data, v.a).filter((p) => p.score > v.gt).sort((x, y) => y.score - x.score).slice(0, 3).map((p) => ({ slug: p.slug, score: p.score })),
        },
      }),
    }),
    readShape(data, {
      name: 'inverse-list',
      description: 'queryAuthor(order asc handle, first 5, offset) { posts(order asc score, first 2) }',
      document: 'query Authors($o: Int) { queryAuthor(order: { asc: handle }, first: 5, offset: $o) { handle posts(order: { asc: score }, first: 2) { slug score } } }',
      peers: false,
      draw: (_prng, _data, i) => i % Math.max(1, data.authors.length - 5),
      variables: (o) => ({ o }),
      expected: (o) => {
        const sorted = data.authors.map((a, i) => ({ a, i })).sort((x, y) => (x.a.handle < y.a.handle ? -1 : x.a.handle > y.a.handle ? 1 : 0));
        return {
          queryAuthor: sorted.slice(o, o + 5).map(({ a, i }) => ({
            handle: a.handle,
            posts: postsOf(data, i).sort((x, y) => x.score - y.score).slice(0, 2).map((p) => ({ slug: p.slug, score: p.score })),
          })),
        };
      },
    }),
    readShape(data, {
      name: 'interface',
      description: 'queryDated (interface Post implements) published between 60 days, order desc published, first 10',
      document: 'query Dated($min: DateTime!, $max: DateTime!) { queryDated(filter: { published: { between: { min: $min, max: $max } } }, order: { desc: published }, first: 10) { published ... on Post { slug } } }',
      peers: false,
      draw: (prng) => {
        const min = timeAt(prng);
        return { min, max: addSeconds(min, 60 * 86_400) };
      },
      variables: (v) => v,
      expected: (v) => ({
        queryDated: page(data, (p) => p.published >= v.min && p.published <= v.max, { key: (p) => p.published, desc: true }, 0, 10).map((p) => ({ published: p.published, slug: p.slug })),
      }),
    }),
    readShape(data, {
      name: 'cascade',
      description: 'title allofterms 2 terms @cascade { slug summary } (drops posts with no summary)',
      document: 'query Cascade($t: String!) { queryPost(filter: { title: { allofterms: $t } }) @cascade { slug summary } }',
      peers: false,
      draw: (prng) => wordsOf(prng, anyPost(prng, data).title, 2),
      variables: (w) => ({ t: w.join(' ') }),
      expected: (w) => ({ queryPost: page(data, (p) => p.summary !== undefined && w.every((x) => hasWord(p.title, x)), null).map((p) => ({ slug: p.slug, summary: p.summary })) }),
    }),
    readShape(data, {
      name: 'aggregate',
      description: 'aggregatePost(filter score between 1,000 wide) { count scoreMax ratingAvg }',
      document: 'query Agg($min: Int!, $max: Int!) { aggregatePost(filter: { score: { between: { min: $min, max: $max } } }) { count scoreMax ratingAvg } }',
      peers: false,
      draw: (prng) => {
        const min = scoreIn(prng, data);
        return { min, max: min + 1000 };
      },
      variables: (v) => v,
      expected: (v) => {
        const found = data.posts.filter((p) => p.score >= v.min && p.score <= v.max);
        return { aggregatePost: { count: found.length, scoreMax: Math.max(...found.map((p) => p.score)), ratingAvg: mean(found.map((p) => p.rating)) } };
      },
    }),
    readShape(data, {
      name: 'count',
      description: 'aggregatePost(filter title allofterms 1 term) { count }',
      document: 'query Count($t: String!) { aggregatePost(filter: { title: { allofterms: $t } }) { count } }',
      peers: false,
      draw: (prng) => wordsOf(prng, anyPost(prng, data).title, 1)[0] ?? '',
      variables: (t) => ({ t }),
      expected: (t) => ({ aggregatePost: { count: data.posts.filter((p) => hasWord(p.title, t)).length } }),
    }),
    readShape(data, {
      name: 'nested-aggregate',
      description: 'getAuthor(handle) { postsAggregate(filter rating gt) { count scoreMax } }',
      document: 'query NestedAgg($h: String!, $gt: Float!) { getAuthor(handle: $h) { name postsAggregate(filter: { rating: { gt: $gt } }) { count scoreMax } } }',
      peers: false,
      draw: (prng) => ({ a: anyAuthor(prng), gt: prng.int(500_000) / 1000 }),
      variables: (v) => ({ h: handle(v.a), gt: v.gt }),
      expected: (v) => {
        const found = postsOf(data, v.a).filter((p) => p.rating > v.gt);
        return { getAuthor: { name: data.authors[v.a]?.name, postsAggregate: { count: found.length, scoreMax: found.length === 0 ? null : Math.max(...found.map((p) => p.score)) } } };
      },
    }),
    readShape(data, {
      name: 'similar',
      description: 'querySimilarPostByEmbedding(by embedding, topK 5, a 4-dim vector) { slug vector_distance }',
      document: 'query Similar($v: [Float!]!) { querySimilarPostByEmbedding(by: embedding, topK: 5, vector: $v) { slug vector_distance } }',
      peers: false,
      draw: (prng) => [0, 1, 2, 3].map(() => (prng.int(2048) - 1024) / 1024),
      variables: (v) => ({ v }),
      expected: (v) => ({
        querySimilarPostByEmbedding: data.posts
          .map((p) => ({ p, d: euclidean(v, p.embedding) }))
          .sort((x, y) => x.d - y.d)
          .slice(0, 5)
          .map(({ p, d }) => ({ slug: p.slug, vector_distance: d })),
      }),
    }),
  ];
}
