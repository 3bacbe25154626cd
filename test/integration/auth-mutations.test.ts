// `@auth` rules of mutations over real HTTP, on Dgraph's auth e2e schema (dgraph-testdata/e2e/auth):
// `add` rules checked on every node a mutation creates, after its writes, the whole mutation rolled back
// when one fails (also in the log: checked after a restart); update's `set` taking single edges from
// existing nodes under their `update` rules; upserts whose existing node fails its update rule; Dgraph's
// error texts, shown only in debug mode. The cases of dgraph-testdata/resolve/auth_{add,update,delete}_test.yaml
// ported here, and those not, are listed in test/integration/auth-mutations-cases.md. The tests run in
// file order on two shared servers (without and with --debug) and build on the data earlier ones wrote.

import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askAs, e2eAuthSchema, e2eClosedSchema, e2eSchemaWithoutRules, tokenHeaders } from './helpers/auth-e2e.js';
import { uploadSchema, uploadSucceeded } from './helpers/http.js';
import { makeTempDir, startServer, startWithSchema, type ServerProcess } from './helpers/server-process.js';

type Claims = Record<string, unknown>;

function ask(server: ServerProcess, query: string, claims?: Claims): Promise<Record<string, unknown>> {
  return askAs(server.url, query, claims);
}

/** Loads the shared data under the rule-free schema (the rules' `add` checks would refuse some), then deploys the rules. */
async function seed(server: ServerProcess): Promise<void> {
  expect(await uploadSchema(server.url, e2eSchemaWithoutRules)).toEqual(uploadSucceeded);
  const loaded = await ask(
    server,
    `mutation {
      addUser(input: [{username: "user1", isPublic: true, password: "password"}, {username: "user2", isPublic: true, password: "password"}, {username: "user3", isPublic: true, password: "password"}]) { numUids }
      addAuthor(input: [{name: "user1"}, {name: "user2"}]) { numUids }
      addProject(input: [
        {name: "P1", pwd: "password", columns: [{name: "C1", tickets: [{title: "T1"}]}], roles: [
          {permission: ADMIN, assignedTo: [{username: "user1"}]},
          {permission: EDIT, assignedTo: [{username: "user1"}, {username: "user3"}]},
          {permission: VIEW, assignedTo: [{username: "user1"}]}]},
        {name: "P2", pwd: "password", columns: [{name: "C2"}], roles: [
          {permission: ADMIN, assignedTo: [{username: "user1"}, {username: "user2"}]},
          {permission: VIEW, assignedTo: [{username: "user1"}]}]}
      ]) { numUids }
      addState(input: [{code: "mh", name: "Maharashtra", ownedBy: "user1"}]) { numUids }
      addRegion(input: [{name: "Region1", users: [{username: "user1"}]}, {name: "Region5", global: true}]) { numUids }
      addTweets(input: [{id: "tweet1", text: "abc", timestamp: "2020-10-10T00:00:00Z"}]) { numUids }
    }`,
  );
  expect(loaded['errors']).toBeUndefined();
  expect(await uploadSchema(server.url, e2eAuthSchema)).toEqual(uploadSucceeded);
}

/** user1 may view both projects (VIEW role), so reads through it see every column and ticket. */
const viewer = { USER: 'user1' };

interface Ids {
  readonly c1: string;
  readonly c2: string;
  readonly t1: string;
  readonly p1: string;
  readonly p2: string;
  readonly a1: string;
  readonly a2: string;
}

async function idsOf(server: ServerProcess): Promise<Ids> {
  const found = (await ask(
    server,
    `{ queryColumn(order: {asc: name}) { colID name } queryTicket { id } queryProject(order: {asc: name}) { projID } queryAuthor(order: {asc: name}) { id } }`,
    viewer,
  )) as { data: { queryColumn: { colID: string }[]; queryTicket: { id: string }[]; queryProject: { projID: string }[]; queryAuthor: { id: string }[] } };
  const { queryColumn: columns, queryTicket: tickets, queryProject: projects, queryAuthor: authors } = found.data;
  return {
    c1: columns[0]?.colID ?? '',
    c2: columns[1]?.colID ?? '',
    t1: tickets[0]?.id ?? '',
    p1: projects[0]?.projID ?? '',
    p2: projects[1]?.projID ?? '',
    a1: authors[0]?.id ?? '',
    a2: authors[1]?.id ?? '',
  };
}

const notExecuted = (name: string, line: number, column: number): unknown => ({
  message: `Mutation ${name} was not executed because of a previous error.`,
  locations: [{ line, column }],
  path: [name],
});

let quiet: ServerProcess;
let loud: ServerProcess;
let ids: Ids;
let loudIds: Ids;

beforeAll(async () => {
  [quiet, loud] = await Promise.all([startServer(), startServer({ args: ['--debug', '--threads', '1'] })]);
  await Promise.all([seed(quiet), seed(loud)]);
  [ids, loudIds] = await Promise.all([idsOf(quiet), idsOf(loud)]);
}, 60_000);
afterAll(async () => {
  await Promise.all([quiet.stop(), loud.stop()]);
});

