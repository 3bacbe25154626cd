// `@auth` query rules over real HTTP: Dgraph's auth e2e schema (dgraph-testdata/e2e/auth/schema.graphql)
// with an HS256 Authorization line, data added through the generated mutations (under the same types
// without rules, whose `add` checks would refuse some of it; the ruled schema is deployed after), then
// queries under several tokens. Expected answers are what Dgraph's rules select
// (dgraph-testdata/resolve/auth_query_test.yaml); the cases ported and not ported are listed in
// test/integration/auth-rules-cases.md.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askAs, e2eAuthSchema, e2eSchemaWithoutRules } from './helpers/auth-e2e.js';
import { postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { startWithSchema, type ServerProcess } from './helpers/server-process.js';

let server: ServerProcess;

function ask(query: string, claims?: Record<string, unknown>): Promise<unknown> {
  return askAs(server.url, query, claims);
}

async function mutate(query: string): Promise<void> {
  const answer = (await (await postGraphql(server.url, { query })).json()) as { errors?: unknown };
  expect(answer.errors).toBeUndefined();
}

beforeAll(async () => {
  server = await startWithSchema(e2eSchemaWithoutRules);
  await mutate(`mutation {
    addUser(input: [{username: "user1", isPublic: true, password: "password"}, {username: "user2", isPublic: true, password: "password"}, {username: "user3", isPublic: false, password: "password"}]) { numUids }
    addLog(input: [{logs: "Log1", random: "a", pwd: "password"}, {logs: "Log2", random: "b", pwd: "password"}]) { numUids }
    addComplexLog(input: [{logs: "CL1", visible: true}]) { numUids }
    addUserSecret(input: [{aSecret: "Secret1", ownedBy: "user1"}, {aSecret: "Secret2", ownedBy: "user2"}]) { numUids }
    addIssue(input: [{msg: "Issue1", owner: {username: "user1"}}, {msg: "Issue2", owner: {username: "user2"}}]) { numUids }
    addRegion(input: [
      {name: "Region1", users: [{username: "user1"}]},
      {name: "Region2", users: [{username: "user2"}]},
      {name: "Region5", global: true}
    ]) { numUids }
    addAuthor(input: [{name: "user1"}, {name: "user2"}]) { numUids }
    addContact(input: [{nickName: "Contact1", adminTasks: [{name: "Task1", occurrences: [{role: "ADMINISTRATOR"}, {role: "USER"}]}]}]) { numUids }
  }`);
  const regions = (await (await postGraphql(server.url, { query: '{ queryRegion(order: {asc: name}) { id name } }' })).json()) as {
    data: { queryRegion: { id: string; name: string }[] };
  };
  const [r1, r2, r5] = regions.data.queryRegion.map((r) => r.id);
  const authors = (await (await postGraphql(server.url, { query: '{ queryAuthor(order: {asc: name}) { id } }' })).json()) as { data: { queryAuthor: { id: string }[] } };
  const [a1, a2] = authors.data.queryAuthor.map((a) => a.id);
  await mutate(`mutation {
    addMovie(input: [
      {content: "Movie1", regionsAvailable: [{id: "${r1}"}]},
      {content: "Movie2", regionsAvailable: [{id: "${r2}"}]},
      {content: "Movie3", regionsAvailable: [{id: "${r5}"}]},
      {content: "Movie4", hidden: true, regionsAvailable: [{id: "${r5}"}]}
    ]) { numUids }
    addQuestion(input: [
      {text: "Q1", answered: true, pwd: "password", author: {id: "${a1}"}},
      {text: "Q2", answered: false, pwd: "password", author: {id: "${a1}"}},
      {text: "Q3", answered: true, pwd: "password", author: {id: "${a2}"}}
    ]) { numUids }
    addAnswer(input: [{text: "A1", pwd: "password", author: {id: "${a1}"}}, {text: "A2", pwd: "password", author: {id: "${a2}"}}]) { numUids }
  }`);
  expect(await uploadSchema(server.url, e2eAuthSchema)).toEqual(uploadSucceeded);
}, 60_000);
afterAll(async () => {
  await server.stop();
});

describe('RBAC rules', () => {
  it('Log: ADMIN reads every node, USER and no token none', async () => {
    const q = '{ queryLog(order: {asc: logs}) { logs } }';
    expect(await ask(q, { ROLE: 'ADMIN' })).toEqual({ data: { queryLog: [{ logs: 'Log1' }, { logs: 'Log2' }] } });
    expect(await ask(q, { ROLE: 'USER' })).toEqual({ data: { queryLog: [] } });
    expect(await ask(q)).toEqual({ data: { queryLog: [] } });
  });

  it('a claim array matches when one element does; `in` and a missing claim', async () => {
    const q = '{ queryLog(order: {asc: logs}, first: 1) { logs } }';
    expect(await ask(q, { ROLE: ['USER', 'ADMIN'] })).toEqual({ data: { queryLog: [{ logs: 'Log1' }] } });
    expect(await ask(q, { USER: 'user1' })).toEqual({ data: { queryLog: [] } });
  });

  it('ComplexLog: ADMIN and not USER', async () => {
    const q = '{ queryComplexLog { logs } }';
    expect(await ask(q, { ROLE: 'ADMIN' })).toEqual({ data: { queryComplexLog: [{ logs: 'CL1' }] } });
    expect(await ask(q, { ROLE: 'USER' })).toEqual({ data: { queryComplexLog: [] } });
  });

  it('get<T> of a node the rule refuses is null', async () => {
    const ids = (await ask('{ queryLog(order: {asc: logs}) { id } }', { ROLE: 'ADMIN' })) as { data: { queryLog: { id: string }[] } };
    const id = ids.data.queryLog[0]?.id ?? '';
    expect(await ask(`{ getLog(id: "${id}") { logs } }`, { ROLE: 'ADMIN' })).toEqual({ data: { getLog: { logs: 'Log1' } } });
    expect(await ask(`{ getLog(id: "${id}") { logs } }`, { ROLE: 'USER' })).toEqual({ data: { getLog: null } });
  });

  it('aggregates: a false RBAC rule gives null; nested aggregates {count: null}', async () => {
    expect(await ask('{ aggregateLog { count logsMin } }', { ROLE: 'ADMIN' })).toEqual({ data: { aggregateLog: { count: 2, logsMin: 'Log1' } } });
    expect(await ask('{ aggregateLog { count logsMin } }', { ROLE: 'USER' })).toEqual({ data: { aggregateLog: null } });
    expect(await ask('{ aggregateLog { count } }')).toEqual({ data: { aggregateLog: null } });
  });
});

describe('graph-traversal rules', () => {
  it('UserSecret: the secrets owned by $USER', async () => {
    const q = '{ queryUserSecret { aSecret ownedBy } }';
    expect(await ask(q, { USER: 'user1' })).toEqual({ data: { queryUserSecret: [{ aSecret: 'Secret1', ownedBy: 'user1' }] } });
    expect(await ask(q, { USER: 'user2' })).toEqual({ data: { queryUserSecret: [{ aSecret: 'Secret2', ownedBy: 'user2' }] } });
    expect(await ask(q, { USER: 'nobody' })).toEqual({ data: { queryUserSecret: [] } });
    // A rule whose claim is missing is false.
    expect(await ask(q)).toEqual({ data: { queryUserSecret: [] } });
    expect(await ask('{ aggregateUserSecret { count } }', { USER: 'user1' })).toEqual({ data: { aggregateUserSecret: { count: 1 } } });
    expect(await ask('{ aggregateUserSecret { count } }', { USER: 'nobody' })).toEqual({ data: { aggregateUserSecret: { count: 0 } } });
  });

  it('the query filter and paging apply over the allowed nodes', async () => {
    const q = '{ queryUserSecret(filter: {aSecret: {anyofterms: "Secret1 Secret2"}}, first: 1) { aSecret } }';
    expect(await ask(q, { USER: 'user2' })).toEqual({ data: { queryUserSecret: [{ aSecret: 'Secret2' }] } });
  });

  it('Issue: ADMIN and owner is $USER (nested rule query)', async () => {
    const q = '{ queryIssue { msg owner { username } } }';
    expect(await ask(q, { ROLE: 'ADMIN', USER: 'user1' })).toEqual({ data: { queryIssue: [{ msg: 'Issue1', owner: { username: 'user1' } }] } });
    expect(await ask(q, { ROLE: 'USER', USER: 'user1' })).toEqual({ data: { queryIssue: [] } });
  });

  it('Movie: not hidden, and in a region of $USER or a global region', async () => {
    const q = '{ queryMovie(order: {asc: content}) { content } }';
    expect(await ask(q, { USER: 'user1' })).toEqual({ data: { queryMovie: [{ content: 'Movie1' }, { content: 'Movie3' }] } });
    expect(await ask(q, { USER: 'user2' })).toEqual({ data: { queryMovie: [{ content: 'Movie2' }, { content: 'Movie3' }] } });
  });
});

describe('deep RBAC rules (auth_query_test.yaml "Deep RBAC rule - …")', () => {
  const q = '{ queryContact { nickName adminTasks { name occurrences(order: {asc: role}) { role } } } }';
  it('all levels true', async () => {
    const claims = { ContactRole: 'ADMINISTRATOR', TaskRole: 'ADMINISTRATOR', TaskOccuranceRole: 'ADMINISTRATOR' };
    // TaskOccurrence: the RBAC part holds, and only occurrences whose role is the claim's.
    expect(await ask(q, claims)).toEqual({ data: { queryContact: [{ nickName: 'Contact1', adminTasks: [{ name: 'Task1', occurrences: [{ role: 'ADMINISTRATOR' }] }] }] } });
    expect(await ask(q, { ...claims, ROLE: 'ADMIN' })).toEqual({
      data: { queryContact: [{ nickName: 'Contact1', adminTasks: [{ name: 'Task1', occurrences: [{ role: 'ADMINISTRATOR' }, { role: 'USER' }] }] }] },
    });
  });
  it('level 0 false: no root nodes; level 1 false: the edge is empty', async () => {
    expect(await ask(q, { ContactRole: 'User', TaskRole: 'ADMINISTRATOR', TaskOccuranceRole: 'ADMINISTRATOR' })).toEqual({ data: { queryContact: [] } });
    expect(await ask(q, { ContactRole: 'ADMINISTRATOR', TaskRole: 'User', TaskOccuranceRole: 'ADMINISTRATOR' })).toEqual({ data: { queryContact: [{ nickName: 'Contact1', adminTasks: [] }] } });
    expect(await ask('{ queryContact @cascade { nickName adminTasks { name } } }', { ContactRole: 'ADMINISTRATOR', TaskRole: 'User' })).toEqual({ data: { queryContact: [] } });
  });
});

describe('check<T>Password', () => {
  it('applies the password rule only, not the query rule', async () => {
    const ids = (await ask('{ queryLog(order: {asc: logs}) { id } }', { ROLE: 'ADMIN' })) as { data: { queryLog: { id: string }[] } };
    const q = `{ checkLogPassword(id: "${ids.data.queryLog[0]?.id ?? ''}", pwd: "password") { logs } }`;
    // Log: password rule ROLE eq "Admin", query rule ROLE eq "ADMIN".
    expect(await ask(q, { ROLE: 'Admin' })).toEqual({ data: { checkLogPassword: { logs: 'Log1' } } });
    expect(await ask(q, { ROLE: 'ADMIN' })).toEqual({ data: { checkLogPassword: null } });
  });
});

describe('no token', () => {
  it('Movie: the rule parts needing $USER are false, the global-region part still selects', async () => {
    expect(await ask('{ queryMovie(order: {asc: content}) { content } }')).toEqual({ data: { queryMovie: [{ content: 'Movie3' }] } });
  });
});

describe('nested edges and interfaces', () => {
  it('edges to a type with rules keep only the nodes the claims may read', async () => {
    const authors = '{ queryAuthor(order: {asc: name}) { name posts(order: {asc: text}) { text } } }';
    expect(await ask(authors, { USER: 'user1', ANS: true })).toEqual({
      data: { queryAuthor: [{ name: 'user1', posts: [{ text: 'A1' }, { text: 'Q1' }] }, { name: 'user2', posts: [] }] },
    });
  });

  it('nested <f>Aggregate: counts the allowed targets; under a false RBAC rule {count: null}', async () => {
    const q = '{ queryAuthor(filter: {name: {eq: "user1"}}) { postsAggregate { count } } }';
    expect(await ask(q, { USER: 'user1', ANS: true })).toEqual({ data: { queryAuthor: [{ postsAggregate: { count: 2 } }] } });
    const tweets = '{ queryUser(filter: {username: {eq: "user1"}}) { tweetsAggregate { count } } }';
    expect(await ask(tweets, { ROLE: 'admin' })).toEqual({ data: { queryUser: [{ tweetsAggregate: { count: 0 } }] } });
    expect(await ask(tweets, { ROLE: 'USER' })).toEqual({ data: { queryUser: [{ tweetsAggregate: { count: null } }] } });
  });

  it('interface queries apply each implementation’s rules and the interface’s', async () => {
    const q = '{ queryPost(order: {asc: text}) { text } }';
    expect(await ask(q, { USER: 'user1', ANS: true })).toEqual({ data: { queryPost: [{ text: 'A1' }, { text: 'Q1' }] } });
    expect(await ask(q, { USER: 'user1', ANS: false })).toEqual({ data: { queryPost: [{ text: 'A1' }, { text: 'Q2' }] } });
    // Question's rule needs $ANS: without it no question is readable.
    expect(await ask(q, { USER: 'user2' })).toEqual({ data: { queryPost: [{ text: 'A2' }] } });
    expect(await ask('{ queryQuestion(order: {asc: text}) { text } }', { USER: 'user2', ANS: true })).toEqual({ data: { queryQuestion: [{ text: 'Q3' }] } });
  });

  it('@cascade and types without rules are unchanged', async () => {
    expect(await ask('{ queryUserSecret @cascade { aSecret } }', { USER: 'user1' })).toEqual({ data: { queryUserSecret: [{ aSecret: 'Secret1' }] } });
    expect(await ask('{ queryUser(order: {asc: username}) { username } }')).toEqual({
      data: { queryUser: [{ username: 'user1' }, { username: 'user2' }, { username: 'user3' }] },
    });
  });
});

// Last: these change the data. Update and delete affect only the nodes their rule lets through, with no error.
describe('update and delete rules', () => {
  async function mutateAs(query: string, claims?: Record<string, unknown>): Promise<unknown> {
    return ask(query, claims);
  }

  it('update: a false RBAC rule matches nothing; a true one every node', async () => {
    const q = 'mutation { updateLog(input: {filter: {has: logs}, set: {random: "changed"}}) { numUids } }';
    expect(await mutateAs(q, { ROLE: 'USER' })).toEqual({ data: { updateLog: { numUids: 0 } } });
    expect(await ask('{ queryLog(order: {asc: logs}) { random } }', { ROLE: 'ADMIN' })).toEqual({ data: { queryLog: [{ random: 'a' }, { random: 'b' }] } });
    expect(await mutateAs(q, { ROLE: 'ADMIN' })).toEqual({ data: { updateLog: { numUids: 2 } } });
    expect(await ask('{ queryLog(order: {asc: logs}) { random } }', { ROLE: 'ADMIN' })).toEqual({ data: { queryLog: [{ random: 'changed' }, { random: 'changed' }] } });
  });

  it('delete: a graph-traversal rule deletes only the nodes it selects', async () => {
    const q = 'mutation { deleteUserSecret(filter: {aSecret: {anyofterms: "Secret1 Secret2"}}) { msg numUids userSecret { aSecret } } }';
    expect(await mutateAs(q, { USER: 'user1' })).toEqual({ data: { deleteUserSecret: { msg: 'Deleted', numUids: 1, userSecret: [{ aSecret: 'Secret1' }] } } });
    expect(await ask('{ queryUserSecret { aSecret } }', { USER: 'user2' })).toEqual({ data: { queryUserSecret: [{ aSecret: 'Secret2' }] } });
    // Region's delete rule: only global regions, for anyone (no token needed).
    expect(await mutateAs('mutation { deleteRegion(filter: {name: {in: ["Region1", "Region5"]}}) { numUids } }')).toEqual({ data: { deleteRegion: { numUids: 1 } } });
    expect(await ask('{ queryRegion(order: {asc: name}) { name } }')).toEqual({ data: { queryRegion: [{ name: 'Region1' }, { name: 'Region2' }] } });
  });
});
