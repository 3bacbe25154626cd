// Plan goldens shared by query-plan.test.ts (the EXPLAIN text each plan prints) and
// query-plan-runs.test.ts (each plan run against data, its answer and executed path checked).
// `ran` is the page step the plan's adaptive rule takes over the run test's data.

import type { Estimates } from '../../../engine/plan/estimates.js';
import type { PageStrategy } from '../../../engine/plan/order-plan.js';
import type { StreamStrategy } from '../../../engine/plan/stream-plan.js';
import { compileSchema } from '../../../engine/schema/compile-schema.js';
import type { TypeModel } from '../../../engine/schema/model.js';

export const postSchema = `type Post {
  id: ID!
  title: String! @search(by: [term, hash])
  likes: Int @search
  score: Float
  published: Boolean @search
}`;

const compiled = compileSchema(postSchema, {});
if (!compiled.ok) throw new Error('schema');
export const compiledPost = compiled.compiled;
export const post = compiled.compiled.model.types.get('Post') as TypeModel;

/** Statistics of 10,000 posts: the plans below are chosen by these, whatever data they then run on. */
export const goldenEstimates: Estimates = {
  typeCount: () => 10_000,
  indexSize: (predicate, kind) =>
    (<Record<string, { entries: number; keys: number }>>{
      'Post.title/hash': { entries: 10_000, keys: 10_000 },
      'Post.title/term': { entries: 40_000, keys: 2_000 },
      'Post.likes/int': { entries: 10_000, keys: 500 },
      'Post.published/bool': { entries: 10_000, keys: 2 },
    })[`${predicate}/${kind}`],
};

export interface PlanGolden {
  readonly name: string;
  readonly args: Record<string, unknown>;
  /** EXPLAIN before running. */
  readonly explain: readonly string[];
  /** The page step the run test expects to run (`checked-walk`: the order index walked, the filter checked per node; stream strategies: a streamed page). */
  readonly ran: PageStrategy | StreamStrategy | 'checked-walk';
  /** Nodes the run tests per candidate instead of collecting their ids (`op`, or `fn field`). */
  readonly checked?: readonly string[];
  /** For a streamed page: the nodes the walk checks before the page is complete. */
  readonly streamChecked?: number;
}

const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
const letters = 'abcdefghijklmnopqrstuvwxyz';

/** The run test's post `i`: one of 20 words, then a word of its own (so titles are unique). */
export function postTitle(i: number): string {
  let own = '';
  for (let n = i; own === '' || n > 0; n = Math.floor(n / 26)) own = (letters[n % 26] as string) + own;
  return `${i % 20 < 10 ? words[i % 20] : `${words[i % 10]}x`} u${own}`;
}

/** A title present in the run test's data, and a term 1 in 20 posts has. */
export const someTitle = postTitle(7);
export const rareTerm = 'golfx';