describe('add rules: every new node is checked after the writes', () => {
  const secrets = '{ querySecrets: queryUserSecret(order: {asc: aSecret}) { aSecret ownedBy } }';

  it('new nodes passing their rule are written (Add one node, Add multiple nodes)', async () => {
    const add = 'mutation { addUserSecret(input: [{aSecret: "s-one", ownedBy: "user1"}, {aSecret: "s-two", ownedBy: "user1"}]) { numUids userSecret(order: {asc: aSecret}) { aSecret ownedBy } } }';
    expect(await ask(quiet, add, { USER: 'user1' })).toEqual({
      data: { addUserSecret: { numUids: 2, userSecret: [{ aSecret: 's-one', ownedBy: 'user1' }, { aSecret: 's-two', ownedBy: 'user1' }] } },
    });
    expect(await ask(quiet, secrets, { USER: 'user1' })).toEqual({ data: { querySecrets: [{ aSecret: 's-one', ownedBy: 'user1' }, { aSecret: 's-two', ownedBy: 'user1' }] } });
  });

  it('one failing node rolls the whole add back: null, no error outside debug mode; later fields are not executed', async () => {
    const add = `mutation {
      a: addUserSecret(input: [{aSecret: "s-kept?", ownedBy: "user1"}, {aSecret: "s-refused", ownedBy: "user2"}]) { numUids }
      b: addUserSecret(input: [{aSecret: "s-after", ownedBy: "user1"}]) { numUids }
    }`;
    expect(await ask(quiet, add, { USER: 'user1' })).toEqual({ errors: [notExecuted('b', 3, 7)], data: { a: null, b: null } });
    for (const user of ['user1', 'user2']) {
      const found = (await ask(quiet, secrets, { USER: user })) as { data: { querySecrets: { aSecret: string }[] } };
      expect(found.data.querySecrets.map((s) => s.aSecret).filter((s) => ['s-kept?', 's-refused', 's-after'].includes(s))).toEqual([]);
    }
  });

  it('a refused field leaves the fields before it in the same request written', async () => {
    const add = `mutation {
      a: addUserSecret(input: [{aSecret: "firstsecret", ownedBy: "user1"}]) { numUids }
      b: addUserSecret(input: [{aSecret: "secondsecret", ownedBy: "user2"}]) { numUids }
    }`;
    expect(await ask(quiet, add, { USER: 'user1' })).toEqual({ data: { a: { numUids: 1 }, b: null } });
    expect(await ask(quiet, '{ queryUserSecret(filter: {aSecret: {anyofterms: "firstsecret secondsecret"}}) { aSecret } }', { USER: 'user1' })).toEqual({
      data: { queryUserSecret: [{ aSecret: 'firstsecret' }] },
    });
    expect(await ask(quiet, '{ queryUserSecret(filter: {aSecret: {anyofterms: "firstsecret secondsecret"}}) { aSecret } }', { USER: 'user2' })).toEqual({ data: { queryUserSecret: [] } });
  });

  it('rules see the writes of the mutations before them, also when sent together (then often one commit group)', async () => {
    const update = (term: string): string => `mutation { updateUserSecret(input: {filter: {aSecret: {anyofterms: "${term}"}}, set: {ownedBy: "user1"}}) { numUids } }`;
    // Pipelined on one connection, so they arrive in this order (separate connections may not).
    const headers = { ...(await tokenHeaders({ USER: 'user1' })), 'content-type': 'application/json' };
    const client = new Client(quiet.url, { pipelining: 3 });
    const send = async (query: string): Promise<Record<string, unknown>> => {
      const answer = await client.request({ path: '/graphql', method: 'POST', headers, body: JSON.stringify({ query }), idempotent: true });
      const body = (await answer.body.json()) as Record<string, unknown>;
      delete body['extensions'];
      return body;
    };
    const [first, added, second] = await Promise.all([
      send(update('groupsecret')),
      send('mutation { addUserSecret(input: [{aSecret: "groupsecret", ownedBy: "user1"}]) { numUids } }'),
      send(update('groupsecret')),
    ]).finally(() => client.close());
    expect([first, added, second]).toEqual([
      { data: { updateUserSecret: { numUids: 0 } } },
      { data: { addUserSecret: { numUids: 1 } } },
      { data: { updateUserSecret: { numUids: 1 } } },
    ]);
  });

  it('in debug mode the refusal is reported as Dgraph does (without locations)', async () => {
    const add = `mutation {
      a: addUserSecret(input: [{aSecret: "s-refused", ownedBy: "user2"}]) { numUids }
      b: addUserSecret(input: [{aSecret: "s-after", ownedBy: "user1"}]) { numUids }
    }`;
    expect(await ask(loud, add, { USER: 'user1' })).toEqual({
      errors: [{ message: 'mutation failed because authorization failed', path: ['a'] }, notExecuted('b', 3, 7)],
      data: { a: null, b: null },
    });
    expect(await ask(loud, secrets, { USER: 'user2' })).toEqual({ data: { querySecrets: [] } });
  });

  it('RBAC: Log needs ROLE ADMIN (Add with top level RBAC false / true)', async () => {
    const add = 'mutation { addLog(input: [{logs: "log123", random: "random123", pwd: "password"}]) { numUids log { logs random } } }';
    expect(await ask(quiet, add, { USER: 'user1' })).toEqual({ data: { addLog: null } });
    expect(await ask(loud, add, { USER: 'user1' })).toEqual({ errors: [{ message: 'mutation failed because authorization failed', path: ['addLog'] }], data: { addLog: null } });
    expect(await ask(quiet, '{ queryLog { logs } }', { ROLE: 'ADMIN' })).toEqual({ data: { queryLog: [] } });
    expect(await ask(quiet, add, { ROLE: 'ADMIN', USER: 'user1' })).toEqual({ data: { addLog: { numUids: 1, log: [{ logs: 'log123', random: 'random123' }] } } });
    expect(await ask(quiet, '{ queryLog { logs } }', { ROLE: 'ADMIN' })).toEqual({ data: { queryLog: [{ logs: 'log123' }] } });
  });

  it('OR of a graph rule and RBAC: Project (Add with top level OR RBAC true / false)', async () => {
    const add = (name: string, roles = ''): string => `mutation { addProject(input: [{name: "${name}", pwd: "password"${roles}}]) { numUids project { name } } }`;
    expect(await ask(quiet, add('P-admin'), { USER: 'user1', ROLE: 'ADMIN' })).toEqual({ data: { addProject: { numUids: 1, project: [{ name: 'P-admin' }] } } });
    expect(await ask(quiet, add('P-user'), { USER: 'user1', ROLE: 'USER' })).toEqual({ data: { addProject: null } });
    // The graph rule reads what the add wrote: a new ADMIN role assigned to $USER (an existing user, linked).
    const roles = ', roles: [{permission: ADMIN, assignedTo: [{username: "user1"}]}]';
    // The payload is read under the query rule (a VIEW role for $USER, or ROLE ADMIN): user1 may add P-roles but not read it.
    expect(await ask(quiet, add('P-roles', roles), { USER: 'user1', ROLE: 'USER' })).toEqual({ data: { addProject: { numUids: 2, project: [] } } });
    expect(await ask(quiet, add('P-other', roles), { USER: 'user2', ROLE: 'USER' })).toEqual({ data: { addProject: null } });
    const names = (await ask(quiet, '{ queryProject(order: {asc: name}) { name } }', { ROLE: 'ADMIN' })) as { data: { queryProject: { name: string }[] } };
    expect(names.data.queryProject.map((p) => p.name)).toEqual(['P-admin', 'P-roles', 'P1', 'P2']);
  });

  it('deep: each new node under its own type rule (Add multiple nodes of different types, and that fails auth)', async () => {
    const add = (project: string, column: string): string =>
      `mutation { addColumn(input: [{inProject: {projID: "${project}"}, name: "${column}", tickets: [{title: "${column}-ticket"}]}]) { numUids column { name tickets { title } } } }`;
    // user1: ADMIN (Column) and EDIT (Ticket) on P1.
    expect(await ask(quiet, add(ids.p1, 'C-deep'), { USER: 'user1' })).toEqual({
      data: { addColumn: { numUids: 2, column: [{ name: 'C-deep', tickets: [{ title: 'C-deep-ticket' }] }] } },
    });
    // user3: EDIT on P1 (the ticket would pass) but not ADMIN (the column fails): nothing stays.
    expect(await ask(quiet, add(ids.p1, 'C-refused'), { USER: 'user3' })).toEqual({ data: { addColumn: null } });
    const columns = (await ask(quiet, '{ queryColumn(order: {asc: name}) { name } queryTicket(order: {asc: title}) { title } }', viewer)) as {
      data: { queryColumn: { name: string }[]; queryTicket: { title: string }[] };
    };
    expect(columns.data.queryColumn.map((c) => c.name)).toEqual(['C-deep', 'C1', 'C2']);
    expect(columns.data.queryTicket.map((t) => t.title)).toEqual(['C-deep-ticket', 'T1']);
  });

  it('interfaces: a type is checked against its own add rule and its interfaces\' (Question: $ANS and Post\'s author)', async () => {
    const add = (text: string, author: string, answered: boolean): string =>
      `mutation { addQuestion(input: [{text: "${text}", pwd: "password", answered: ${String(answered)}, author: {id: "${author}"}}]) { numUids question { text } } }`;
    expect(await ask(quiet, add('Q-ok', ids.a1, true), { USER: 'user1', ANS: true })).toEqual({ data: { addQuestion: { numUids: 1, question: [{ text: 'Q-ok' }] } } });
    expect(await ask(quiet, add('Q-post-rule', ids.a1, true), { USER: 'user2', ANS: true })).toEqual({ data: { addQuestion: null } });
    expect(await ask(quiet, add('Q-own-rule', ids.a1, true), { USER: 'user1', ANS: false })).toEqual({ data: { addQuestion: null } });
    // Answer has only Post's rule.
    const answer = `mutation { addAnswer(input: [{text: "A-ok", pwd: "password", author: {id: "${ids.a2}"}}]) { numUids } }`;
    expect(await ask(quiet, answer, { USER: 'user1' })).toEqual({ data: { addAnswer: null } });
    expect(await ask(quiet, answer, { USER: 'user2' })).toEqual({ data: { addAnswer: { numUids: 1 } } });
    expect(await ask(quiet, '{ queryPost(order: {asc: text}) { text } }', { USER: 'user1', ANS: true })).toEqual({ data: { queryPost: [{ text: 'Q-ok' }] } });
    expect(await ask(quiet, '{ queryPost(order: {asc: text}) { text } }', { USER: 'user2', ANS: true })).toEqual({ data: { queryPost: [{ text: 'A-ok' }] } });
  });

  it('RBAC rule on an interface (Add type with RBAC rule on interface successfully / failed)', async () => {
    const add = `mutation { addFbPost(input: [{text: "F1", pwd: "password", author: {id: "${ids.a1}"}, postCount: 5}]) { numUids fbPost { text author { name } } } }`;
    expect(await ask(quiet, add, { USER: 'user1', ROLE: 'USER' })).toEqual({ data: { addFbPost: null } });
    expect(await ask(quiet, add, { USER: 'user1', ROLE: 'ADMIN' })).toEqual({ data: { addFbPost: { numUids: 1, fbPost: [{ text: 'F1', author: { name: 'user1' } }] } } });
  });

  it('Movie: not (hidden) and (a region of $USER or a global one), over the new nodes only', async () => {
    const regions = (await ask(quiet, '{ queryRegion(order: {asc: name}) { id } }')) as { data: { queryRegion: { id: string }[] } };
    const [r1 = '', r5 = ''] = regions.data.queryRegion.map((r) => r.id);
    const add = (content: string, extra: string): string => `mutation { addMovie(input: [{content: "${content}", ${extra}}]) { numUids } }`;
    expect(await ask(quiet, add('M-user1', `regionsAvailable: [{id: "${r1}"}]`), { USER: 'user1' })).toEqual({ data: { addMovie: { numUids: 1 } } });
    expect(await ask(quiet, add('M-user2', `regionsAvailable: [{id: "${r1}"}]`), { USER: 'user2' })).toEqual({ data: { addMovie: null } });
    expect(await ask(quiet, add('M-hidden', `hidden: true, regionsAvailable: [{id: "${r5}"}]`), { USER: 'user2' })).toEqual({ data: { addMovie: null } });
    // A new global region written by the same add lets its movie through.
    expect(await ask(quiet, add('M-new-region', 'regionsAvailable: [{name: "R-new", global: true}]'), { USER: 'nobody' })).toEqual({ data: { addMovie: { numUids: 2 } } });
    expect(await ask(quiet, '{ queryMovie(order: {asc: content}) { content } }', { USER: 'user1' })).toEqual({ data: { queryMovie: [{ content: 'M-new-region' }, { content: 'M-user1' }] } });
  });

  it('nested references to existing nodes are not new: their add rules are not checked', async () => {
    // Tweets' add rule needs USER foo: linking the existing tweet passes, creating one does not.
    const link = 'mutation { addUser(input: [{username: "user9", password: "password", tweets: [{id: "tweet1"}]}]) { numUids } }';
    expect(await ask(quiet, link, { USER: 'user1' })).toEqual({ data: { addUser: { numUids: 1 } } });
    const create = 'mutation { addUser(input: [{username: "user10", password: "password", tweets: [{id: "tweet2", text: "t", timestamp: "2020-10-10T00:00:00Z"}]}]) { numUids } }';
    expect(await ask(quiet, create, { USER: 'user1' })).toEqual({ data: { addUser: null } });
    expect(await ask(quiet, '{ queryUser(filter: {username: {in: ["user9", "user10"]}}) { username tweets { id } } }', { ROLE: 'admin' })).toEqual({
      data: { queryUser: [{ username: 'user9', tweets: [{ id: 'tweet1' }] }] },
    });
  });
});

