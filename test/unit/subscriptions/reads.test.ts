// Which commits make a live subscription evaluate again: the predicates and types its selection reads
// against the predicates and types a commit wrote. Too few is a missed update (a silent stale answer);
// too many is wasted work.

import { parse, type OperationDefinitionNode, type FragmentDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../../engine/schema/compile-schema.js';
import { readsTouched, subscriptionReads, type SubscriptionReads } from '../../../engine/subscriptions/reads.js';
import { SubscriptionHub } from '../../../engine/subscriptions/subscription-hub.js';

const sdl = `interface Dated @withSubscription { published: DateTime }
type Post implements Dated @withSubscription { id: ID! title: String @search(by: [term]) score: Int @search author: Author tags: [Tag] slug: String! @id likedBy: [Author] @dgraph(pred: "Post.likedBy") }
type Author @withSubscription { id: ID! name: String @search(by: [hash]) posts: [Post] @hasInverse(field: author) liked: [Post] @dgraph(pred: "~Post.likedBy") }
type Tag { id: ID! name: String @search(by: [hash]) }
type Stored @withSubscription @dgraph(type: "StoredType") { id: ID! label: String @dgraph(pred: "label") anyLabel: String @dgraph(pred: "label@.") }
union Thing = Tag | Note
type Box @withSubscription { id: ID! things: [Thing] }
type Note @withSubscription { id: ID! text: String }
type Secret @withSubscription @auth(query: { rule: "{$ROLE: { eq: \\"ADMIN\\" } }" }) { id: ID! text: String }
type Query { top(n: Int!): [Note] @withSubscription @custom(dql: "query q($n: int) { top(func: type(Note), first: $n) { id text: Note.text } }") }
# Dgraph.Authorization {"Header":"X","Namespace":"ns","Algo":"HS256","VerificationKey":"a-very-secret-hmac-key-of-32-bytes!!"}
`;
const compiled = compileSchema(sdl, {});
if (!compiled.ok) throw new Error(JSON.stringify(compiled));
const model = compiled.compiled.model;

function readsOf(text: string): SubscriptionReads {
  const document = parse(text);
  const operation = document.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
  const fragments = Object.fromEntries(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === 'FragmentDefinition').map((f) => [f.name.value, f]));
  return subscriptionReads(model, operation.selectionSet, fragments, (type) => type === 'Secret');
}

function reads(text: string) {
  const result = readsOf(text);
  return result === 'all' ? 'all' : { types: [...result.types].sort(), predicates: [...result.predicates].sort(), ...(result.prefixes.length > 0 ? { prefixes: result.prefixes } : {}) };
}

