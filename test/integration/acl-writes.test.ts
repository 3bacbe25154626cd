// The ACL's WRITE check over real HTTP, where a mutation's writes are not all its own type's: new
// objects under a union field (the member the `<U>Ref` names), references by ID (the edge alone, other
// fields ignored as Dgraph's asIDReference ignores them), interface references, and remote mutations:
// a `@custom(http:)` mutation writes nothing here (Dgraph's httpResolver never reaches the store, so no
// token is needed), a `@lambda` mutation's own writes come back with the caller's X-Dgraph-AccessToken
// and are checked as any request.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphql } from './helpers/http.js';
import { AclServer } from './helpers/acl-server.js';
import { startJsonUpstream, type JsonUpstream } from './helpers/json-upstream.js';

const acl = new AclServer('service-acl-writes-');

let upstream: JsonUpstream;
let upstreamUrl: string;
/** What the lambda was sent, and the answers of its requests back. */
const lambdaCalls: { token: unknown; args: unknown }[] = [];
let groot: string;
let writer: string;

/** A lambda that adds a Dog through the service with the token it was given, and answers that answer's text. */
function handle(path: string, body: Record<string, unknown>): Promise<unknown> {
  if (path === '/shout') return Promise.resolve(String(body['text']).toUpperCase());
  const args = body['args'] as { name: string; breed?: string };
  lambdaCalls.push({ token: body['X-Dgraph-AccessToken'], args });
  const query = 'mutation($name: String!, $breed: String) { addDog(input: [{name: $name, breed: $breed}]) { numUids } }';
  return postGraphql(acl.url, { query, variables: args }, { 'X-Dgraph-AccessToken': String(body['X-Dgraph-AccessToken']) })
    .then((r) => r.json() as Promise<Record<string, unknown>>)
    .then((answer) => {
      delete answer['extensions'];
      return JSON.stringify(answer);
    });
}

const schema = (): string => `
type Author {
  id: ID!
  name: String! @search(by: [hash])
  pets: [Pet]
  best: Dog
  favourite: Animal
  tags: [Tag]
}
type Tag {
  label: String! @id
  colour: String
}
union Pet = Dog | Parrot
type Dog {
  id: ID!
  name: String! @search(by: [hash])
  breed: String
}
type Parrot {
  id: ID!
  name: String!
  words: Int
}
interface Animal {
  id: ID!
  kind: String
}
type Cat implements Animal {
  lives: Int
}
type Query {
  echo(text: String!): String @custom(http: { url: "${upstreamUrl}/shout", method: POST, body: "{ text: $text }" })
}
type Mutation {
  shout(text: String!): String @custom(http: { url: "${upstreamUrl}/shout", method: POST, body: "{ text: $text }" })
  addViaLambda(name: String!, breed: String): String @lambda
}`;

async function post(query: string, token?: string): Promise<Record<string, unknown>> {
  const answer = await postGraphql(acl.url, { query }, token === undefined ? {} : { 'X-Dgraph-AccessToken': token });
  const body = (await answer.json()) as Record<string, unknown>;
  delete body['extensions'];
  return body;
}

const refused = (field: string, blocked: string, column = 12): unknown => ({
  errors: [
    {
      message: `mutation ${field} failed because Dgraph execution failed because rpc error: code = PermissionDenied desc = unauthorized to mutate following predicates: ${blocked} \n`,
      locations: [{ line: 1, column }],
      path: [field],
    },
  ],
  data: { [field]: null },
});

let oldDog: string;
let cat: string;

