// The rest of auth_query_test.yaml (dgraph-testdata/resolve) over real HTTP, on Dgraph's auth e2e schema:
// the User/Project/Role/Column/Ticket chain (deep rules, nested aggregates, password queries), Group,
// Student (@dgraph names), Review (`@auth()`), the Post/MsgPost interfaces with FbPost, A/B/C, Vehicle,
// Home (union fragments in a rule) and Person (a rule on an ID filter). Data is added under the schema
// without rules, then the ruled schema is deployed; each answer is what the yaml's DQL selects over this
// data. The cases are listed in test/integration/auth-rules-cases.md; the update and delete cases at the end
// (they change the data) in test/integration/auth-mutations-cases.md.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askAs, e2eAuthSchema, e2eSchemaWithoutRules } from './helpers/auth-e2e.js';
import { postGraphql, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { startWithSchema, type ServerProcess } from './helpers/server-process.js';

let server: ServerProcess;
const ids: Record<string, string | undefined> = {};

function ask(query: string, claims?: Record<string, unknown>): Promise<unknown> {
  return askAs(server.url, query, claims);
}

async function mutate(query: string): Promise<Record<string, any>> {
  const answer = (await (await postGraphql(server.url, { query })).json()) as { data?: Record<string, any>; errors?: unknown };
  expect(answer.errors).toBeUndefined();
  return answer.data ?? {};
}

beforeAll(async () => {
  server = await startWithSchema(e2eSchemaWithoutRules);
  await mutate(`mutation {
    addUser(input: [{username: "user1", isPublic: true, password: "password"}, {username: "user2", isPublic: false, password: "password"}]) { numUids }
  }`);
  // P1: VIEW and EDIT for user1, ADMIN for user2; P2: VIEW for user2. Tickets: T1, T2 on P1's column, T3 on P2's.
  const projects = await mutate(`mutation {
    addProject(input: [
      {name: "P1", random: "r1", pwd: "password",
       roles: [{permission: VIEW, assignedTo: [{username: "user1"}]}, {permission: EDIT, assignedTo: [{username: "user1"}]}, {permission: ADMIN, assignedTo: [{username: "user2"}]}],
       columns: [{name: "C1", tickets: [{title: "graphql one", assignedTo: [{username: "user1"}]}, {title: "graphql2 two", assignedTo: [{username: "user1"}, {username: "user2"}]}]}]},
      {name: "P2", pwd: "password", roles: [{permission: VIEW, assignedTo: [{username: "user2"}]}],
       columns: [{name: "C2", tickets: [{title: "graphql three", assignedTo: [{username: "user1"}]}]}]}
    ]) { project(order: {asc: name}) { projID } }
  }`);
  [ids['P1'], ids['P2']] = (projects['addProject'].project as { projID: string }[]).map((p) => p.projID);
  await mutate(`mutation {
    u1: updateUser(input: {filter: {username: {eq: "user1"}}, set: {issues: [{msg: "Issue1", owner: {username: "user1"}}, {msg: "Issue3", owner: {username: "user2"}}]}}) { numUids }
    u2: updateUser(input: {filter: {username: {eq: "user2"}}, set: {issues: [{msg: "Issue2", owner: {username: "user2"}}]}}) { numUids }
    addGroup(input: [
      {readPermission: VIEW, users: [{username: "user1"}]},
      {readPermission: ADMIN, writePermission: EDIT, createdBy: {username: "user1"}},
      {readPermission: EDIT, users: [{username: "user2"}]}
    ]) { numUids }
    addStudent(input: [{email: "user1"}, {email: "user2"}]) { numUids }
    addReview(input: [{comment: "R1"}]) { numUids }
    addAuthor(input: [{name: "Random"}, {name: "Other"}]) { numUids }
    addB(input: [{fieldA: "b", fieldB: true}]) { numUids }
    addC(input: [{fieldA: "c1", fieldC: true}, {fieldA: "c2", fieldC: false}]) { numUids }
    addCar(input: [{owner: "user", manufacturer: "M1"}, {owner: "other", manufacturer: "M2"}]) { numUids }
    addHome(input: [
      {address: "H1", members: [{dogRef: {breed: "d1", eats: [{parrotRef: {repeatsWords: ["hi"]}}]}}]},
      {address: "H2", members: [{dogRef: {breed: "d2"}}]},
      {address: "H3", members: [{plantRef: {breed: "p3"}}]},
      {address: "H4", members: [{parrotRef: {repeatsWords: ["x"]}}]},
      {address: "H5", members: [{dogRef: {breed: "d5", eats: [{plantRef: {breed: "p5"}}]}}]}
    ]) { numUids }
    addPerson(input: [{name: "Person1"}, {name: "Person2"}, {name: "Person3"}]) { person(order: {asc: name}) { id } }
  }`).then((d) => {
    [ids['Person1'], ids['Person2'], ids['Person3']] = (d['addPerson'].person as { id: string }[]).map((p) => p.id);
  });
  // Movies: M1 in Region123 (user1's), M2 hidden, M3 in a global region, M4 also in Region123.
  const regions = await mutate(`mutation {
    u1: updateUser(input: {filter: {username: {eq: "user1"}}, set: {age: 30, secrets: [{aSecret: "Secret132", ownedBy: "user1"}, {aSecret: "Secret132 other", ownedBy: "user2"}]}}) { numUids }
    addRegion(input: [{name: "Other", global: true}, {name: "Region123", global: false, users: [{username: "user1"}]}]) { region(order: {asc: name}) { id } }
    addContact(input: [{nickName: "Contact1", adminTasks: [{name: "AdminTask1", occurrences: [{role: "ADMINISTRATOR"}]}], tasks: [{name: "Task1", occurrences: [{role: "ADMINISTRATOR"}, {role: "USER"}]}]}]) { numUids }
  }`);
  const [globalRegion, region123] = (regions['addRegion'].region as { id: string }[]).map((r) => r.id);
  await mutate(`mutation {
    addMovie(input: [
      {content: "MovieXYZ", regionsAvailable: [{id: "${region123}"}]},
      {content: "MovieXYZ2", hidden: true, regionsAvailable: [{id: "${globalRegion}"}]},
      {content: "MovieXYZ3", regionsAvailable: [{id: "${globalRegion}"}]},
      {content: "MovieABC", regionsAvailable: [{id: "${region123}"}]}
    ]) { numUids }
  }`);
  const authors = await mutate('{ queryAuthor(order: {asc: name}) { id name } }');
  const [other, random] = (authors['queryAuthor'] as { id: string }[]).map((a) => a.id);
  const posts = await mutate(`mutation {
    addQuestion(input: [
      {text: "Q1", answered: true, pwd: "password", author: {id: "${random}"}},
      {text: "Q2", answered: false, pwd: "password", author: {id: "${random}"}}
    ]) { question(order: {asc: text}) { id } }
    addFbPost(input: [
      {text: "F1", postCount: 1, pwd: "password", author: {id: "${random}"}},
      {text: "F2", postCount: 2, pwd: "password", author: {id: "${other}"}}
    ]) { fbPost(order: {asc: text}) { id } }
    addAnswer(input: [{text: "A1", pwd: "password", author: {id: "${random}"}}]) { answer { id } }
  }`);
  [ids['Q1'], ids['Q2']] = (posts['addQuestion'].question as { id: string }[]).map((p) => p.id);
  [ids['F1'], ids['F2']] = (posts['addFbPost'].fbPost as { id: string }[]).map((p) => p.id);
  ids['A1'] = (posts['addAnswer'].answer as { id: string }[])[0]?.id ?? '';
  expect(await uploadSchema(server.url, e2eAuthSchema)).toEqual(uploadSucceeded);
}, 60_000);
afterAll(async () => {
  await server.stop();
});

describe('the Project/Column/Ticket chain (deep graph-traversal rules)', () => {
  it('Auth with deep get query: the project under its rule, its columns under theirs', async () => {
    const q = (id: string): string => `{ getProject(projID: "${id}") { name columns { name } } }`;
    expect(await ask(q(ids['P1'] ?? ''), { USER: 'user1' })).toEqual({ data: { getProject: { name: 'P1', columns: [{ name: 'C1' }] } } });
    expect(await ask(q(ids['P1'] ?? ''), { USER: 'user2' })).toEqual({ data: { getProject: null } });
    expect(await ask(q(ids['P2'] ?? ''), { USER: 'user2' })).toEqual({ data: { getProject: { name: 'P2', columns: [{ name: 'C2' }] } } });
    // ADMIN reads every project; the columns stay under Column's rule (VIEW for $USER).
    expect(await ask(q(ids['P2'] ?? ''), { ROLE: 'ADMIN', USER: 'user1' })).toEqual({ data: { getProject: { name: 'P2', columns: [] } } });
  });

  it('Auth with top level OR rbac true / false; Query with missing variable - partial jwt token; Aggregate on Auth with top level OR rbac true', async () => {
    const q = '{ queryProject(order: {asc: name}) { name } }';
    expect(await ask(q, { ROLE: 'ADMIN', USER: 'user1' })).toEqual({ data: { queryProject: [{ name: 'P1' }, { name: 'P2' }] } });
    expect(await ask(q, { ROLE: 'ADMIN' })).toEqual({ data: { queryProject: [{ name: 'P1' }, { name: 'P2' }] } });
    expect(await ask(q, { ROLE: 'USER', USER: 'user1' })).toEqual({ data: { queryProject: [{ name: 'P1' }] } });
    expect(await ask(q, { ROLE: 'USER' })).toEqual({ data: { queryProject: [] } });
    const agg = '{ aggregateProject { nameMin count randomMin } }';
    expect(await ask(agg, { ROLE: 'ADMIN', USER: 'user1' })).toEqual({ data: { aggregateProject: { nameMin: 'P1', count: 2, randomMin: 'r1' } } });
    expect(await ask(agg, { USER: 'user2' })).toEqual({ data: { aggregateProject: { nameMin: 'P2', count: 1, randomMin: null } } });
  });

  it('Auth with deep filter : query top-level (Ticket through Column and Project)', async () => {
    const q = '{ queryTicket(order: {asc: title}) { title } }';
    expect(await ask(q, { USER: 'user1' })).toEqual({ data: { queryTicket: [{ title: 'graphql one' }, { title: 'graphql2 two' }] } });
    expect(await ask(q, { USER: 'user2' })).toEqual({ data: { queryTicket: [{ title: 'graphql three' }] } });
    expect(await ask(q)).toEqual({ data: { queryTicket: [] } });
  });

  it('Auth with deep filter (and field filter) : query deep requires auth', async () => {
    const q = '{ queryUser(order: {asc: username}) { username tickets(order: {asc: title}) { title } } }';
    expect(await ask(q, { USER: 'user1' })).toEqual({
      data: { queryUser: [{ username: 'user1', tickets: [{ title: 'graphql one' }, { title: 'graphql2 two' }] }, { username: 'user2', tickets: [{ title: 'graphql2 two' }] }] },
    });
    expect(await ask(q, { USER: 'user2' })).toEqual({
      data: { queryUser: [{ username: 'user1', tickets: [{ title: 'graphql three' }] }, { username: 'user2', tickets: [] }] },
    });
    const filtered = '{ queryUser(order: {asc: username}) { username tickets(filter: {title: {anyofterms: "graphql"}}) { title } } }';
    expect(await ask(filtered, { USER: 'user1' })).toEqual({
      data: { queryUser: [{ username: 'user1', tickets: [{ title: 'graphql one' }] }, { username: 'user2', tickets: [] }] },
    });
  });

  it('Query with missing / null variable - deep query: the edge is empty', async () => {
    const q = '{ queryUser(order: {asc: username}) { username tickets { title } } }';
    const empty = { data: { queryUser: [{ username: 'user1', tickets: [] }, { username: 'user2', tickets: [] }] } };
    expect(await ask(q)).toEqual(empty);
    expect(await ask(q, { USER: null })).toEqual(empty);
  });

  it('Query with null variable - top level: no node', async () => {
    expect(await ask('{ queryUserSecret { id } queryTicket { title } }', { USER: null })).toEqual({ data: { queryUserSecret: [], queryTicket: [] } });
  });

  it('Aggregate Fields at child with Auth deep filter and field filter', async () => {
    const q = '{ queryUser(order: {asc: username}) { ticketsAggregate(filter: {title: {anyofterms: "graphql"}}) { count titleMin titleMax } } }';
    expect(await ask(q, { USER: 'user1' })).toEqual({
      data: { queryUser: [{ ticketsAggregate: { count: 1, titleMin: 'graphql one', titleMax: 'graphql one' } }, { ticketsAggregate: { count: 0, titleMin: null, titleMax: null } }] },
    });
  });

  it('Multiple Aggregate queries at child level and other queries with Auth deep filter', async () => {
    const q = `{ queryUser(order: {asc: username}) {
      ticketsAggregate(filter: {title: {anyofterms: "graphql"}}) { titleMin }
      issuesAggregate { count msgMax }
      tickets(filter: {title: {anyofterms: "graphql2"}}) { title }
    } }`;
    expect(await ask(q, { ROLE: 'ADMIN', USER: 'user1' })).toEqual({
      data: {
        queryUser: [
          { ticketsAggregate: { titleMin: 'graphql one' }, issuesAggregate: { count: 1, msgMax: 'Issue1' }, tickets: [{ title: 'graphql2 two' }] },
          { ticketsAggregate: { titleMin: null }, issuesAggregate: { count: 0, msgMax: null }, tickets: [{ title: 'graphql2 two' }] },
        ],
      },
    });
  });

  it('Deep RBAC rules true / false (User.issues under Issue: ADMIN and owner is $USER)', async () => {
    const q = '{ queryUser(order: {asc: username}) { username issues(order: {asc: msg}) { msg } } }';
    expect(await ask(q, { ROLE: 'ADMIN', USER: 'user1' })).toEqual({ data: { queryUser: [{ username: 'user1', issues: [{ msg: 'Issue1' }] }, { username: 'user2', issues: [] }] } });
    expect(await ask(q, { ROLE: 'ADMIN', USER: 'user2' })).toEqual({ data: { queryUser: [{ username: 'user1', issues: [{ msg: 'Issue3' }] }, { username: 'user2', issues: [{ msg: 'Issue2' }] }] } });
    expect(await ask(q, { ROLE: 'USER', USER: 'user1' })).toEqual({ data: { queryUser: [{ username: 'user1', issues: [] }, { username: 'user2', issues: [] }] } });
  });
});

describe('Movie: its rule at the root, nested filters, order, paging and @cascade', () => {
  const xyz = 'filter: {content: {in: ["MovieXYZ", "MovieXYZ2", "MovieXYZ3"]}}, order: {asc: content}, first: 10';
  const m1 = { content: 'MovieXYZ', regionsAvailable: [{ name: 'Region123', global: false }] };

  it('Auth deep query - 1 level: @cascade drops the allowed movie with no Region123', async () => {
    const q = `{ queryMovie(${xyz}) @cascade { content regionsAvailable(filter: {name: {eq: "Region123"}}, order: {asc: name}, first: 10) { name global } } }`;
    expect(await ask(q, { USER: 'user1' })).toEqual({ data: { queryMovie: [m1] } });
    // user2: only MovieXYZ3 (global region) is allowed, and it has no Region123.
    expect(await ask(q, { USER: 'user2' })).toEqual({ data: { queryMovie: [] } });
  });

  it('Auth deep query - 3 level: User.secrets under UserSecret’s rule below a @cascade region', async () => {
    const q = `{ queryMovie(${xyz}) { content regionsAvailable(filter: {name: {eq: "Region123"}}) @cascade { name global
      users(filter: {username: {eq: "user1"}}) { username age isPublic secrets(filter: {aSecret: {allofterms: "Secret132"}}, order: {asc: aSecret}) { aSecret ownedBy } } } } }`;
    const user1 = { username: 'user1', age: 30, isPublic: true, secrets: [{ aSecret: 'Secret132', ownedBy: 'user1' }] };
    expect(await ask(q, { USER: 'user1' })).toEqual({
      data: { queryMovie: [{ content: 'MovieXYZ', regionsAvailable: [{ name: 'Region123', global: false, users: [user1] }] }, { content: 'MovieXYZ3', regionsAvailable: [] }] },
    });
  });

  it('Auth deep query with @cascade at all the levels - 3 level', async () => {
    const q = `{ queryMovie(${xyz}) @cascade { content regionsAvailable(filter: {name: {eq: "Region123"}}) @cascade(fields: ["global"]) { name global
      users(filter: {username: {eq: "user1"}}) @cascade { username age isPublic secrets(filter: {aSecret: {allofterms: "Secret132"}}) @cascade(fields: ["ownedBy"]) { aSecret ownedBy } } } } }`;
    const user1 = { username: 'user1', age: 30, isPublic: true, secrets: [{ aSecret: 'Secret132', ownedBy: 'user1' }] };
    expect(await ask(q, { USER: 'user1' })).toEqual({ data: { queryMovie: [{ content: 'MovieXYZ', regionsAvailable: [{ name: 'Region123', global: false, users: [user1] }] }] } });
    // user2 may read no secret of user1's: the @cascade users level drops user1, then the region, then the movie.
    expect(await ask(q, { USER: 'user2' })).toEqual({ data: { queryMovie: [] } });
  });

  it('Auth with complex filter, Aggregate Query with complex auth filter', async () => {
    expect(await ask('{ queryMovie(order: {asc: content}) { content } }', { USER: 'user1' })).toEqual({
      data: { queryMovie: [{ content: 'MovieABC' }, { content: 'MovieXYZ' }, { content: 'MovieXYZ3' }] },
    });
    expect(await ask('{ aggregateMovie { count contentMin } }', { USER: 'user1' })).toEqual({ data: { aggregateMovie: { count: 3, contentMin: 'MovieABC' } } });
    expect(await ask('{ aggregateMovie { count contentMin } }')).toEqual({ data: { aggregateMovie: { count: 1, contentMin: 'MovieXYZ3' } } });
  });
});

describe('Contact: deep RBAC rules', () => {
  it('Deep RBAC rule - Level 2 false: the occurrences edge is empty', async () => {
    const q = '{ queryContact { nickName adminTasks { name occurrences { role } } } }';
    expect(await ask(q, { ContactRole: 'ADMINISTRATOR', TaskRole: 'ADMINISTRATOR', TaskOccuranceRole: 'User' })).toEqual({
      data: { queryContact: [{ nickName: 'Contact1', adminTasks: [{ name: 'AdminTask1', occurrences: [] }] }] },
    });
  });

  it('Deep RBAC rule - Level 1 type without auth: Task unrestricted, its occurrences under their rule', async () => {
    const q = '{ queryContact { nickName tasks { name occurrences { role } } } }';
    expect(await ask(q, { ContactRole: 'ADMINISTRATOR', TaskRole: 'ADMINISTRATOR', TaskOccuranceRole: 'ADMINISTRATOR' })).toEqual({
      data: { queryContact: [{ nickName: 'Contact1', tasks: [{ name: 'Task1', occurrences: [{ role: 'ADMINISTRATOR' }] }] }] },
    });
  });
});

describe('password queries', () => {
  it('Password Query with no rule applied for password (User)', async () => {
    expect(await ask('{ checkUserPassword(username: "user1", password: "password") { username } }')).toEqual({ data: { checkUserPassword: { username: 'user1' } } });
    expect(await ask('{ checkUserPassword(username: "user1", password: "wrong") { username } }')).toEqual({ data: { checkUserPassword: null } });
  });

  it('Password Query with auth rules: the password rule at the root (EDIT), query rules below (VIEW)', async () => {
    const q = `{ checkProjectPassword(projID: "${ids['P1'] ?? ''}", pwd: "password") { name columns { name } } }`;
    expect(await ask(q, { USER: 'user1' })).toEqual({ data: { checkProjectPassword: { name: 'P1', columns: [{ name: 'C1' }] } } });
    expect(await ask(q, { USER: 'user2' })).toEqual({ data: { checkProjectPassword: null } });
    expect(await ask(q, { ROLE: 'ADMIN', USER: 'user2' })).toEqual({ data: { checkProjectPassword: { name: 'P1', columns: [] } } });
  });

  it("Type with password query should apply Interface's password rules and along with its own; … returns no results when auth rules fail", async () => {
    const q = (id: string): string => `{ checkQuestionPassword(id: "${id}", pwd: "password") { text } }`;
    expect(await ask(q(ids['Q1'] ?? ''), { ROLE: 'Admin', ANS: 'true', USER: 'ADMIN' })).toEqual({ data: { checkQuestionPassword: { text: 'Q1' } } });
    expect(await ask(q(ids['Q2'] ?? ''), { ROLE: 'Admin', ANS: 'true', USER: 'ADMIN' })).toEqual({ data: { checkQuestionPassword: null } });
    expect(await ask(q(ids['Q1'] ?? ''), { ROLE: 'NotAdmin', ANS: 'true', USER: 'ADMIN' })).toEqual({ data: { checkQuestionPassword: null } });
  });

  it('Password Auth rules of All the implementing types … (checkPostPassword): null, as in Dgraph', async () => {
    // Dgraph's oddity, matched: checkPostPassword compares the interface's secret predicate (Post.pwd, the
    // yaml's checkpwd(Post.pwd, …)), while addQuestion/addFbPost/addAnswer write their own (Question.pwd, …):
    // no node added through GraphQL passes, whatever the rules say.
    const q = (id: string): string => `{ checkPostPassword(id: "${id}", pwd: "password") { text } }`;
    const claims = { ROLE: 'Admin', ANS: 'true', USER: 'Random' };
    for (const id of [ids['Q1'], ids['F1'], ids['A1']]) expect(await ask(q(id ?? ''), claims)).toEqual({ data: { checkPostPassword: null } });
    expect(await ask(`{ checkQuestionPassword(id: "${ids['Q1'] ?? ''}", pwd: "password") { text } }`, claims)).toEqual({ data: { checkQuestionPassword: { text: 'Q1' } } });
  });

  it('FbPost: its own password rule (author is $USER) and Post\'s (ROLE Admin)', async () => {
    const q = (id: string): string => `{ checkFbPostPassword(id: "${id}", pwd: "password") { text } }`;
    expect(await ask(q(ids['F1'] ?? ''), { ROLE: 'Admin', USER: 'Random' })).toEqual({ data: { checkFbPostPassword: { text: 'F1' } } });
    expect(await ask(q(ids['F2'] ?? ''), { ROLE: 'Admin', USER: 'Random' })).toEqual({ data: { checkFbPostPassword: null } });
    expect(await ask(q(ids['F1'] ?? ''), { ROLE: 'User', USER: 'Random' })).toEqual({ data: { checkFbPostPassword: null } });
    // Answer has no password rule of its own: Post's alone.
    const answer = `{ checkAnswerPassword(id: "${ids['A1'] ?? ''}", pwd: "password") { text } }`;
    expect(await ask(answer, { ROLE: 'Admin' })).toEqual({ data: { checkAnswerPassword: { text: 'A1' } } });
    expect(await ask(answer, { ROLE: 'User' })).toEqual({ data: { checkAnswerPassword: null } });
  });
});

describe('Group: an OR of graph rules, one needing a claim the token lacks', () => {
  it('Query with missing jwt variables: the parts needing $PERMISSION are false (and `not` of them too)', async () => {
    const q = '{ queryGroup { readPermission writePermission } }';
    expect(await ask(q, { USER: 'user1' })).toEqual({ data: { queryGroup: [{ readPermission: 'VIEW', writePermission: null }] } });
    expect(await ask(q, { USER: 'user1', PERMISSION: 'VIEW' })).toEqual({
      data: { queryGroup: [{ readPermission: 'VIEW', writePermission: null }, { readPermission: 'ADMIN', writePermission: 'EDIT' }] },
    });
    expect(await ask(q, { USER: 'user1', PERMISSION: 'EDIT' })).toEqual({
      data: { queryGroup: [{ readPermission: 'VIEW', writePermission: null }, { readPermission: 'EDIT', writePermission: null }] },
    });
  });
});

describe('types with @dgraph names and with an empty @auth()', () => {
  it('Auth query with @dgraph pred (and its RBAC variant)', async () => {
    const q = '{ queryStudent { email } }';
    expect(await ask(q, { ROLE: 'ADMIN', USER: 'user1' })).toEqual({ data: { queryStudent: [{ email: 'user1' }] } });
    expect(await ask(q, { ROLE: 'USER', USER: 'user1' })).toEqual({ data: { queryStudent: [] } });
  });

  it('Query with missing jwt token - type with empty auth directive; type without auth directive', async () => {
    expect(await ask('{ queryReview { comment } }')).toEqual({ data: { queryReview: [{ comment: 'R1' }] } });
    expect(await ask('{ queryRole { permission } }')).toEqual({
      data: { queryRole: [{ permission: 'VIEW' }, { permission: 'EDIT' }, { permission: 'ADMIN' }, { permission: 'VIEW' }] },
    });
  });
});

describe('interfaces: Post (graph rule), MsgPost (RBAC), FbPost implementing both', () => {
  const posts = '{ queryPost(order: {asc: text}) { text } }';

  it("Type should apply Interface's query rules and along with its own (a string claim for a Boolean variable)", async () => {
    expect(await ask('{ queryQuestion(order: {asc: text}) { text } }', { ANS: 'true', USER: 'Random' })).toEqual({ data: { queryQuestion: [{ text: 'Q1' }] } });
    expect(await ask('{ queryQuestion(order: {asc: text}) { text } }', { ANS: 'false', USER: 'Random' })).toEqual({ data: { queryQuestion: [{ text: 'Q2' }] } });
  });

  it("Type should apply only Interface's query auth rules (Answer)", async () => {
    expect(await ask('{ queryAnswer { text } }', { USER: 'Random' })).toEqual({ data: { queryAnswer: [{ text: 'A1' }] } });
    expect(await ask('{ queryAnswer { text } }', { USER: 'Other' })).toEqual({ data: { queryAnswer: [] } });
  });

  it('Type should apply query auth rules from all the interfaces that it implements; … returns no results when they fail', async () => {
    const q = '{ queryFbPost(order: {asc: text}) { text postCount } }';
    expect(await ask(q, { ROLE: 'ADMIN', USER: 'Random' })).toEqual({ data: { queryFbPost: [{ text: 'F1', postCount: 1 }] } });
    expect(await ask(q, { ROLE: 'REGULAR', USER: 'Random' })).toEqual({ data: { queryFbPost: [] } });
  });

  it('Auth rules of All the implementing types should Apply to the interface also; partial types; empty', async () => {
    expect(await ask(posts, { ROLE: 'ADMIN', ANS: 'true', USER: 'Random' })).toEqual({ data: { queryPost: [{ text: 'A1' }, { text: 'F1' }, { text: 'Q1' }] } });
    expect(await ask(posts, { USER: 'Random', ANS: 'true' })).toEqual({ data: { queryPost: [{ text: 'A1' }, { text: 'Q1' }] } });
    expect(await ask(posts, { ROLE: 'ADMIN', ANS: 'true' })).toEqual({ data: { queryPost: [] } });
  });

  it('Filters on query Interface should work correctly (filter, order, first and offset over the allowed nodes)', async () => {
    const q = '{ queryPost(filter: {text: {in: ["A1", "F1", "F2", "Q1", "Q2"]}}, order: {desc: text}, first: 2, offset: 1) { text } }';
    expect(await ask(q, { ROLE: 'ADMIN', ANS: 'true', USER: 'Random' })).toEqual({ data: { queryPost: [{ text: 'F1' }, { text: 'A1' }] } });
  });

  it('Get Query interface having Auth Rules apply Auth filters of types also; empty without a token', async () => {
    const q = (id: string): string => `{ getPost(id: "${id}") { text } }`;
    expect(await ask(q(ids['Q1'] ?? ''), { USER: 'Random', ANS: 'true' })).toEqual({ data: { getPost: { text: 'Q1' } } });
    expect(await ask(q(ids['F1'] ?? ''), { USER: 'Random', ANS: 'true' })).toEqual({ data: { getPost: null } });
    expect(await ask(q(ids['Q1'] ?? ''))).toEqual({ data: { getPost: null } });
  });

  it('Query interface having no Auth Rules should apply the rules of its implementing types (A over B and C)', async () => {
    const q = '{ queryA(order: {asc: fieldA}) { fieldA } }';
    expect(await ask(q, { ANS: 'true' })).toEqual({ data: { queryA: [{ fieldA: 'b' }, { fieldA: 'c1' }] } });
    expect(await ask(q)).toEqual({ data: { queryA: [{ fieldA: 'b' }] } });
  });

  it('Query interface should return all the nodes of a type if rbac rules of type are true (Vehicle)', async () => {
    const q = '{ queryVehicle(order: {asc: owner}) { owner } }';
    expect(await ask(q, { ROLE: 'ADMIN', USER: 'user' })).toEqual({ data: { queryVehicle: [{ owner: 'other' }, { owner: 'user' }] } });
    expect(await ask(q, { USER: 'user' })).toEqual({ data: { queryVehicle: [{ owner: 'user' }] } });
  });
});

describe('Home: union fragments and a user-defined @cascade in the rule', () => {
  it('Fragments in auth queries with user defined cascade: a dog member with something to eat, or a plant member with a breed', async () => {
    expect(await ask('{ queryHome(order: {asc: address}) { address } }')).toEqual({ data: { queryHome: [{ address: 'H1' }, { address: 'H3' }, { address: 'H5' }] } });
  });
});

describe('a rule filtering on an ID field', () => {
  it('Query auth rules with filter on field with ID type (a list claim, and a single JWT ID param)', async () => {
    const q = '{ queryPerson(order: {asc: name}) { name } }';
    expect(await ask(q, { USER: [ids['Person1'], ids['Person3']] })).toEqual({ data: { queryPerson: [{ name: 'Person1' }, { name: 'Person3' }] } });
    expect(await ask(q, { USER: ids['Person2'] })).toEqual({ data: { queryPerson: [{ name: 'Person2' }] } });
    expect(await ask(q)).toEqual({ data: { queryPerson: [] } });
  });
});

// Last: these change the data. auth_update_test.yaml / auth_delete_test.yaml cases over the same nodes: an
// update or delete affects only the nodes its rules let through (no error), its payload is read under query rules.
describe('updates and deletes of interfaces and their implementations', () => {
  const posts = '["Q1", "Q2", "F1", "F2", "A1"]';
  const readPosts = (claims: Record<string, unknown>): Promise<unknown> => ask('{ queryPost(order: {asc: text}) { text topic } }', claims);

  it('Update Type inheriting RBAC Auth Rules from Interface (and failed): updateFbPost', async () => {
    const q = `mutation { updateFbPost(input: {filter: {text: {in: ${posts}}}, set: {topic: "fb"}}) { numUids fbPost { text } } }`;
    expect(await ask(q, { ROLE: 'USER', USER: 'Random' })).toEqual({ data: { updateFbPost: { numUids: 0, fbPost: [] } } });
    expect(await ask(q, { ROLE: 'ADMIN', USER: 'Random' })).toEqual({ data: { updateFbPost: { numUids: 1, fbPost: [{ text: 'F1' }] } } });
    expect(await ask('{ queryFbPost { text topic } }', { ROLE: 'ADMIN', USER: 'Other' })).toEqual({ data: { queryFbPost: [{ text: 'F2', topic: null }] } });
  });

  it('Update Type inheriting Graph Traversal Auth Rules from Interface (and failed): updateQuestion', async () => {
    const q = `mutation { updateQuestion(input: {filter: {text: {in: ${posts}}}, set: {topic: "q"}}) { numUids } }`;
    expect(await ask(q)).toEqual({ data: { updateQuestion: { numUids: 0 } } });
    expect(await ask(q, { USER: 'Random', ANS: 'true' })).toEqual({ data: { updateQuestion: { numUids: 1 } } });
  });

  it('Updating interface having its own auth rules and implementing types also have auth rules (all / some / the interface\'s not satisfied)', async () => {
    const q = (topic: string): string => `mutation { updatePost(input: {filter: {text: {in: ${posts}}}, set: {topic: "${topic}"}}) { numUids } }`;
    expect(await ask(q('c'), { ROLE: 'ADMIN', ANS: 'true' })).toEqual({ data: { updatePost: { numUids: 0 } } });
    expect(await ask(q('b'), { ROLE: 'ADMIN', USER: 'Random' })).toEqual({ data: { updatePost: { numUids: 2 } } });
    const all = { ROLE: 'ADMIN', USER: 'Random', ANS: 'true' };
    expect(await readPosts(all)).toEqual({ data: { queryPost: [{ text: 'A1', topic: 'b' }, { text: 'F1', topic: 'b' }, { text: 'Q1', topic: 'q' }] } });
    expect(await ask(q('a'), all)).toEqual({ data: { updatePost: { numUids: 3 } } });
    expect(await readPosts(all)).toEqual({ data: { queryPost: [{ text: 'A1', topic: 'a' }, { text: 'F1', topic: 'a' }, { text: 'Q1', topic: 'a' }] } });
    expect(await readPosts({ ROLE: 'ADMIN', USER: 'Random', ANS: 'false' })).toEqual({ data: { queryPost: [{ text: 'A1', topic: 'a' }, { text: 'F1', topic: 'a' }, { text: 'Q2', topic: null }] } });
  });

  it('Updating interface having no own auth rules but some implementing types have (updateA: C has no update rule; the payload under C\'s query rule)', async () => {
    const q = 'mutation { updateA(input: {filter: {fieldA: {in: ["b", "c1", "c2"]}}, set: {random: "r"}}) { numUids a(order: {asc: fieldA}) { fieldA } } }';
    expect(await ask(q, { ROLE: 'ADMIN', ANS: 'true' })).toEqual({ data: { updateA: { numUids: 3, a: [{ fieldA: 'b' }, { fieldA: 'c1' }] } } });
    expect(await ask('{ queryA(order: {asc: fieldA}) { fieldA random } }', { ANS: 'false' })).toEqual({ data: { queryA: [{ fieldA: 'b', random: 'r' }, { fieldA: 'c2', random: 'r' }] } });
  });

  it('Delete type having RBAC Auth Rules on interface (not satisfied / all satisfied): deleteFbPost', async () => {
    const q = `mutation { deleteFbPost(filter: {text: {in: ${posts}}}) { numUids } }`;
    expect(await ask(q, { ROLE: 'USER', USER: 'Random' })).toEqual({ data: { deleteFbPost: { numUids: 0 } } });
    expect(await ask(q, { ROLE: 'ADMIN', USER: 'Random' })).toEqual({ data: { deleteFbPost: { numUids: 1 } } });
  });

  it('Deleting interface having its own auth rules … (the interface\'s not satisfied; some implementations\' not satisfied): deletePost', async () => {
    const q = `mutation { deletePost(filter: {text: {in: ${posts}}}) { numUids } }`;
    // The yaml's claims, its `AND: "true"` included: no $USER, so Post's own rule is false.
    expect(await ask(q, { ROLE: 'ADMIN', AND: 'true' })).toEqual({ data: { deletePost: { numUids: 0 } } });
    // No ROLE: FbPost (MsgPost's RBAC rule) is kept; Q1 (answered) and A1 go.
    expect(await ask(q, { USER: 'Random', ANS: 'true' })).toEqual({ data: { deletePost: { numUids: 2 } } });
  });

  it('Delete Type Having Graph Traversal Auth Rules on Interface (and those are not satisfied): deleteQuestion; the author forgets its posts', async () => {
    const q = `mutation { deleteQuestion(filter: {text: {in: ${posts}}}) { numUids } }`;
    expect(await ask(q, { ANS: 'false' })).toEqual({ data: { deleteQuestion: { numUids: 0 } } });
    expect(await ask(q, { USER: 'Random', ANS: 'false' })).toEqual({ data: { deleteQuestion: { numUids: 1 } } });
    expect(await readPosts({ ROLE: 'ADMIN', USER: 'Other', ANS: 'true' })).toEqual({ data: { queryPost: [{ text: 'F2', topic: null }] } });
    expect(await readPosts({ ROLE: 'ADMIN', USER: 'Random', ANS: 'false' })).toEqual({ data: { queryPost: [] } });
    expect(await ask('{ queryAuthor(order: {asc: name}) { name postsAggregate { count } } }', { ROLE: 'ADMIN', USER: 'Other' })).toEqual({
      data: { queryAuthor: [{ name: 'Other', postsAggregate: { count: 1 } }, { name: 'Random', postsAggregate: { count: 0 } }] },
    });
  });

  it('Deleting interface having no own auth rules but some implementing types have (deleteA: C\'s delete rule needs $ANS)', async () => {
    const q = 'mutation { deleteA(filter: {fieldA: {in: ["b", "c1", "c2"]}}) { numUids } }';
    expect(await ask(q)).toEqual({ data: { deleteA: { numUids: 1 } } });
    expect(await ask('{ queryA(order: {asc: fieldA}) { fieldA } }', { ANS: 'true' })).toEqual({ data: { queryA: [{ fieldA: 'c1' }] } });
    expect(await ask(q, { ANS: 'false' })).toEqual({ data: { deleteA: { numUids: 1 } } });
    expect(await ask('{ queryA(order: {asc: fieldA}) { fieldA } }', { ANS: 'false' })).toEqual({ data: { queryA: [] } });
  });

  it('Delete with deep query: the payload and its nested edges are read under query rules', async () => {
    const q = `mutation { deleteTicket(filter: {title: {anyofterms: "graphql"}}) { msg numUids
      ticket { title onColumn { name inProject { name roles { permission assignedTo { username } } } } } } }`;
    // user2 may delete no ticket (EDIT on neither project).
    expect(await ask(q, { USER: 'user2' })).toEqual({ data: { deleteTicket: { msg: 'No nodes were deleted', numUids: 0, ticket: [] } } });
    const roles = [
      { permission: 'VIEW', assignedTo: [{ username: 'user1' }] },
      { permission: 'EDIT', assignedTo: [{ username: 'user1' }] },
      { permission: 'ADMIN', assignedTo: [{ username: 'user2' }] },
    ];
    expect(await ask(q, { USER: 'user1' })).toEqual({
      data: { deleteTicket: { msg: 'Deleted', numUids: 1, ticket: [{ title: 'graphql one', onColumn: { name: 'C1', inProject: { name: 'P1', roles } } }] } },
    });
    expect(await ask('{ queryTicket(order: {asc: title}) { title } }', { USER: 'user1' })).toEqual({ data: { queryTicket: [{ title: 'graphql2 two' }] } });
    expect(await ask('{ queryTicket { title } }', { USER: 'user2' })).toEqual({ data: { queryTicket: [{ title: 'graphql three' }] } });
  });

  it('Delete with top level RBAC true: Project has no delete rule, so every matched node goes; its column loses inProject', async () => {
    expect(await ask(`mutation { deleteProject(filter: {projID: ["${ids['P2'] ?? ''}"]}) { numUids } }`, { ROLE: 'ADMIN', USER: 'user1' })).toEqual({ data: { deleteProject: { numUids: 1 } } });
    expect(await ask('{ queryProject { name } }', { ROLE: 'ADMIN' })).toEqual({ data: { queryProject: [{ name: 'P1' }] } });
    // C2's and T3's rules go through inProject, gone with P2.
    expect(await ask('{ queryTicket { title } queryColumn { name } }', { USER: 'user2' })).toEqual({ data: { queryTicket: [], queryColumn: [] } });
  });

  it('Adding nodes for a Type that inherits Auth rules from an interface: the add rule reads a string claim "true" as a boolean too', async () => {
    const random = ((await ask('{ queryAuthor(filter: {name: {eq: "Random"}}) { id } }')) as { data: { queryAuthor: { id: string }[] } }).data.queryAuthor[0]?.id ?? '';
    const add = (text: string): string => `mutation { addQuestion(input: [{text: "${text}", answered: true, pwd: "password", author: {id: "${random}"}}]) { numUids } }`;
    expect(await ask(add('Q8'), { USER: 'Random', ANS: 'false' })).toEqual({ data: { addQuestion: null } });
    expect(await ask(add('Q9'), { USER: 'Random', ANS: 'true' })).toEqual({ data: { addQuestion: { numUids: 1 } } });
    expect(await ask('{ queryQuestion { text } }', { USER: 'Random', ANS: 'true' })).toEqual({ data: { queryQuestion: [{ text: 'Q9' }] } });
  });
});