describe('subscriptionReads', () => {
  it('fields, edges and their targets (nested, in fragments, through <f>Aggregate), implementations of interfaces', () => {
    expect(reads('subscription { queryNote { text } }')).toEqual({ types: ['Note'], predicates: ['Note.text'] });
    expect(reads('subscription { queryPost { title author { name } } }')).toEqual({ types: ['Author', 'Post'], predicates: ['Author.name', 'Post.author', 'Post.title'] });
    expect(reads('subscription { getAuthor(id: "0x1") { ...F } } fragment F on Author { postsAggregate { count scoreMax } }')).toEqual({ types: ['Author', 'Post'], predicates: ['Author.posts', 'Post.score'] });
    expect(reads('subscription { queryPost { ... on Post { tags { name } } } }')).toEqual({ types: ['Post', 'Tag'], predicates: ['Post.tags', 'Tag.name'] });
    expect(reads('subscription { queryDated { published } }')).toEqual({ types: ['Dated', 'Post'], predicates: ['Dated.published'] });
    expect(reads('subscription { queryDated { ... on Post { title } } }')).toEqual({ types: ['Dated', 'Post'], predicates: ['Post.title'] });
    expect(reads('subscription { aggregateNote { count } }')).toEqual({ types: ['Note'], predicates: [] });
    expect(reads('subscription { aggregatePost(filter: { title: { anyofterms: "a" } }) { scoreMax titleMin } }')).toEqual({ types: ['Post'], predicates: ['Post.score', 'Post.title'] });
    // Reverse edges read their forward predicate; storage names (@dgraph) are what commits write.
    expect(reads('subscription { queryAuthor { liked { title } } }')).toEqual({ types: ['Author', 'Post'], predicates: ['Post.likedBy', 'Post.title'] });
    expect(reads('subscription { queryStored { label } }')).toEqual({ types: ['StoredType'], predicates: ['label'] });
  });

  it('filters, orders, has, get by @id and @cascade(fields:), at the root and on nested edges', () => {
    expect(reads('subscription { queryPost(filter: { title: { anyofterms: "a" }, or: [{ score: { gt: 1 } }, { not: { has: [tags] } }] }, order: { asc: score, then: { desc: title } }) { id } }')).toEqual({
      types: ['Post', 'Tag'],
      predicates: ['Post.score', 'Post.tags', 'Post.title'],
    });
    expect(reads('subscription { getPost(slug: "s") { id } }')).toEqual({ types: ['Post'], predicates: ['Post.slug'] });
    expect(reads('subscription { queryAuthor { posts(filter: { score: { ge: 3 } }, order: { desc: title }, first: 2) { id } } }')).toEqual({
      types: ['Author', 'Post'],
      predicates: ['Author.posts', 'Post.score', 'Post.title'],
    });
    expect(reads('subscription { queryAuthor @cascade(fields: ["name"]) { id } }')).toEqual({ types: ['Author'], predicates: ['Author.name'] });
  });

  it('falls back to every predicate of a type when an argument hides the fields it names', () => {
    const note = { types: ['Note'], predicates: ['Note.text'] };
    expect(reads('subscription Q($f: NoteFilter) { queryNote(filter: $f) { id } }')).toEqual(note);
    expect(reads('subscription Q($o: NoteOrder) { queryNote(order: $o) { id } }')).toEqual(note);
    expect(reads('subscription Q($f: NoteFilter) { queryNote(filter: { not: $f }) { id } }')).toEqual(note);
    // A union's member filters: every member's predicates.
    expect(reads('subscription { queryBox { things(filter: { memberTypes: [Tag] }) { ... on Tag { id } } } }')).toEqual({ types: ['Box', 'Note', 'Tag', 'Thing'].sort(), predicates: ['Box.things', 'Note.text', 'Tag.name'] });
  });

  it('anything for custom DQL roots and types under @auth query rules', () => {
    expect(reads('subscription { top(n: 2) { text } }')).toBe('all');
    expect(reads('subscription { querySecret { text } }')).toBe('all');
  });
});

const wrote = (predicates: string[], types: string[] = []) => ({ predicates: new Set(predicates), types: new Set(types) });

describe('readsTouched', () => {
  it('a commit concerns a selection when it wrote a predicate it reads or (re)typed a node of a type it reads', () => {
    const selection = readsOf('subscription { queryPost(filter: { score: { gt: 1 } }) { title author { name } } }');
    const touched = (predicates: string[], types: string[] = []) => readsTouched(selection, { predicates: new Set(predicates), types: new Set(types) });
    expect(touched(['Post.title'])).toBe(true);
    expect(touched(['Post.score'])).toBe(true); // a filter's field
    expect(touched(['Author.name'])).toBe(true); // a nested edge's field
    expect(touched(['Post.author', 'Author.posts'])).toBe(true);
    expect(touched([], ['Author'])).toBe(true); // an author created, deleted or retyped
    expect(touched(['Post.slug', 'Author.posts', 'Note.text', 'unknown.pred'])).toBe(false);
    expect(touched([], ['Note'])).toBe(false);
    // An any-language field reads every language of its predicate.
    const anyLanguage = readsOf('subscription { queryStored { anyLabel } }');
    expect(readsTouched(anyLanguage, wrote(['label@fr']))).toBe(true);
    expect(readsTouched(anyLanguage, wrote(['label']))).toBe(true);
    expect(readsTouched(anyLanguage, wrote(['labels@fr']))).toBe(false);
    expect(readsTouched('all', { predicates: new Set(), types: new Set(['Note']) })).toBe(true);
  });
});

