// ACL read permissions where the query Dgraph prunes is not the field's own (edgraph.authorizeQuery
// prunes the whole DQL request the GraphQL layer sends): the upsert query of update<T>/delete<T> (a
// filter on an unreadable predicate is dropped, so more nodes change: read back), similarity roots on
// an unreadable embedding, `@auth` rule queries (their filters and implicit @cascade), `@custom(dql:)`
// queries, `@lambda` fields' own queries (over /graphql with the forwarded token), and roots without
// READ on dgraph.type. Real server over HTTP, whole answers.

import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Body } from './helpers/acl-client.js';
import { AclServer } from './helpers/acl-server.js';
import { startJsonUpstream, type JsonUpstream } from './helpers/json-upstream.js';

const authKey = 'a-jwt-verification-key-for-the-auth-rules';
const ns = 'https://example.com/claims';

const schema = `
type Item {
  id: ID!
  name: String! @search(by: [hash])
  code: String @search(by: [hash])
  rank: Int @search
  vec: [Float!] @embedding @search(by: ["hnsw(metric: euclidean, exponent: 4)"])
  docs: [Doc]
}
type Doc @auth(query: { rule: """query($USER: String!) { queryDoc(filter: {owner: {eq: $USER}}) { id } }""" }) {
  id: ID!
  title: String! @search(by: [hash])
  owner: String @search(by: [hash])
}
type Note @auth(query: { rule: """query { queryNote { reviewed } }""" }) {
  id: ID!
  text: String! @search(by: [hash])
  reviewed: Boolean
}
type Query {
  itemsByCode(code: String!): [Item] @custom(dql: """
    query q($code: string) { itemsByCode(func: eq(Item.code, $code), orderasc: Item.name) { name: Item.name code: Item.code } }""")
  itemsFiltered(name: String!): [Item] @custom(dql: """
    query q($name: string) { itemsFiltered(func: type(Item), orderasc: Item.code, orderdesc: Item.name) @filter(eq(Item.name, $name) or eq(Item.code, "x")) { name: Item.name rank: Item.rank } }""")
  itemCodes: [String] @lambda
  itemRanks: [Item] @custom(dql: """
    query { r as var(func: type(Item)) { c as Item.code } itemRanks(func: uid(r), orderasc: Item.name) @filter(not eq(val(c), "x")) { name: Item.name code: val(c) } }""")
}
# Dgraph.Authorization ${JSON.stringify({ VerificationKey: authKey, Header: 'X-Auth', Namespace: ns, Algo: 'HS256' })}
`;

const claims = (user: string): Promise<string> => new SignJWT({ [ns]: { USER: user } }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(authKey));