export const planGoldens: readonly PlanGolden[] = [
  {
    name: 'intersects from the most selective index',
    args: { filter: { published: true, title: { eq: someTitle }, likes: { gt: 5 } } },
    explain: ['queryPost: Post', '  intersect [1]', '    eq title via hash [1]', '    gt likes via int [3334]', '    eq published via bool [5000]'],
    ran: 'none',
    // The range, far larger than the one title, is checked on it, not collected.
    checked: ['gt likes'],
  },
  {
    name: 'walks the ordered index for a small page of many candidates',
    args: { order: { desc: 'likes' }, first: 10 },
    explain: ['queryPost: Post', '  scan type Post [10000]', '  order desc likes by walk int index', '  page offset 0 first 10'],
    ran: 'index-walk',
  },
  {
    // ~20 term matches: a walk would visit ~10 × 10000 / 20 index entries; sorting 20 is cheaper.
    name: 'sorts a selective filter whose candidates are sparse in the value order',
    args: { filter: { title: { allofterms: rareTerm } }, order: { desc: 'likes' }, first: 10 },
    explain: ['queryPost: Post', '  allofterms title via term [20]', '  order desc likes by sort', '  page offset 0 first 10'],
    ran: 'sort',
  },
  {
    name: 'walks the ordered index under a filter keeping half the type',
    args: { filter: { published: true }, order: { desc: 'likes' }, first: 10 },
    explain: ['queryPost: Post', '  eq published via bool [5000]', '  order desc likes by walk int index', '  page offset 0 first 10'],
    ran: 'index-walk',
  },
  {
    // A range on the order key with no offset: walked from its bound like any range on the order key.
    name: 'walks the order index from a range bound, collecting no candidates',
    args: { filter: { likes: { gt: 45 } }, order: { desc: 'likes' }, first: 10 },
    explain: ['queryPost: Post', '  gt likes via int [3334]', '  order desc likes by walk int index from the range bound, checking each node', '  page offset 0 first 10'],
    ran: 'range-walk',
    streamChecked: 10,
  },
  {
    // A range on the order key: its index is walked from the range's bound, so no match is collected.
    name: 'walks a range on the order key from its bound',
    args: { filter: { likes: { lt: 45 } }, order: { desc: 'likes' }, first: 10, offset: 2 },
    explain: ['queryPost: Post', '  lt likes via int [3334]', '  order desc likes by walk int index from the range bound, checking each node', '  page offset 2 first 10'],
    ran: 'range-walk',
    streamChecked: 12,
  },
  {
    // Other conditions are checked on each node of the range walk (has score: 6 of 7 posts).
    name: 'checks the other conditions on each node of a range walk',
    args: { filter: { likes: { between: { min: 10, max: 12 } }, has: ['score'] }, order: { asc: 'likes' }, first: 4 },
    explain: [
      'queryPost: Post',
      '  intersect [3334]',
      '    between likes via int [3334]',
      '    has score [10000]',
      '  order asc likes by walk int index from the range bound, checking each node',
      '  page offset 0 first 4',
    ],
    ran: 'range-walk',
    streamChecked: 5,
  },
  {
    // A page in uid order of a range keeping a large share: the type's nodes are checked in uid order.
    name: 'scans the type in uid order checking a wide range',
    args: { filter: { likes: { lt: 25 } }, first: 5, offset: 3 },
    explain: ['queryPost: Post', '  lt likes via int [3334]', '  uid order by scan of the type, checking each node', '  page offset 3 first 5'],
    ran: 'scan-check',
    streamChecked: 9,
  },
  {
    // Ordered by an indexed key other than the filter's: walk its index and check the filter per node.
    name: 'walks the order key index checking a filter that keeps most posts',
    args: { filter: { has: ['score'] }, order: { desc: 'likes' }, first: 10 },
    explain: ['queryPost: Post', '  has score [10000]', '  order desc likes by walk int index, checking each node', '  page offset 0 first 10'],
    ran: 'walk-check',
    streamChecked: 13,
  },
  {
    name: 'uses top-k for an unindexed order key',
    args: { order: { asc: 'score' }, first: 5, offset: 5 },
    explain: ['queryPost: Post', '  scan type Post [10000]', '  order asc score by top-k', '  page offset 5 first 5'],
    ran: 'top-k',
  },
  {
    name: 'sorts every candidate without a page',
    args: { order: { asc: 'likes' } },
    explain: ['queryPost: Post', '  scan type Post [10000]', '  order asc likes by sort'],
    ran: 'sort',
  },
  {
    name: 'sorts a page as large as the candidates',
    args: { filter: { title: { eq: someTitle } }, order: { asc: 'likes' }, first: 1 },
    explain: ['queryPost: Post', '  eq title via hash [1]', '  order asc likes by sort', '  page offset 0 first 1'],
    ran: 'sort',
  },
  {
    name: "plans or / not / has / ids and eq: null: the object's conditions intersected, its `or` united with them (Dgraph)",
    args: { filter: { or: [{ title: { anyofterms: 'alpha bravo' } }, { id: ['0x1', '0x2'] }], not: { has: ['score'] }, likes: { eq: null } } },
    explain: [
      'queryPost: Post',
      '  union [22]',
      '    intersect [0]',
      '      not [0]',
      '        has score [10000]',
      '      not [10000]',
      '        has likes [10000]',
      '    anyofterms title via term [20]',
      '    ids 2 [2]',
    ],
    ran: 'none',
    // `not has likes` (most posts) is checked on the few without a score, not collected.
    checked: ['not', 'has'],
  },
  {
    name: 'plans `or` inside `and` inside `not`',
    args: { filter: { not: { and: { published: true, or: { likes: { gt: 5 } } } } } },
    explain: ['queryPost: Post', '  not [1666]', '    union [8334]', '      eq published via bool [5000]', '      gt likes via int [3334]'],
    ran: 'none',
  },
  {
    name: 'leaves out empty objects',
    args: { filter: { title: { eq: someTitle }, or: {}, and: [{}], not: {} } },
    explain: ['queryPost: Post', '  eq title via hash [1]'],
    ran: 'none',
  },
  {
    name: 'scans the type when no object places a condition',
    args: { filter: { or: [{}], and: [] } },
    explain: ['queryPost: Post', '  scan type Post [10000]'],
    ran: 'none',
  },
];
