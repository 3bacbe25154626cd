// Plan goldens: index choice, intersection order and order strategy from index statistics.

import { describe, expect, it } from 'vitest';
import { explainQuery } from '../../../engine/plan/explain.js';
import type { Estimates } from '../../../engine/plan/estimates.js';
import { prefersIndexWalk } from '../../../engine/plan/order-plan.js';
import { planQuery } from '../../../engine/plan/query-plan.js';
import { compileSchema } from '../../../engine/schema/compile-schema.js';
import type { TypeModel } from '../../../engine/schema/model.js';

const compiled = compileSchema(
  `type Post {
    id: ID!
    title: String! @search(by: [term, hash])
    likes: Int @search
    score: Float
    published: Boolean @search
  }`,
  {},
);
if (!compiled.ok) throw new Error('schema');
const post = compiled.compiled.model.types.get('Post') as TypeModel;

const estimates: Estimates = {
  typeCount: () => 10_000,
  indexSize: (predicate, kind) =>
    (<Record<string, { entries: number; keys: number }>>{
      'Post.title/hash': { entries: 10_000, keys: 10_000 },
      'Post.title/term': { entries: 40_000, keys: 2_000 },
      'Post.likes/int': { entries: 10_000, keys: 500 },
      'Post.published/bool': { entries: 10_000, keys: 2 },
    })[`${predicate}/${kind}`],
};

const explain = (args: Record<string, unknown>) => explainQuery(planQuery('queryPost', post, args, estimates), args);

describe('query plans', () => {
  it('intersects from the most selective index', () => {
    expect(explain({ filter: { published: true, title: { eq: 'x' }, likes: { gt: 5 } } })).toBe(
      ['queryPost: Post', '  intersect [1]', '    eq title via hash [1]', '    gt likes via int [3334]', '    eq published via bool [5000]'].join('\n'),
    );
  });

  it('walks the ordered index for a small page of many candidates', () => {
    expect(explain({ order: { desc: 'likes' }, first: 10 })).toBe(
      ['queryPost: Post', '  scan type Post [10000]', '  order desc likes by walk int index', '  page offset 0 first 10'].join('\n'),
    );
  });

  it('keeps top-k when a selective filter leaves candidates sparse in the value order', () => {
    // ~20 term matches: a walk would visit ~10 × 10000 / 20 index entries; sorting 20 is cheaper.
    expect(explain({ filter: { title: { allofterms: 'rare' } }, order: { desc: 'likes' }, first: 10 })).toContain('order desc likes by sort');
    expect(prefersIndexWalk(10, 400, 10_000)).toBe(false);
    expect(prefersIndexWalk(10, 5_000, 10_000)).toBe(true);
    expect(explain({ filter: { published: true }, order: { desc: 'likes' }, first: 10 })).toContain('order desc likes by walk int index');
  });

  it('uses top-k for an unindexed order key, and a full sort without a page', () => {
    expect(explain({ order: { asc: 'score' }, first: 5, offset: 5 })).toContain('order asc score by top-k');
    expect(explain({ order: { asc: 'likes' } })).toContain('order asc likes by sort');
    expect(explain({ filter: { title: { eq: 'x' } }, order: { asc: 'likes' }, first: 1 })).toContain('by sort');
  });

  it('plans or / not / has / ids and eq: null: the object\'s conditions intersected, its `or` united with them (Dgraph)', () => {
    expect(explain({ filter: { or: [{ title: { anyofterms: 'a b' } }, { id: ['0x1', '0x2'] }], not: { has: ['score'] }, likes: { eq: null } } })).toBe(
      [
        'queryPost: Post',
        '  union [22]',
        '    intersect [0]',
        '      not [0]',
        '        has score [10000]',
        '      not [10000]',
        '        has likes [10000]',
        '    anyofterms title via term [20]',
        '    ids 2 [2]',
      ].join('\n'),
    );
  });

  it('plans `or` inside `and` inside `not`, a single `or` object, and leaves out empty objects', () => {
    expect(explain({ filter: { not: { and: { published: true, or: { likes: { gt: 5 } } } } } })).toBe(
      ['queryPost: Post', '  not [1666]', '    union [8334]', '      eq published via bool [5000]', '      gt likes via int [3334]'].join('\n'),
    );
    expect(explain({ filter: { title: { eq: 'x' }, or: {}, and: [{}], not: {} } })).toBe(['queryPost: Post', '  eq title via hash [1]'].join('\n'));
    expect(explain({ filter: { or: [{}], and: [] } })).toBe(['queryPost: Post', '  scan type Post [10000]'].join('\n'));
  });
});