describe('edges taken from existing nodes need their update rules (Dgraph\'s additional deletes)', () => {
  const ticketColumn = (server: ServerProcess, id: string): Promise<unknown> =>
    ask(server, `{ getTicket(id: "${id}") { title onColumn { name } } }`, viewer).then((r) => (r as { data: { getTicket: unknown } }).data.getTicket);

  it('add: linking a ticket takes it from its column, whose update rule must pass (Add with auth on additional delete, and that fails)', async () => {
    for (const [server, known] of [[quiet, ids], [loud, loudIds]] as const) {
      // user2 may add a column to P2 (ADMIN there), but not update C1 (P1), which holds T1.
      const answer = await ask(server, `mutation { addColumn(input: [{inProject: {projID: "${known.p2}"}, name: "C-moved", tickets: [{id: "${known.t1}"}]}]) { numUids } }`, { USER: 'user2' });
      if (server === quiet) expect(answer).toEqual({ data: { addColumn: null } });
      else expect(answer).toEqual({ errors: [{ message: "couldn't rewrite query for mutation addColumn because authorization failed", path: ['addColumn'] }], data: { addColumn: null } });
      expect(await ticketColumn(server, known.t1)).toEqual({ title: 'T1', onColumn: { name: 'C1' } });
    }
    // user1 may update C1: the ticket moves.
    const moved = `mutation { addColumn(input: [{inProject: {projID: "${ids.p1}"}, name: "C-moved", tickets: [{id: "${ids.t1}"}]}]) { numUids column { name tickets { title } } } }`;
    expect(await ask(quiet, moved, { USER: 'user1' })).toEqual({ data: { addColumn: { numUids: 1, column: [{ name: 'C-moved', tickets: [{ title: 'T1' }] }] } } });
    expect(await ticketColumn(quiet, ids.t1)).toEqual({ title: 'T1', onColumn: { name: 'C-moved' } });
    expect(await ask(quiet, `{ getColumn(colID: "${ids.c1}") { name tickets { title } } }`, viewer)).toEqual({ data: { getColumn: { name: 'C1', tickets: [] } } });
  });

  it('update, single edge: the old target loses the inverse edge (update with auth on additional delete (updt single edge), and that fails)', async () => {
    // T1 is on C-moved (P1): back to C1 (user1 is ADMIN and EDIT on P1).
    const toColumn = (column: string): string => `mutation { updateTicket(input: {filter: {id: ["${ids.t1}"]}, set: {onColumn: {colID: "${column}"}}}) { numUids ticket { title onColumn { name } } } }`;
    expect(await ask(quiet, toColumn(ids.c1), { USER: 'user1' })).toEqual({ data: { updateTicket: { numUids: 1, ticket: [{ title: 'T1', onColumn: { name: 'C1' } }] } } });
    // user3 may update the ticket (EDIT on P1) but not C1, which would lose it (ADMIN on P1).
    expect(await ask(quiet, toColumn(ids.c2), { USER: 'user3' })).toEqual({ data: { updateTicket: null } });
    expect(await ticketColumn(quiet, ids.t1)).toEqual({ title: 'T1', onColumn: { name: 'C1' } });
    expect(await ask(quiet, toColumn(ids.c2), { USER: 'user1' })).toEqual({ data: { updateTicket: { numUids: 1, ticket: [{ title: 'T1', onColumn: { name: 'C2' } }] } } });
  });

  it('update, list edge: the linked node\'s single inverse edge is taken from its holder (updt list edge, and that fails)', async () => {
    // T1 is on C2 (P2) now.
    const take = (column: string): string => `mutation { updateColumn(input: {filter: {colID: ["${column}"]}, set: {tickets: [{id: "${ids.t1}"}]}}) { numUids } }`;
    const c3 = (await ask(quiet, '{ queryColumn(filter: {name: {eq: "C-deep"}}) { colID } }', viewer)) as { data: { queryColumn: { colID: string }[] } };
    const deep = c3.data.queryColumn[0]?.colID ?? '';
    // user1 may update C-deep (P1) and C2 (P2, which loses T1): ADMIN on both.
    expect(await ask(quiet, take(deep), { USER: 'user1' })).toEqual({ data: { updateColumn: { numUids: 1 } } });
    expect(await ticketColumn(quiet, ids.t1)).toEqual({ title: 'T1', onColumn: { name: 'C-deep' } });
    // user2 may update C2 (ADMIN on P2) but not C-deep (P1), which would lose T1.
    expect(await ask(quiet, take(ids.c2), { USER: 'user2' })).toEqual({ data: { updateColumn: null } });
    expect(await ticketColumn(quiet, ids.t1)).toEqual({ title: 'T1', onColumn: { name: 'C-deep' } });
  });

  it('deep: a new project\'s new column takes a ticket from its column (Add with deep auth on additional delete, and that fails)', async () => {
    const add = (user: string, name: string): string =>
      `mutation { addProject(input: [{name: "${name}", pwd: "password", roles: [{permission: ADMIN, assignedTo: [{username: "${user}"}]}, {permission: VIEW, assignedTo: [{username: "user1"}]}], columns: [{name: "${name}-col", tickets: [{id: "${ids.t1}"}]}]}]) { numUids } }`;
    // user2: the new project and column pass their add rules (ADMIN role for user2), but T1's column (C-deep, P1) refuses user2's update.
    expect(await ask(quiet, add('user2', 'P-deep2'), { USER: 'user2' })).toEqual({ data: { addProject: null } });
    expect(await ticketColumn(quiet, ids.t1)).toEqual({ title: 'T1', onColumn: { name: 'C-deep' } });
    expect(await ask(quiet, add('user1', 'P-deep1'), { USER: 'user1' })).toEqual({ data: { addProject: { numUids: 4 } } });
    expect(await ticketColumn(quiet, ids.t1)).toEqual({ title: 'T1', onColumn: { name: 'P-deep1-col' } });
  });
});