beforeAll(async () => {
  upstream = await startJsonUpstream(handle);
  upstreamUrl = upstream.url;
  acl.extraArgs.push('--lambda-url', `${upstreamUrl}/lambda`);
  await acl.start();
  groot = acl.groot;
  await acl.uploadSchema(schema());
  // READ on Tag.label: Dgraph's existence query for a nested Tag (by its @id) is pruned without it, and the tag would look new.
  const rules = [...['Author.name', 'Author.pets', 'Author.best', 'Author.favourite', 'Author.tags', 'Dog.name', 'dgraph.type'].map((p) => `{predicate: "${p}", permission: 6}`), '{predicate: "Tag.label", permission: 4}'].join(', ');
  await acl.addGroupsAndUsers({ w: rules }, [['writer', 'writerpass', 'w']]);
  writer = await acl.login('writer', 'writerpass');
  const dogs = (await post('mutation { addDog(input: [{name: "Old", breed: "collie"}]) { dog { id } } addCat(input: [{kind: "cat", lives: 9}]) { cat { id } } addTag(input: [{label: "old", colour: "red"}]) { numUids } }', groot)) as {
    data: { addDog: { dog: { id: string }[] }; addCat: { cat: { id: string }[] } };
  };
  oldDog = dogs.data.addDog.dog[0]!.id;
  cat = dogs.data.addCat.cat[0]!.id;
}, 60_000);
afterAll(async () => {
  await Promise.all([acl.remove(), upstream?.close()]);
});

describe('nested writes', () => {
  it('a new object under a union field writes its member\'s predicates', async () => {
    expect(await post('mutation { addAuthor(input: [{name: "a1", pets: [{dogRef: {name: "Rex", breed: "lab"}}]}]) { numUids } }', writer)).toEqual(refused('addAuthor', 'Dog.breed'));
    expect(await post('mutation { addAuthor(input: [{name: "a1", pets: [{dogRef: {name: "Rex"}}, {parrotRef: {name: "Polly", words: 3}}]}]) { numUids } }', writer)).toEqual(
      refused('addAuthor', 'Parrot.name Parrot.words'),
    );
    expect(await post(`mutation { updateAuthor(input: {filter: {name: {eq: "a1"}}, set: {pets: [{dogRef: {name: "Rex", breed: "lab"}}]}}) { numUids } }`, writer)).toEqual(refused('updateAuthor', 'Dog.breed'));
    expect(await post('{ queryAuthor { name } queryDog(order: {asc: name}) { name } queryParrot { name } }', groot)).toEqual({ data: { queryAuthor: [], queryDog: [{ name: 'Old' }], queryParrot: [] } });
  });

  it('a reference by ID writes the edge alone (its other fields are ignored); so does an interface reference', async () => {
    const add = `mutation { addAuthor(input: [{name: "a2", pets: [{dogRef: {name: "Rex"}}, {dogRef: {id: "${oldDog}", breed: "ignored"}}], best: {id: "${oldDog}", breed: "ignored"}, favourite: {id: "${cat}"}}]) { numUids } }`;
    expect(await post(add, writer)).toEqual({ data: { addAuthor: { numUids: 2 } } });
    expect(await post('{ queryAuthor { name pets { ... on Dog { name breed } } best { name breed } favourite { kind } } }', groot)).toEqual({
      data: { queryAuthor: [{ name: 'a2', pets: [{ name: 'Old', breed: 'collie' }, { name: 'Rex', breed: null }], best: { name: 'Old', breed: 'collie' }, favourite: { kind: 'cat' } }] },
    });
  });

  it('a nested @id value of an existing node links it alone; a new one writes its predicates', async () => {
    expect(await post('mutation { addAuthor(input: [{name: "a3", tags: [{label: "new", colour: "blue"}]}]) { numUids } }', writer)).toEqual(refused('addAuthor', 'Tag.colour Tag.label'));
    expect(await post('mutation { addAuthor(input: [{name: "a3", tags: [{label: "old", colour: "ignored"}]}]) { numUids } }', writer)).toEqual({ data: { addAuthor: { numUids: 1 } } });
    expect(await post('{ queryAuthor(filter: {name: {eq: "a3"}}) { tags { label colour } } queryTag { label colour } }', groot)).toEqual({
      data: { queryAuthor: [{ tags: [{ label: 'old', colour: 'red' }] }], queryTag: [{ label: 'old', colour: 'red' }] },
    });
  });
});

