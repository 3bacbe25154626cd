// The matrix's mutation shapes. add: one new post per request, a unique slug from a number the load
// generator counts up (uniqueNumber in the body; 1,000 variants by author). update: set the title of one post by @id (1,000
// variants). delete: delete one post by @id and add it back in the same request (two mutation fields,
// run in order), so every request deletes a node that exists however long the run is. They run after
// the reads (the suite orders them last): reads are checked against the data set as generated.

import type { Dataset, PostRecord } from '../data/dataset.js';
import type { Scenario } from '../scenarios.js';
import { anyPost, wordsOf } from './draw.js';
import { representative, variantsOf, variantsPerShape, checkedVariants } from './varied-shape.js';
import { compare } from './json-diff.js';

/** A number no generated body holds otherwise: the load generator puts its request counter there. */
export const uniqueNumber = 987_654_321;

const field = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined);
const inputOf = (data: Dataset, p: PostRecord): Record<string, unknown> => ({ ...p, author: { handle: data.authors[p.author]?.handle ?? '' } });

export function writeShapes(data: Dataset): Scenario[] {
  // The author varies with the variant: one author taking every new post would grow one inverse list.
  const addInput = (variant: number, n: number, tag: string): Record<string, unknown> => ({
    slug: `bench-${tag}-${n}`,
    title: `benchadd ${tag} ${n}`,
    body: `benchmark insert number ${n}`,
    score: -n,
    author: { handle: data.authors[(variant * 7919) % data.authors.length]?.handle ?? '' },
  });
  const update = variantsOf('update', data, (prng) => ({ slug: anyPost(prng, data).slug, title: wordsOf(prng, anyPost(prng, data).title, 6).join(' ') }));
  const remove = variantsOf('delete', data, (prng) => anyPost(prng, data));
  const updateAnswer = (n: number): unknown => ({ updatePost: { numUids: 1, post: [update(n)] } });
  const removeAnswer = { deletePost: { numUids: 1 }, addPost: { numUids: 1 } };
  return [
    {
      name: 'add',
      description: 'addPost of one new post (unique slug per request) referencing an author by @id',
      document: 'mutation Add($input: [AddPostInput!]!) { addPost(input: $input) { post { id slug title score } numUids } }',
      isMutation: true,
      peers: true,
      variants: variantsPerShape,
      numbered: (_ids, variant, number, tag) => ({ input: [addInput(variant, number, tag)] }),
      variables: (_ids, n, tag) => ({ input: [addInput(n % variantsPerShape, n + 1, tag)] }),
      check: (got, _ids, n, tag) => checkAdd(got, addInput(n % variantsPerShape, n + 1, tag)),
      sample: (ids) => ({ addPost: { post: [{ id: ids.idOf(''), slug: 'bench-service-throughput-100000', title: 'benchadd service-throughput 100000', score: -100000 }], numUids: 1 } }),
    },
    {
      name: 'update',
      description: 'updatePost(filter slug eq, set title) { numUids post { slug title } }',
      document: 'mutation Update($slug: String!, $title: String!) { updatePost(input: { filter: { slug: { eq: $slug } }, set: { title: $title } }) { numUids post { slug title } } }',
      isMutation: true,
      peers: false,
      variants: variantsPerShape,
      variables: (_ids, n) => update(n),
      check: (got, _ids, n) => compare(got, updateAnswer(n)),
      sample: () => representative(Array.from({ length: checkedVariants }, (_, i) => updateAnswer(i))),
    },
    {
      name: 'delete',
      description: 'deletePost(filter slug eq) then addPost of the same post, in one request',
      document: 'mutation Delete($slug: String!, $input: [AddPostInput!]!) { deletePost(filter: { slug: { eq: $slug } }) { numUids } addPost(input: $input) { numUids } }',
      isMutation: true,
      peers: false,
      variants: variantsPerShape,
      variables: (_ids, n) => ({ slug: remove(n).slug, input: [inputOf(data, remove(n))] }),
      check: (got) => compare(got, removeAnswer),
      sample: () => removeAnswer,
    },
  ];
}

function checkAdd(got: unknown, input: Record<string, unknown>): string | null {
  const payload = field(field(got, 'addPost'), 'post');
  if (field(field(got, 'addPost'), 'numUids') !== 1) return `numUids is not 1: ${JSON.stringify(got)}`;
  if (!Array.isArray(payload) || payload.length !== 1) return `addPost.post is not one item: ${JSON.stringify(got)}`;
  const item: unknown = payload[0];
  if (typeof field(item, 'id') !== 'string') return `addPost.post[0].id is not a string: ${JSON.stringify(got)}`;
  for (const key of ['slug', 'title', 'score']) {
    if (field(item, key) !== input[key]) return `addPost.post[0].${key} is ${JSON.stringify(field(item, key))}, expected ${JSON.stringify(input[key])}`;
  }
  return null;
}