describe('update: nodes created by set are checked by their add rules', () => {
  it('Update a node that does a deep add (and fails auth)', async () => {
    const update = (column: string, title: string): string =>
      `mutation { updateColumn(input: {filter: {colID: ["${column}"]}, set: {tickets: [{title: "${title}"}]}}) { numUids column { name } } }`;
    expect(await ask(quiet, update(ids.c1, 'T-new'), { USER: 'user1' })).toEqual({ data: { updateColumn: { numUids: 1, column: [{ name: 'C1' }] } } });
    // user2 may update C2 (ADMIN on P2) but has no EDIT role there for the new ticket.
    expect(await ask(quiet, update(ids.c2, 'T-refused'), { USER: 'user2' })).toEqual({ data: { updateColumn: null } });
    expect(await ask(loud, update(loudIds.c2, 'T-refused'), { USER: 'user2' })).toEqual({
      errors: [{ message: 'mutation failed because authorization failed', path: ['updateColumn'] }],
      data: { updateColumn: null },
    });
    for (const [server, known] of [[quiet, ids], [loud, loudIds]] as const) {
      expect(await ask(server, `{ getColumn(colID: "${known.c2}") { name tickets(filter: {title: {anyofterms: "T-refused"}}) { title } } }`, viewer)).toEqual({
        data: { getColumn: { name: 'C2', tickets: [] } },
      });
    }
  });
});

