// Which commits make a live subscription evaluate again: the types its selection reads against the
// types a commit wrote. Too few is a missed update (a silent stale answer); too many is wasted work.

import { parse, type OperationDefinitionNode, type FragmentDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../../engine/schema/compile-schema.js';
import { subscriptionReads, touchedTypes } from '../../../engine/subscriptions/read-types.js';
import { SubscriptionHub } from '../../../engine/subscriptions/subscription-hub.js';

const sdl = `interface Dated @withSubscription { published: DateTime }
type Post implements Dated @withSubscription { id: ID! title: String author: Author tags: [Tag] }
type Author @withSubscription { id: ID! name: String posts: [Post] @hasInverse(field: author) }
type Tag { id: ID! name: String }
type Note @withSubscription { id: ID! text: String }
type Secret @withSubscription @auth(query: { rule: "{$ROLE: { eq: \\"ADMIN\\" } }" }) { id: ID! text: String }
type Query { top(n: Int!): [Note] @withSubscription @custom(dql: "query q($n: int) { top(func: type(Note), first: $n) { id text: Note.text } }") }
# Dgraph.Authorization {"Header":"X","Namespace":"ns","Algo":"HS256","VerificationKey":"a-very-secret-hmac-key-of-32-bytes!!"}
`;
const compiled = compileSchema(sdl, {});
if (!compiled.ok) throw new Error(JSON.stringify(compiled));
const model = compiled.compiled.model;

function reads(text: string) {
  const document = parse(text);
  const operation = document.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
  const fragments = Object.fromEntries(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === 'FragmentDefinition').map((f) => [f.name.value, f]));
  const result = subscriptionReads(model, operation.selectionSet, fragments, (type) => type === 'Secret');
  return result === 'all' ? 'all' : [...result].sort();
}

describe('subscriptionReads', () => {
  it('the root type, edge targets (nested, in fragments, through <f>Aggregate), implementations of interfaces', () => {
    expect(reads('subscription { queryNote { text } }')).toEqual(['Note']);
    expect(reads('subscription { queryPost { title author { name } } }')).toEqual(['Author', 'Post']);
    expect(reads('subscription { getAuthor(id: "0x1") { ...F } } fragment F on Author { postsAggregate { count } }')).toEqual(['Author', 'Post']);
    expect(reads('subscription { queryPost { ... on Post { tags { name } } } }')).toEqual(['Post', 'Tag']);
    expect(reads('subscription { queryDated { published } }')).toEqual(['Dated', 'Post']);
    expect(reads('subscription { aggregateNote { count } }')).toEqual(['Note']);
  });

  it('anything for custom DQL roots and types under @auth query rules', () => {
    expect(reads('subscription { top(n: 2) { text } }')).toBe('all');
    expect(reads('subscription { querySecret { text } }')).toBe('all');
  });
});

describe('touchedTypes', () => {
  it('owners of the written predicates (interface predicates reach implementations) and retyped nodes', () => {
    const touched = (predicates: string[], types: string[] = []) => [...touchedTypes(model, { predicates: new Set(predicates), types: new Set(types) })].sort();
    expect(touched(['Note.text'])).toEqual(['Note']);
    expect(touched(['Dated.published'])).toEqual(['Dated', 'Post']);
    expect(touched(['Post.author', 'Author.posts'])).toEqual(['Author', 'Post']);
    expect(touched([], ['Tag'])).toEqual(['Tag']);
    expect(touched(['unknown.pred'])).toEqual([...model.types.keys()].sort());
  });
});

describe('SubscriptionHub', () => {
  it('evaluates again only the groups reading a type a commit wrote; identical requests share one evaluation', async () => {
    const evaluated: string[] = [];
    let answer = 0;
    const hub = new SubscriptionHub((request) => {
      evaluated.push(request.query ?? '');
      return { kind: 'ok', body: `{"data":{"n":${answer}}}` };
    });
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const got: string[] = [];
    const request = (query: string) => ({ method: 'POST' as const, query, headers: {} });
    hub.add(request('notes'), 'anonymous', new Set(['Note']), (e) => got.push(`a ${e.kind === 'next' ? e.body : e.kind}`));
    hub.add(request('notes'), 'anonymous', new Set(['Note']), (e) => got.push(`b ${e.kind === 'next' ? e.body : e.kind}`));
    hub.add(request('posts'), 'anonymous', new Set(['Post', 'Author']), (e) => got.push(`c ${e.kind === 'next' ? e.body : e.kind}`));
    await turn();
    expect(evaluated).toEqual(['notes', 'notes', 'posts']); // each new member gets its first answer
    evaluated.length = 0;
    hub.wrote(new Set(['Author']));
    hub.committed();
    await turn();
    await turn();
    expect(evaluated).toEqual(['posts']);
    answer = 1;
    hub.wrote(new Set(['Note']));
    hub.committed();
    hub.committed(); // coalesced
    await turn();
    await turn();
    expect(evaluated).toEqual(['posts', 'notes']);
    expect(got).toEqual(['a {"data":{"n":0}}', 'b {"data":{"n":0}}', 'c {"data":{"n":0}}', 'a {"data":{"n":1}}', 'b {"data":{"n":1}}']);
    hub.committed(false); // a commit that did not say what it wrote: everyone
    await turn();
    await turn();
    expect(evaluated).toEqual(['posts', 'notes', 'notes', 'posts']);
    hub.endAll();
    expect(got.slice(-3)).toEqual(['a complete', 'b complete', 'c complete']);
  });
});