describe('ACL read permissions in the queries around a field', () => {
  const acl = new AclServer('service-acl-read-paths-');
  const users = [['sam', 'sampass1', 'staff'], ['vic', 'vicpass1', 'staff', 'vecread'], ['tom', 'tompass1', 'notype']] as const;
  let groot: string;
  /** staff: Item.name and Item.rank read and write, Item.code and Item.vec write only, dgraph.type read and write, Doc.title and Note.text read. */
  let sam: string;
  /** staff, and vecread: READ on Item.vec. */
  let vic: string;
  /** notype: Item.name and Item.rank read, nothing on dgraph.type. */
  let tom: string;
  let ids: Record<string, string>;
  const as = async (token: string, query: string, user = 'ann'): Promise<Body> =>
    acl.as(token, query, { 'X-Auth': await claims(user) });
  const names = (body: Body, field: string): string[] => ((body.data as Record<string, { name: string }[]>)[field] ?? []).map((item) => item.name);

  /** The lambda server: its resolver queries /graphql back with the access token Dgraph forwards in the body. */
  let lambda: JsonUpstream;
  const lambdaCalls: { resolver: unknown; token: unknown }[] = [];

  beforeAll(async () => {
    lambda = await startJsonUpstream(async (_path, body) => {
      lambdaCalls.push({ resolver: body['resolver'], token: body['X-Dgraph-AccessToken'] });
      const answer = await acl.as(String(body['X-Dgraph-AccessToken']), '{ queryItem(order: {asc: name}) { name code } }');
      const items = (answer.data as { queryItem: { name: string; code: string | null }[] }).queryItem;
      return items.map((item) => `${item.name}:${item.code ?? '-'}`);
    });
    acl.extraArgs.push('--lambda-url', `${lambda.url}/graphql-worker`);
    await acl.start();
    groot = acl.groot;
    await acl.addGroupsAndUsers(
      {
        staff: `{predicate: "Item.name", permission: 6}, {predicate: "Item.rank", permission: 6}, {predicate: "Item.code", permission: 2},
          {predicate: "Item.vec", permission: 2}, {predicate: "dgraph.type", permission: 6}, {predicate: "_STAR_ALL", permission: 2},
          {predicate: "Doc.title", permission: 4}, {predicate: "Note.text", permission: 4}`,
        vecread: '{predicate: "Item.vec", permission: 4}',
        notype: '{predicate: "Item.name", permission: 4}, {predicate: "Item.rank", permission: 4}',
      },
      users,
    );
    await acl.uploadSchema(schema);
    const added = await as(
      groot,
      `mutation {
        addItem(input: [{name: "a", code: "x", rank: 1, vec: [0, 0]}, {name: "b", code: "y", rank: 2, vec: [1, 0]}, {name: "c", code: "y", rank: 3, vec: [5, 5]}]) { item { id name } }
        addDoc(input: [{title: "t1", owner: "ann"}, {title: "t2", owner: "bob"}]) { numUids }
        addNote(input: [{text: "reviewed", reviewed: true}, {text: "unreviewed"}]) { numUids }
      }`,
    );
    const items = (added.data as { addItem: { item: { id: string; name: string }[] } }).addItem.item;
    ids = Object.fromEntries(items.map((item) => [item.name, item.id]));
    expect(added.data).toEqual({ addItem: { item: expect.any(Array) }, addDoc: { numUids: 2 }, addNote: { numUids: 2 } });
    [sam, vic, tom] = await acl.loginAll(users);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([acl.remove(), lambda.close()]);
  });

  const ranks = async (): Promise<unknown> => (await as(groot, '{ queryItem(order: {asc: name}) { name rank } }')).data;

  it('update<T>: a filter leaf on an unreadable predicate is dropped from the upsert query, so more nodes change', async () => {
    // groot: code "y" is b and c.
    expect(await as(groot, 'mutation { updateItem(input: {filter: {code: {eq: "y"}, rank: {ge: 2}}, set: {rank: 20}}) { numUids } }')).toEqual({ data: { updateItem: { numUids: 2 } } });
    expect(await ranks()).toEqual({ queryItem: [{ name: 'a', rank: 1 }, { name: 'b', rank: 20 }, { name: 'c', rank: 20 }] });
    // sam cannot read Item.code: the leaf goes, `rank >= 1` alone matches all three.
    expect(await as(sam, 'mutation { updateItem(input: {filter: {code: {eq: "y"}, rank: {ge: 1}}, set: {rank: 7}}) { numUids item(order: {asc: name}) { name rank code } } }')).toEqual({
      data: { updateItem: { numUids: 3, item: [{ name: 'a', rank: 7, code: null }, { name: 'b', rank: 7, code: null }, { name: 'c', rank: 7, code: null }] } },
    });
    expect(await ranks()).toEqual({ queryItem: [{ name: 'a', rank: 7 }, { name: 'b', rank: 7 }, { name: 'c', rank: 7 }] });
    // The filter is the upsert query's (type root, filter): a lone eq leaf stays a filter there, and goes too.
    expect(await as(sam, 'mutation { updateItem(input: {filter: {code: {eq: "x"}}, set: {rank: 3}}) { numUids } }')).toEqual({ data: { updateItem: { numUids: 3 } } });
    expect(await ranks()).toEqual({ queryItem: [{ name: 'a', rank: 3 }, { name: 'b', rank: 3 }, { name: 'c', rank: 3 }] });
    expect(await as(groot, 'mutation { updateItem(input: {filter: {name: {in: ["a", "b", "c"]}}, set: {rank: 1}}) { numUids } }')).toEqual({ data: { updateItem: { numUids: 3 } } });
  });

  it('similarity roots on an unreadable embedding find nothing (the similar_to block is removed)', async () => {
    const byVector = '{ querySimilarItemByEmbedding(by: vec, topK: 2, vector: [0, 0]) { name } }';
    const byId = (name: string): string => `{ querySimilarItemById(by: vec, topK: 2, id: "${ids[name] ?? ''}") { name } }`;
    expect(await as(groot, byVector)).toEqual({ data: { querySimilarItemByEmbedding: [{ name: 'a' }, { name: 'b' }] } });
    expect(await as(vic, byVector)).toEqual({ data: { querySimilarItemByEmbedding: [{ name: 'a' }, { name: 'b' }] } });
    expect(await as(sam, byVector)).toEqual({ data: { querySimilarItemByEmbedding: [] } });
    expect(await as(vic, byId('b'))).toEqual({ data: { querySimilarItemById: [{ name: 'b' }, { name: 'a' }] } });
    expect(await as(sam, byId('b'))).toEqual({ data: { querySimilarItemById: [] } });
    // Readable embedding, filter on an unreadable predicate: the filter leaf is dropped.
    expect(await as(vic, '{ querySimilarItemByEmbedding(by: vec, topK: 3, vector: [0, 0], filter: {code: {eq: "y"}}) { name } }')).toEqual({
      data: { querySimilarItemByEmbedding: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
    });
    expect(await as(groot, '{ querySimilarItemByEmbedding(by: vec, topK: 3, vector: [0, 0], filter: {code: {eq: "y"}}) { name } }')).toEqual({
      data: { querySimilarItemByEmbedding: [{ name: 'b' }, { name: 'c' }] },
    });
  });

  it('@auth rule queries read under the caller’s view: their filters on unreadable predicates dropped, unreadable fields out of their @cascade', async () => {
    const docs = '{ queryDoc(order: {asc: title}) { title } }';
    expect(await as(groot, docs, 'ann')).toEqual({ data: { queryDoc: [{ title: 't1' }] } });
    // sam cannot read Doc.owner: the rule's filter goes, its query lets every Doc through.
    expect(await as(sam, docs, 'ann')).toEqual({ data: { queryDoc: [{ title: 't1' }, { title: 't2' }] } });
    expect(await as(sam, docs, 'nobody')).toEqual({ data: { queryDoc: [{ title: 't1' }, { title: 't2' }] } });
    expect(await as(groot, docs, 'nobody')).toEqual({ data: { queryDoc: [] } });
    const notes = '{ queryNote(order: {asc: text}) { text } aggregateNote { count } }';
    expect(await as(groot, notes)).toEqual({ data: { queryNote: [{ text: 'reviewed' }], aggregateNote: { count: 1 } } });
    // Note.reviewed unreadable: the rule query's implicit @cascade no longer asks for it.
    expect(await as(sam, notes)).toEqual({ data: { queryNote: [{ text: 'reviewed' }, { text: 'unreviewed' }], aggregateNote: { count: 2 } } });
  });

  it('a query<T> whose filter is one eq leaf on an unreadable predicate finds nothing (it is the root function)', async () => {
    expect(await as(groot, '{ queryItem(filter: {code: {eq: "y"}}, order: {asc: name}) { name } }')).toEqual({ data: { queryItem: [{ name: 'b' }, { name: 'c' }] } });
    expect(await as(sam, '{ queryItem(filter: {code: {eq: "y"}}) { name } }')).toEqual({ data: { queryItem: [] } });
    expect(await as(sam, '{ queryItem(filter: {code: {in: ["x"]}}) { name } }')).toEqual({ data: { queryItem: [] } });
    expect(await as(sam, '{ queryItem(filter: {code: {eq: "y"}, name: {eq: "a"}}) { name } }')).toEqual({ data: { queryItem: [{ name: 'a' }] } });
    // Reading a type with @auth rules (at the root or below) the filter moves to an auth var block: the leaf is a filter, dropped.
    expect(await as(sam, '{ queryDoc(filter: {owner: {eq: "bob"}}, order: {asc: title}) { title } }')).toEqual({ data: { queryDoc: [{ title: 't1' }, { title: 't2' }] } });
    expect(await as(sam, '{ queryItem(filter: {code: {eq: "y"}}, order: {asc: name}) { name docs { title } } }')).toEqual({
      data: { queryItem: [{ name: 'a', docs: [] }, { name: 'b', docs: [] }, { name: 'c', docs: [] }] },
    });
  });

  it('without READ on dgraph.type, get<T>(id:), query<T>(filter: {id:}) and type roots find their nodes; fields as readable', async () => {
    const a = ids['a'] ?? '';
    expect(
      await as(tom, `{ getItem(id: "${a}") { name code rank } queryItem(filter: {id: ["${a}", "${ids['c'] ?? ''}"]}, order: {asc: name}) { name code } aggregateItem { count rankMax codeMin } }`),
    ).toEqual({
      data: { getItem: { name: 'a', code: null, rank: 1 }, queryItem: [{ name: 'a', code: null }, { name: 'c', code: null }], aggregateItem: { count: 3, rankMax: 1, codeMin: null } },
    });
    // A node of another type is not found by id (the type filter stays).
    expect(await as(tom, `{ getDoc(id: "${a}") { title } }`)).toEqual({ data: { getDoc: null } });
    expect(await as(tom, '{ queryItem(order: {asc: name}) { name } }')).toEqual({ data: { queryItem: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } });
  });

  it('@custom(dql:) queries are pruned like any other query: root on an unreadable predicate removed, fields, orders and filter leaves dropped', async () => {
    expect(await as(groot, '{ itemsByCode(code: "y") { name code } }')).toEqual({ data: { itemsByCode: [{ name: 'b', code: 'y' }, { name: 'c', code: 'y' }] } });
    expect(await as(sam, '{ itemsByCode(code: "y") { name code } }')).toEqual({ data: { itemsByCode: [] } });
    // orderasc Item.code dropped (orderdesc name left); `or` keeps its readable child.
    expect(await as(groot, '{ itemsFiltered(name: "c") { name rank } }')).toEqual({ data: { itemsFiltered: [{ name: 'a', rank: 1 }, { name: 'c', rank: 1 }] } });
    expect(await as(sam, '{ itemsFiltered(name: "c") { name rank } }')).toEqual({ data: { itemsFiltered: [{ name: 'c', rank: 1 }] } });
    // A value variable on an unreadable predicate is removed with it: its val() field and filter leaf go.
    expect(await as(groot, '{ itemRanks { name code } }')).toEqual({ data: { itemRanks: [{ name: 'b', code: 'y' }, { name: 'c', code: 'y' }] } });
    expect(await as(sam, '{ itemRanks { name code } }')).toEqual({ data: { itemRanks: [{ name: 'a', code: null }, { name: 'b', code: null }, { name: 'c', code: null }] } });
  });

  it("@lambda fields' own queries come back over /graphql with the forwarded access token: they read under the caller's view", async () => {
    expect(await as(groot, '{ itemCodes }')).toEqual({ data: { itemCodes: ['a:x', 'b:y', 'c:y'] } });
    expect(await as(sam, '{ itemCodes }')).toEqual({ data: { itemCodes: ['a:-', 'b:-', 'c:-'] } });
    expect(lambdaCalls).toEqual([
      { resolver: 'Query.itemCodes', token: groot },
      { resolver: 'Query.itemCodes', token: sam },
    ]);
  });

  it('delete<T>: the dropped leaf widens what is deleted; the rest stays, also after a restart', async () => {
    // groot: name c and code "x" match nothing.
    expect(await as(groot, 'mutation { deleteItem(filter: {name: {eq: "c"}, code: {eq: "x"}}) { numUids } }')).toEqual({ data: { deleteItem: { numUids: 0 } } });
    expect(await as(sam, 'mutation { deleteItem(filter: {name: {eq: "c"}, code: {eq: "x"}}) { numUids item { name code } } }')).toEqual({
      data: { deleteItem: { numUids: 1, item: [{ name: 'c', code: null }] } },
    });
    const left = { data: { queryItem: [{ name: 'a', code: 'x' }, { name: 'b', code: 'y' }] } };
    expect(await as(groot, '{ queryItem(order: {asc: name}) { name code } }')).toEqual(left);
    await acl.stop();
    await acl.start();
    const grootNow = acl.groot;
    expect(await as(grootNow, '{ queryItem(order: {asc: name}) { name code } }')).toEqual(left);
    expect(names(await as(await acl.login('sam', 'sampass1'), '{ queryItem(filter: {code: {eq: "y"}}) { name } }'), 'queryItem')).toEqual([]);
  });
});