describe('upserts: an existing node its update rule refuses changes nothing', () => {
  it('Upsert Add Mutation with RBAC false / true (Tweets: USER foo)', async () => {
    const upsert = 'mutation { addTweets(input: [{id: "tweet1", text: "changed", timestamp: "2021-01-01T00:00:00Z"}], upsert: true) { tweets { id text } } }';
    expect(await ask(quiet, upsert, { USER: 'not foo', ROLE: 'admin' })).toEqual({ data: { addTweets: { tweets: [] } } });
    expect(await ask(quiet, '{ queryTweets { id text } }', { ROLE: 'admin' })).toEqual({ data: { queryTweets: [{ id: 'tweet1', text: 'abc' }] } });
    expect(await ask(quiet, upsert, { USER: 'foo', ROLE: 'admin' })).toEqual({ data: { addTweets: { tweets: [{ id: 'tweet1', text: 'changed' }] } } });
  });

  it('Upsert with Deep Auth: the state under its update rule, a new country under its add rule; nested nodes of a refused upsert are not written', async () => {
    const upsert = (owner: string, country: string): string =>
      `mutation { addState(input: [{code: "mh", name: "Maharashtra", ownedBy: "user1", country: {id: "${country}", name: "${country}", ownedBy: "${owner}"}}], upsert: true) { state { code country { id } } } }`;
    // user2 fails State's update rule: the new country (whose add rule user2 passes) is not written either.
    expect(await ask(quiet, upsert('user2', 'c-user2'), { USER: 'user2' })).toEqual({ data: { addState: { state: [] } } });
    // user1 passes the update rule, but the new country fails its add rule: the whole add is refused.
    expect(await ask(quiet, upsert('user2', 'c-refused'), { USER: 'user1' })).toEqual({ data: { addState: null } });
    expect(await ask(quiet, '{ queryCountry { id } queryState { code country { id } } }')).toEqual({ data: { queryCountry: [], queryState: [{ code: 'mh', country: null }] } });
    expect(await ask(quiet, upsert('user1', 'in'), { USER: 'user1' })).toEqual({ data: { addState: { state: [{ code: 'mh', country: { id: 'in' } }] } } });
    expect(await ask(quiet, '{ queryCountry { id states { code } } }')).toEqual({ data: { queryCountry: [{ id: 'in', states: [{ code: 'mh' }] }] } });
  });
});