describe('remote mutations', () => {
  it('@custom(http:): nothing written here, so no token is needed (Dgraph never reaches the store)', async () => {
    expect(await post('mutation { shout(text: "hi") }')).toEqual({ data: { shout: 'HI' } });
    expect(await post('mutation { shout(text: "hey") }', 'a.b.c')).toEqual({ data: { shout: 'HEY' } });
    expect(await post('mutation { shout(text: "yo") }', writer)).toEqual({ data: { shout: 'YO' } });
  });

  it('a missing token with remote and stored root fields: the remote ones answer, the stored ones fail (Dgraph checks the token at the store)', async () => {
    const noToken = 'rpc error: code = Unauthenticated desc = no accessJwt available';
    expect(await post('{ echo(text: "hi") queryDog { name } }')).toEqual({
      errors: [{ message: `Dgraph query failed because Dgraph execution failed because ${noToken}`, path: ['queryDog'] }],
      data: { echo: 'HI', queryDog: null },
    });
    // Mutations run in order: the remote field before the stored one answers, the stored one fails, the rest are not executed.
    expect(await post('mutation { a: shout(text: "one") b: addDog(input: [{name: "Bolt"}]) { numUids } c: shout(text: "two") }')).toEqual({
      errors: [
        { message: `mutation addDog failed because Dgraph execution failed because ${noToken}`, locations: [{ line: 1, column: 34 }], path: ['b'] },
        { message: 'Mutation c was not executed because of a previous error.', locations: [{ line: 1, column: 81 }], path: ['c'] },
      ],
      data: { a: 'ONE', b: null, c: null },
    });
    expect(await post('{ queryDog(filter: {name: {eq: "Bolt"}}) { name } }', groot)).toEqual({ data: { queryDog: [] } });
  });

  it('@lambda: the lambda gets the caller\'s token, and its own writes back are checked under it', async () => {
    lambdaCalls.length = 0;
    const viaLambda = async (args: string, token?: string): Promise<unknown> => {
      const answer = (await post(`mutation { addViaLambda(${args}) }`, token)) as { data: { addViaLambda: string } };
      return JSON.parse(answer.data.addViaLambda);
    };
    // The lambda's query: `mutation($name: String!, $breed: String) { addDog(…) … }`.
    const addDogAt = 44;
    expect(await viaLambda('name: "Lassie", breed: "collie"', writer)).toEqual(refused('addDog', 'Dog.breed', addDogAt));
    expect(await viaLambda('name: "Lassie"', writer)).toEqual({ data: { addDog: { numUids: 1 } } });
    expect(await viaLambda('name: "Stray"')).toEqual({
      errors: [{ message: 'mutation addDog failed because Dgraph execution failed because rpc error: code = Unauthenticated desc = no accessJwt available', locations: [{ line: 1, column: addDogAt }], path: ['addDog'] }],
      data: { addDog: null },
    });
    expect(await viaLambda('name: "Benji", breed: "mix"', groot)).toEqual({ data: { addDog: { numUids: 1 } } });
    expect(lambdaCalls.map((c) => c.token)).toEqual([writer, writer, '', groot]);
    expect(await post('{ queryDog(order: {asc: name}) { name breed } }', groot)).toEqual({
      data: { queryDog: [{ name: 'Benji', breed: 'mix' }, { name: 'Lassie', breed: null }, { name: 'Old', breed: 'collie' }, { name: 'Rex', breed: null }] },
    });
  });

  it('@lambda between stored fields under a valid token: its write back does not wait behind the request (each stored field commits on its own)', async () => {
    expect(await post('mutation { a: addTag(input: [{label: "before"}]) { numUids } lambda: addViaLambda(name: "Mixed") b: addTag(input: [{label: "after"}]) { numUids } }', groot)).toEqual({
      data: { a: { numUids: 1 }, lambda: JSON.stringify({ data: { addDog: { numUids: 1 } } }), b: { numUids: 1 } },
    });
    expect(await post('{ queryDog(filter: {name: {eq: "Mixed"}}) { name } queryTag(order: {asc: label}) { label } }', groot)).toEqual({
      data: { queryDog: [{ name: 'Mixed' }], queryTag: [{ label: 'after' }, { label: 'before' }, { label: 'old' }] },
    });
  });
});