describe('SubscriptionHub', () => {
  const on = (predicates: string[], types: string[] = []): SubscriptionReads => ({ predicates: new Set(predicates), types: new Set(types), prefixes: [] });
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('evaluates again only the groups reading a predicate or type a commit wrote; identical requests share one evaluation', async () => {
    const evaluated: string[] = [];
    let answer = 0;
    const hub = new SubscriptionHub((request) => {
      evaluated.push(request.query ?? '');
      return { kind: 'ok', body: `{"data":{"n":${answer}}}` };
    });
    const got: string[] = [];
    const request = (query: string) => ({ method: 'POST' as const, query, headers: {} });
    hub.add(request('notes'), 'anonymous', on(['Note.text'], ['Note']), (e) => got.push(`a ${e.kind === 'next' ? e.body : e.kind}`));
    hub.add(request('notes'), 'anonymous', on(['Note.text'], ['Note']), (e) => got.push(`b ${e.kind === 'next' ? e.body : e.kind}`));
    hub.add(request('posts'), 'anonymous', on(['Post.title', 'Post.author', 'Author.name'], ['Post', 'Author']), (e) => got.push(`c ${e.kind === 'next' ? e.body : e.kind}`));
    hub.add(request('any'), 'anonymous', { predicates: new Set(), types: new Set(), prefixes: ['Note.text@'] }, (e) => got.push(`d ${e.kind === 'next' ? e.body : e.kind}`));
    await turn();
    expect(evaluated).toEqual(['notes', 'notes', 'posts', 'any']); // each new member gets its first answer
    expect(hub.figures.evaluations).toBe(4);
    evaluated.length = 0;
    hub.wrote(wrote(['Author.name']));
    hub.committed();
    await turn();
    await turn();
    expect(evaluated).toEqual(['posts']);
    // Predicates and types no group reads: nothing is evaluated.
    hub.wrote(wrote(['Author.posts', 'Note.done', 'unknown'], ['Tag']));
    hub.committed();
    await turn();
    await turn();
    expect(evaluated).toEqual(['posts']);
    expect(hub.figures.evaluations).toBe(5);
    answer = 1;
    hub.wrote(wrote(['Note.text']));
    hub.committed();
    hub.wrote(wrote([], ['Author'])); // an author created or deleted: coalesced into the same round
    hub.committed();
    await turn();
    await turn();
    expect(evaluated.sort()).toEqual(['notes', 'posts', 'posts']);
    expect(got).toEqual(['a {"data":{"n":0}}', 'b {"data":{"n":0}}', 'c {"data":{"n":0}}', 'd {"data":{"n":0}}', 'a {"data":{"n":1}}', 'b {"data":{"n":1}}', 'c {"data":{"n":1}}']);
    expect(hub.figures.answers).toBe(3);
    expect(hub.figures.fanOutMs).toHaveLength(2); // one per changed group
    evaluated.length = 0;
    hub.wrote(wrote(['Note.text@hi'])); // a language of an any-language field
    hub.committed();
    await turn();
    await turn();
    expect(evaluated).toEqual(['any']);
    evaluated.length = 0;
    hub.committed(false); // a commit that did not say what it wrote: everyone
    await turn();
    await turn();
    expect(evaluated.sort()).toEqual(['any', 'notes', 'posts']);
    hub.endAll();
    expect(got.slice(-4)).toEqual(['a complete', 'b complete', 'c complete', 'd complete']);
  });

  it('changed answers go out oldest fan-out first, 64 members per pending fan-out per turn', async () => {
    let answer = 0;
    const hub = new SubscriptionHub((request) => ({ kind: 'ok', body: `{"data":{"${request.query ?? ''}":${answer}}}` }));
    const order: string[] = [];
    for (const query of ['first', 'second']) {
      for (let i = 0; i < 100; i++) hub.add({ method: 'POST', query, headers: {} }, 'same view', on([`T.${query}`]), (e) => order.push(e.kind === 'next' ? e.body : e.kind));
    }
    await turn();
    order.length = 0;
    answer = 1;
    hub.wrote(wrote(['T.first', 'T.second']));
    hub.committed();
    const sent: number[] = [];
    for (let i = 0; i < 5; i++) {
      await turn();
      sent.push(order.length);
    }
    // The round's turn: 64 of the first fan-out; then 64 for each of the two pending: the first's last 36 and 92 of the second; then its last 8.
    expect(sent).toEqual([64, 192, 200, 200, 200]);
    expect(order).toEqual([...Array(100).fill('{"data":{"first":1}}'), ...Array(100).fill('{"data":{"second":1}}')]);
    expect(hub.figures.fanOutMs).toHaveLength(2);
  });

  it('a group whose last member left is no longer evaluated', async () => {
    let evaluations = 0;
    const hub = new SubscriptionHub(() => (evaluations++, { kind: 'ok', body: '{"data":{}}' }));
    const stop = hub.add({ method: 'POST', query: 'q', headers: {} }, 'v', on(['T.a']), () => undefined);
    await turn();
    stop();
    hub.wrote(wrote(['T.a']));
    hub.committed();
    await turn();
    await turn();
    expect([evaluations, hub.figures.groups]).toEqual([1, 0]);
  });
});