describe('update and delete: the rules let nodes through as the field starts (no error)', () => {
  it('ComplexLog: add and update under not-RBAC, delete under RBAC or a graph rule', async () => {
    const add = 'mutation { addComplexLog(input: [{logs: "CL-visible", visible: true}, {logs: "CL-hidden", visible: false}]) { numUids } }';
    expect(await ask(quiet, add, { ROLE: 'USER' })).toEqual({ data: { addComplexLog: null } });
    expect(await ask(quiet, add, { ROLE: 'ADMIN' })).toEqual({ data: { addComplexLog: { numUids: 2 } } });
    const update = 'mutation { updateComplexLog(input: {filter: {has: logs}, set: {visible: true}}) { numUids } }';
    expect(await ask(quiet, update, { ROLE: 'USER' })).toEqual({ data: { updateComplexLog: { numUids: 0 } } });
    const read = '{ queryComplexLog(order: {asc: logs}) { logs visible } }';
    expect(await ask(quiet, read, { ROLE: 'ADMIN' })).toEqual({ data: { queryComplexLog: [{ logs: 'CL-hidden', visible: false }, { logs: 'CL-visible', visible: true }] } });
    const back = 'mutation { updateComplexLog(input: {filter: {visible: false}, set: {logs: "CL-hidden2"}}) { numUids } }';
    expect(await ask(quiet, back, { ROLE: 'EDITOR' })).toEqual({ data: { updateComplexLog: { numUids: 1 } } });
    expect(await ask(quiet, read, { ROLE: 'ADMIN' })).toEqual({ data: { queryComplexLog: [{ logs: 'CL-hidden2', visible: false }, { logs: 'CL-visible', visible: true }] } });
    // Delete: without ROLE ADMIN only the visible log (the graph rule).
    const remove = 'mutation { deleteComplexLog(filter: {has: logs}) { numUids msg } }';
    expect(await ask(quiet, remove, { ROLE: 'USER' })).toEqual({ data: { deleteComplexLog: { numUids: 1, msg: 'Deleted' } } });
    expect(await ask(quiet, read, { ROLE: 'ADMIN' })).toEqual({ data: { queryComplexLog: [{ logs: 'CL-hidden2', visible: false }] } });
    expect(await ask(quiet, remove, { ROLE: 'ADMIN' })).toEqual({ data: { deleteComplexLog: { numUids: 1, msg: 'Deleted' } } });
    expect(await ask(quiet, read, { ROLE: 'ADMIN' })).toEqual({ data: { queryComplexLog: [] } });
  });

  it('Issue: add and update under RBAC and a graph rule (top level AND RBAC true / false)', async () => {
    const add = 'mutation { addIssue(input: [{msg: "I1", owner: {username: "user1"}}]) { numUids } }';
    expect(await ask(quiet, add, { ROLE: 'USER', USER: 'user1' })).toEqual({ data: { addIssue: null } });
    expect(await ask(quiet, add, { ROLE: 'ADMIN', USER: 'user2' })).toEqual({ data: { addIssue: null } });
    expect(await ask(quiet, add, { ROLE: 'ADMIN', USER: 'user1' })).toEqual({ data: { addIssue: { numUids: 1 } } });
    const update = 'mutation { updateIssue(input: {filter: {has: msg}, set: {random: "r"}}) { numUids issue { msg random } } }';
    expect(await ask(quiet, update, { ROLE: 'USER', USER: 'user1' })).toEqual({ data: { updateIssue: { numUids: 0, issue: [] } } });
    expect(await ask(quiet, update, { ROLE: 'ADMIN', USER: 'user1' })).toEqual({ data: { updateIssue: { numUids: 1, issue: [{ msg: 'I1', random: 'r' }] } } });
    const remove = 'mutation { deleteIssue(filter: {has: msg}) { numUids } }';
    expect(await ask(quiet, remove, { ROLE: 'USER', USER: 'user1' })).toEqual({ data: { deleteIssue: { numUids: 0 } } });
    expect(await ask(quiet, remove, { ROLE: 'ADMIN', USER: 'user1' })).toEqual({ data: { deleteIssue: { numUids: 1 } } });
    expect(await ask(quiet, '{ queryIssue { msg } }', { ROLE: 'ADMIN', USER: 'user1' })).toEqual({ data: { queryIssue: [] } });
  });

  it('Project: update under a graph rule or RBAC (top level OR RBAC false / true)', async () => {
    const update = 'mutation { updateProject(input: {filter: {name: {eq: "P1"}}, set: {random: "or"}}) { numUids project { name random } } }';
    expect(await ask(quiet, update, { USER: 'user2', ROLE: 'USER' })).toEqual({ data: { updateProject: { numUids: 0, project: [] } } });
    expect(await ask(quiet, update, { USER: 'user2', ROLE: 'ADMIN' })).toEqual({ data: { updateProject: { numUids: 1, project: [{ name: 'P1', random: 'or' }] } } });
    expect(await ask(quiet, update, { USER: 'user1', ROLE: 'USER' })).toEqual({ data: { updateProject: { numUids: 1, project: [{ name: 'P1', random: 'or' }] } } });
  });

  it('Role: delete under not-RBAC (top level not RBAC false / true)', async () => {
    const roles = (await ask(quiet, '{ queryProject(filter: {name: {eq: "P-roles"}}) { roles { id } } }', { ROLE: 'ADMIN' })) as { data: { queryProject: { roles: { id: string }[] }[] } };
    const role = roles.data.queryProject[0]?.roles[0]?.id ?? '';
    const remove = `mutation { deleteRole(filter: {id: ["${role}"]}) { numUids } }`;
    expect(await ask(quiet, remove, { ROLE: 'USER' })).toEqual({ data: { deleteRole: { numUids: 0 } } });
    expect(await ask(quiet, remove, { ROLE: 'EDITOR' })).toEqual({ data: { deleteRole: { numUids: 1 } } });
    expect(await ask(quiet, '{ queryProject(filter: {name: {eq: "P-roles"}}) { roles { id } } }', { ROLE: 'ADMIN' })).toEqual({ data: { queryProject: [{ roles: [] }] } });
  });

  it('interfaces: update<T> of an implementation under its rules and its interface\'s; update and delete of an interface node by node', async () => {
    const question = 'mutation { updateQuestion(input: {filter: {has: text}, set: {topic: "q"}}) { numUids } }';
    expect(await ask(quiet, question, { USER: 'user2', ANS: true })).toEqual({ data: { updateQuestion: { numUids: 0 } } });
    expect(await ask(quiet, question, { USER: 'user1', ANS: true })).toEqual({ data: { updateQuestion: { numUids: 1 } } });
    // Q-ok (Question's and Post's rules), F1 (Post's and MsgPost's: ROLE ADMIN); A-ok is user2's.
    const post = 'mutation { updatePost(input: {filter: {has: text}, set: {topic: "p"}}) { numUids } }';
    expect(await ask(quiet, post, { USER: 'user1', ANS: true, ROLE: 'USER' })).toEqual({ data: { updatePost: { numUids: 1 } } });
    expect(await ask(quiet, post, { USER: 'user1', ANS: true, ROLE: 'ADMIN' })).toEqual({ data: { updatePost: { numUids: 2 } } });
    const read = '{ queryPost(order: {asc: text}) { text topic } }';
    expect(await ask(quiet, read, { USER: 'user1', ANS: true, ROLE: 'ADMIN' })).toEqual({ data: { queryPost: [{ text: 'F1', topic: 'p' }, { text: 'Q-ok', topic: 'p' }] } });
    expect(await ask(quiet, read, { USER: 'user2', ANS: true, ROLE: 'ADMIN' })).toEqual({ data: { queryPost: [{ text: 'A-ok', topic: null }] } });
    const remove = 'mutation { deletePost(filter: {has: text}) { numUids } }';
    expect(await ask(quiet, remove, { USER: 'user1', ANS: true, ROLE: 'USER' })).toEqual({ data: { deletePost: { numUids: 1 } } });
    expect(await ask(quiet, read, { USER: 'user1', ANS: true, ROLE: 'ADMIN' })).toEqual({ data: { queryPost: [{ text: 'F1', topic: 'p' }] } });
  });
});

describe('delete: the delete rule, no deeper (references into deleted nodes go without a rule check)', () => {
  it('Delete with deep auth (Ticket: EDIT on its project), its column forgets it', async () => {
    const remove = 'mutation { deleteTicket(filter: {title: {anyofterms: "T-new"}}) { numUids ticket { title } } }';
    expect(await ask(quiet, remove, { USER: 'user2' })).toEqual({ data: { deleteTicket: { numUids: 0, ticket: [] } } });
    // The payload is read under the query rule: user3 may delete the ticket (EDIT) but not read it (VIEW).
    expect(await ask(quiet, remove, { USER: 'user3' })).toEqual({ data: { deleteTicket: { numUids: 1, ticket: [] } } });
    expect(await ask(quiet, `{ getColumn(colID: "${ids.c1}") { name tickets { title } } }`, viewer)).toEqual({ data: { getColumn: { name: 'C1', tickets: [] } } });
  });

  it('Delete with inverse field and RBAC true / false (Tweets: USER foo; the user\'s inverse edge goes)', async () => {
    const remove = 'mutation { deleteTweets(filter: {id: {eq: "tweet1"}}) { numUids } }';
    expect(await ask(quiet, remove, { USER: 'bar', ROLE: 'admin' })).toEqual({ data: { deleteTweets: { numUids: 0 } } });
    expect(await ask(quiet, remove, { USER: 'foo', ROLE: 'admin' })).toEqual({ data: { deleteTweets: { numUids: 1 } } });
    expect(await ask(quiet, '{ queryUser(filter: {username: {eq: "user9"}}) { username tweets { id } } queryTweets { id } }', { ROLE: 'admin' })).toEqual({
      data: { queryUser: [{ username: 'user9', tweets: [] }], queryTweets: [] },
    });
  });

  it('Multiple rule in delete mutation (User: $USER and public)', async () => {
    const remove = 'mutation { deleteUser(filter: {username: {eq: "user3"}}) { numUids } }';
    expect(await ask(quiet, remove, { USER: 'user2' })).toEqual({ data: { deleteUser: { numUids: 0 } } });
    expect(await ask(quiet, remove, { USER: 'user3' })).toEqual({ data: { deleteUser: { numUids: 1 } } });
    expect(await ask(quiet, '{ queryUser(filter: {username: {in: ["user2", "user3"]}}) { username } }')).toEqual({ data: { queryUser: [{ username: 'user2' }] } });
  });
});

describe('existence errors about types with query rules are for debug mode only ("GraphQL debug:")', () => {
  it('an @id already taken (TestAddMutationWithXid) and an interface @id taken by another implementation', async () => {
    const tweet = 'mutation { addTweets(input: [{id: "tweet-x", text: "abc", timestamp: "2020-10-10T00:00:00Z"}]) { numUids } }';
    const member = (type: string, name: string): string => `mutation { add${type}(input: [{refID: "101", name: "${name}"}]) { numUids } }`;
    const because = "couldn't rewrite mutation addTweets because failed to rewrite mutation payload because";
    for (const server of [quiet, loud]) {
      expect(await ask(server, tweet, { USER: 'foo' })).toEqual({ data: { addTweets: { numUids: 1 } } });
      expect(await ask(server, member('LibraryMember', 'Alice'))).toEqual({ data: { addLibraryMember: { numUids: 1 } } });
    }
    expect(await ask(quiet, tweet, { USER: 'foo' })).toEqual({ data: { addTweets: null } });
    expect(await ask(loud, tweet, { USER: 'foo' })).toEqual({
      errors: [{ message: `${because} GraphQL debug: id tweet-x already exists for field id inside type Tweets`, locations: [{ line: 1, column: 12 }], path: ['addTweets'] }],
      data: { addTweets: null },
    });
    expect(await ask(quiet, member('SportsMember', 'Bob'))).toEqual({ data: { addSportsMember: null } });
    expect(await ask(loud, member('SportsMember', 'Bob'))).toEqual({
      errors: [
        {
          message: "couldn't rewrite mutation addSportsMember because failed to rewrite mutation payload because GraphQL debug: id 101 already exists for field refID in some other implementing type of interface Member",
          locations: [{ line: 1, column: 12 }],
          path: ['addSportsMember'],
        },
      ],
      data: { addSportsMember: null },
    });
    // Types without query rules keep the plain text (User has only a delete rule).
    const user = 'mutation { addUser(input: [{username: "user1", password: "password"}]) { numUids } }';
    expect(await ask(quiet, user)).toEqual({
      errors: [{ message: "couldn't rewrite mutation addUser because failed to rewrite mutation payload because id user1 already exists for field username inside type User", locations: [{ line: 1, column: 12 }], path: ['addUser'] }],
      data: { addUser: null },
    });
  });
});

describe('an update giving @id values to several nodes fails (Dgraph\'s check after the mutation)', () => {
  it('plain for a type without query rules, "GraphQL debug:" (debug mode only) for Employer', async () => {
    for (const server of [quiet, loud]) {
      const seeded = await ask(server, `mutation {
        addWorker(input: [{empId: "E1", regNo: 1}, {empId: "E2", regNo: 2}]) { numUids }
        addEmployer(input: [{company: "ABC tech", name: "ABC"}, {company: "XYZ tech", name: "XYZ"}]) { numUids }
      }`);
      expect(seeded).toEqual({ data: { addWorker: { numUids: 2 }, addEmployer: { numUids: 2 } } });
      expect(await ask(server, 'mutation { updateWorker(input: {filter: {regNo: {in: [1, 2]}}, set: {empId: "E9"}}) { numUids } }')).toEqual({
        errors: [{ message: 'mutation updateWorker failed because only one node is allowed in the filter while updating fields with @id directive', path: ['updateWorker'] }],
        data: { updateWorker: null },
      });
      // One node: the @id value changes.
      expect(await ask(server, 'mutation { updateWorker(input: {filter: {regNo: {in: [1]}}, set: {empId: "E9"}}) { numUids worker { empId } } }')).toEqual({
        data: { updateWorker: { numUids: 1, worker: [{ empId: 'E9' }] } },
      });
    }
    const employers = 'mutation { updateEmployer(input: {filter: {name: {in: ["ABC", "XYZ"]}}, set: {company: "JKL"}}) { numUids } }';
    expect(await ask(quiet, employers, { ROLE: 'ADMIN' })).toEqual({ data: { updateEmployer: null } });
    expect(await ask(loud, employers, { ROLE: 'ADMIN' })).toEqual({
      errors: [{ message: 'mutation updateEmployer failed because GraphQL debug: only one node is allowed in the filter while updating fields with @id directive', path: ['updateEmployer'] }],
      data: { updateEmployer: null },
    });
    for (const server of [quiet, loud]) {
      expect(await ask(server, '{ queryWorker(order: {asc: regNo}) { empId regNo } queryEmployer(order: {asc: name}) { company } }', { ROLE: 'ADMIN' })).toEqual({
        data: { queryWorker: [{ empId: 'E9', regNo: 1 }, { empId: 'E2', regNo: 2 }], queryEmployer: [{ company: 'ABC tech' }, { company: 'XYZ tech' }] },
      });
    }
  });
});

describe('ClosedByDefault: mutations without a token (debug mode, as Dgraph\'s e2e suite)', () => {
  it('an add fails its new-node check, an update or delete its rewrite; with a token they run', async () => {
    const closed = await startWithSchema(e2eClosedSchema, { args: ['--debug', '--threads', '1'] });
    try {
      const missing = 'a valid JWT is required but was not provided';
      for (const name of ['addUserSecret', 'addTodo']) {
        const input = name === 'addTodo' ? '{owner: "Alice", text: "Hi"}' : '{aSecret: "s", ownedBy: "user1"}';
        expect(await ask(closed, `mutation { ${name}(input: [${input}]) { numUids } }`)).toEqual({
          errors: [{ message: `mutation failed because authorization failed because ${missing}`, path: [name] }],
          data: { [name]: null },
        });
      }
      for (const [name, args] of [
        ['updateIssue', 'input: {filter: {id: ["0x1"]}, set: {random: "test"}}'],
        ['updateTodo', 'input: {filter: {id: ["0x1"]}, set: {text: "test"}}'],
        ['deleteComplexLog', 'filter: {id: ["0x1"]}'],
        ['deleteTodo', 'filter: {id: ["0x1"]}'],
      ] as const) {
        expect(await ask(closed, `mutation { ${name}(${args}) { numUids } }`)).toEqual({
          errors: [{ message: `couldn't rewrite mutation ${name} because ${missing}`, path: [name] }],
          data: { [name]: null },
        });
      }
      expect(await ask(closed, '{ queryTodo { text } }', { USER: 'user1' })).toEqual({ data: { queryTodo: [] } });
      expect(await ask(closed, 'mutation { addTodo(input: [{owner: "Alice", text: "Hi"}]) { numUids } }', { USER: 'user1' })).toEqual({ data: { addTodo: { numUids: 1 } } });
      expect(await ask(closed, '{ queryTodo { text } }', { USER: 'user1' })).toEqual({ data: { queryTodo: [{ text: 'Hi' }] } });
    } finally {
      await closed.stop();
    }
  }, 30_000);
});

describe('a refused add leaves nothing in the log', () => {
  it('after a restart the refused add is absent and the accepted one present, and no log or snapshot file holds the refused values', async () => {
    const dir = makeTempDir();
    const flags = ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir];
    try {
      let server = await startServer({ rawArgs: flags });
      await seed(server);
      expect(await ask(server, 'mutation { addUserSecret(input: [{aSecret: "refused-marker", ownedBy: "user2"}]) { numUids } }', { USER: 'user1' })).toEqual({ data: { addUserSecret: null } });
      expect(await ask(server, 'mutation { addUserSecret(input: [{aSecret: "accepted-marker", ownedBy: "user1"}]) { numUids } }', { USER: 'user1' })).toEqual({ data: { addUserSecret: { numUids: 1 } } });
      // Sent together, so that refused and accepted adds share commit groups (one transaction, a savepoint each).
      const together = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          ask(server, `mutation { addUserSecret(input: [{aSecret: "${i % 2 === 0 ? 'refused' : 'accepted'}-marker-${i}", ownedBy: "${i % 2 === 0 ? 'user2' : 'user1'}"}]) { numUids } }`, { USER: 'user1' }),
        ),
      );
      expect(together).toEqual(Array.from({ length: 8 }, (_, i) => ({ data: { addUserSecret: i % 2 === 0 ? null : { numUids: 1 } } })));
      await server.stop();
      const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
      const contents = files.map((f) => readFileSync(join(f.parentPath, f.name)));
      expect(contents.some((c) => c.includes('accepted-marker'))).toBe(true);
      expect(contents.some((c) => c.includes('refused-marker'))).toBe(false);
      server = await startServer({ rawArgs: flags });
      try {
        expect(await ask(server, '{ queryUserSecret(order: {asc: aSecret}) { aSecret } }', { USER: 'user1' })).toEqual({
          data: { queryUserSecret: ['accepted-marker', 'accepted-marker-1', 'accepted-marker-3', 'accepted-marker-5', 'accepted-marker-7'].map((aSecret) => ({ aSecret })) },
        });
        expect(await ask(server, '{ queryUserSecret { aSecret } }', { USER: 'user2' })).toEqual({ data: { queryUserSecret: [] } });
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
