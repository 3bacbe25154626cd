// Issue #16's foundation: the log is the truth. A writer's records, applied to fresh engines (handed over
// in memory as the writer publishes them, or read from its log files, or after a copy of its snapshot),
// give the same state: equal digests, equal LSNs, equal answers — at another time of day too (replay
// reads no clock: `$now` defaults, ids and password hashes come from the records).

import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminHost, Engine, SubscriptionEvent } from '../../../engine/index.js';
import { logFileHeader } from '../../../engine/persist/log-format.js';
import { openEngine, tempDir } from './engine-helpers.js';

const acl = { secret: new Uint8Array(32).fill(7), accessTtlMs: 3_600_000, refreshTtlMs: 3_600_000 };

const schemaV1 = `
type Author {
  name: String! @id
  born: DateTime @default(add: { value: "$now" })
  posts: [Post] @hasInverse(field: author)
}
type Post {
  id: ID!
  title: String! @search(by: [term])
  tags: [String]
  score: Float
  author: Author
}
`;
// The second upload adds a field and an index (a schema record between mutations).
const schemaV2 = schemaV1.replace('score: Float', 'score: Float @search\n  likes: Int64');

const host: AdminHost = { address: 'localhost:0', logLevel: () => 'info', setLogLevel: () => undefined, exportData: () => Promise.reject(new Error('no export')), shutdown: () => undefined, caller: 'anonymous' };

interface Client {
  readonly engine: Engine;
  /** groot's access token. */
  readonly token: string;
  gql(query: string, variables?: Record<string, unknown>, extensions?: Record<string, unknown>): Promise<any>;
  admin(query: string, variables?: Record<string, unknown>): Promise<any>;
}

async function client(engine: Engine): Promise<Client> {
  const login = JSON.parse((await engine.executeAdmin({ method: 'POST', query: 'mutation { login(userId: "groot", password: "password") { response { accessJWT } } }', headers: {} }, host)).body);
  const token: string = login.data.login.response.accessJWT;
  const headers = (): Record<string, string> => ({ 'x-dgraph-accesstoken': token });
  const admin = async (query: string, variables?: Record<string, unknown>): Promise<any> => JSON.parse((await engine.executeAdmin({ method: 'POST', query, variables, headers: headers() }, host)).body);
  return {
    engine,
    token,
    admin,
    gql: async (query, variables, extensions) => JSON.parse((await engine.execute({ method: 'POST', query, variables, headers: headers(), ...(extensions === undefined ? {} : { extensions }) })).body),
  };
}

/** adds with @id, an inverse edge, updates, a delete (its reverse edges go too), a schema change, ACL changes, a persisted query. */
async function workload(c: Client, snapshotMidway: () => Promise<void>): Promise<void> {
  const ok = (answer: any): any => {
    if (answer.errors !== undefined) throw new Error(JSON.stringify(answer.errors));
    return answer.data;
  };
  ok(await c.admin('mutation ($s: String!) { updateGQLSchema(input: { set: { schema: $s } }) { gqlSchema { id } } }', { s: schemaV1 }));
  ok(
    await c.gql('mutation ($a: [AddAuthorInput!]!) { addAuthor(input: $a) { numUids } }', {
      a: [
        { name: 'ann', posts: [{ title: 'one fish', tags: ['a', 'b'], score: -0 }, { title: 'two fish', score: 2.5 }] },
        { name: 'bob', posts: [{ title: 'red fish', tags: [] }] },
      ],
    }),
  );
  // An @id that exists: an error, and no record.
  const again = await c.gql('mutation { addAuthor(input: [{ name: "ann" }]) { numUids } }');
  expect(again.errors?.[0]?.message).toBe('couldn\'t rewrite mutation addAuthor because failed to rewrite mutation payload because id ann already exists for field name inside type Author');
  ok(await c.gql('mutation { updatePost(input: { filter: { title: { anyofterms: "red" } }, set: { score: 9, tags: ["x"] } }) { numUids } }'));
  await snapshotMidway();
  ok(await c.admin('mutation ($s: String!) { updateGQLSchema(input: { set: { schema: $s } }) { gqlSchema { id } } }', { s: schemaV2 }));
  ok(await c.gql('mutation { updatePost(input: { filter: { title: { anyofterms: "two" } }, set: { likes: "9007199254740993" }, remove: { tags: ["zz"] } }) { numUids } }'));
  ok(await c.gql('mutation { deletePost(filter: { title: { anyofterms: "one" } }) { numUids } }'));
  ok(await c.admin('mutation { addGroup(input: [{ name: "dev", rules: [{ predicate: "Post.title", permission: 4 }] }]) { group { name } } }'));
  ok(await c.admin('mutation { addUser(input: [{ name: "alice", password: "secret-pw", groups: [{ name: "dev" }] }]) { user { name } } }'));
  const query = '{ queryPost(order: { asc: title }) { title } }';
  const sha256 = (await import('node:crypto')).createHash('sha256').update(query).digest('hex');
  expect(ok(await c.gql(query, undefined, { persistedQuery: { sha256Hash: sha256 } }))).toEqual({ queryPost: [{ title: 'red fish' }, { title: 'two fish' }] });
}

const everything = '{ queryAuthor(order: { asc: name }) { name born posts(order: { asc: title }) { title tags score likes author { name } } } queryPost(order: { asc: title }) { title author { name } } }';

async function read(c: Client): Promise<unknown> {
  return (await c.gql(everything)).data;
}

/** The writer's log files, records only (each file's 16-byte header cut off), oldest first. */
function logFileRecords(dataDir: string): Buffer[] {
  return readdirSync(dataDir)
    .filter((name) => /^wal-\d+\.log$/.test(name))
    .sort()
    .map((name) => readFileSync(join(dataDir, name)).subarray(16));
}

const open: Engine[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const engine of open.splice(0)) await engine.close();
});

async function engineAt(dataDir: string): Promise<Engine> {
  const { engine, notes } = await openEngine(dataDir, { acl });
  expect(notes.warnings).toEqual([]);
  open.push(engine);
  return engine;
}

describe('replicas of one log', () => {
  it('a writer and replicas fed its records in memory, from its files and after its snapshot agree', async () => {
    const writerDir = tempDir();
    const writer = await client(await engineAt(writerDir));
    const published: Buffer[] = [];
    writer.engine.onLogRecords((frames) => published.push(Buffer.from(frames)));
    // A live replica, fed as the writer publishes (the writer's ensureDefaults record came before the listener: fed from the files below).
    const live = await engineAt('');
    let snapshotLsn = 0;
    // The log files as they are before the snapshot (which prunes the log before it), records only.
    let filesBefore: Buffer[] = [];
    await workload(writer, async () => {
      filesBefore = logFileRecords(writerDir);
      snapshotLsn = (await writer.engine.snapshot()).ok ? writer.engine.lsn : -1;
    });
    expect(snapshotLsn).toBeGreaterThan(3);
    const lsn = writer.engine.lsn;
    const digest = writer.engine.digest();
    expect(digest).toMatch(/^[0-9a-f]{16}$/);

    // In memory: the first records (before the listener) from the files, the rest as published.
    const first = await live.replicate(filesBefore[0] as Buffer);
    expect(first).toEqual({ ok: true, lsn: snapshotLsn });
    for (const frames of published) expect(await live.replicate(frames)).toEqual({ ok: true, lsn: expect.any(Number) });
    expect(live.lsn).toBe(lsn);
    expect(live.digest()).toBe(digest);

    // From the files alone, at another time of day: `$now` values come from the records.
    vi.useFakeTimers({ now: new Date('2031-01-02T03:04:05Z'), toFake: ['Date'] });
    const fromFiles = await engineAt('');
    for (const bytes of [...filesBefore, ...logFileRecords(writerDir)]) expect((await fromFiles.replicate(bytes)).ok).toBe(true);
    vi.useRealTimers();
    expect(fromFiles.lsn).toBe(lsn);
    expect(fromFiles.digest()).toBe(digest);
    const writerData = await read(writer);
    expect(writerData).toMatchObject({ queryPost: [{ title: 'red fish', author: { name: 'bob' } }, { title: 'two fish', author: { name: 'ann' } }] });
    // `born` is the writer's `$now` (this year), not the replay's 2031.
    const born = (writerData as { queryAuthor: { born: string }[] }).queryAuthor.map((author) => author.born.slice(0, 4));
    expect(born).toEqual([String(new Date().getUTCFullYear()), String(new Date().getUTCFullYear())]);
    expect(await read(await client(fromFiles))).toEqual(writerData);
    expect(await read(await client(live))).toEqual(writerData);

    // Restarted from the writer's snapshot, then the records after it (those before are skipped).
    const replicaDir = tempDir();
    const snapshotFile = readdirSync(writerDir).find((name) => name === `snap-${String(snapshotLsn).padStart(20, '0')}.msgpack`);
    expect(snapshotFile).toBeDefined();
    copyFileSync(join(writerDir, snapshotFile as string), join(replicaDir, snapshotFile as string));
    // A data directory seeded with a snapshot has the (empty) log file that goes on after it, as one the engine wrote.
    writeFileSync(join(replicaDir, `wal-${String(snapshotLsn + 1).padStart(20, '0')}.log`), logFileHeader(snapshotLsn + 1));
    const restarted = await engineAt(replicaDir);
    expect(restarted.lsn).toBe(snapshotLsn);
    expect(restarted.digest()).not.toBe(digest);
    for (const frames of published) expect((await restarted.replicate(frames)).ok).toBe(true);
    expect(restarted.lsn).toBe(lsn);
    expect(restarted.digest()).toBe(digest);
    // It logged what it applied: after its own restart it still agrees.
    await restarted.close();
    open.splice(open.indexOf(restarted), 1);
    const again = await engineAt(replicaDir);
    expect([again.lsn, again.digest()]).toEqual([lsn, digest]);
    expect(await read(await client(again))).toEqual(writerData);

    // And the writer itself after a restart (snapshot + log).
    await writer.engine.close();
    open.splice(open.indexOf(writer.engine), 1);
    const reopened = await engineAt(writerDir);
    expect([reopened.lsn, reopened.digest()]).toEqual([lsn, digest]);
  }, 60_000);

  it('a fresh replica with its own data directory and ACL on takes the writer\'s ACL records, not defaults of its own', async () => {
    const writerDir = tempDir();
    const writer = await client(await engineAt(writerDir));
    await writer.admin('mutation { addGroup(input: [{ name: "dev", rules: [] }]) { group { name } } }');
    const replicaDir = tempDir();
    const { engine: replica } = await openEngine(replicaDir, { acl, replica: true });
    open.push(replica);
    // Nothing of its own in its log: the writer's first record (its groot and guardians) is the replica's first too.
    expect(replica.lsn).toBe(0);
    for (const bytes of logFileRecords(writerDir)) expect(await replica.replicate(bytes)).toEqual({ ok: true, lsn: 2 });
    expect(replica.digest()).toBe(writer.engine.digest());
    // groot's password hash is the writer's: the replica's login takes the same password, and after a restart too.
    await replica.close();
    open.splice(open.indexOf(replica), 1);
    const restarted = (await openEngine(replicaDir, { acl, replica: true })).engine;
    open.push(restarted);
    expect([restarted.lsn, restarted.digest()]).toEqual([2, writer.engine.digest()]);
    expect((await (await client(restarted)).admin('{ queryGroup { name } }')).data).toEqual({ queryGroup: [{ name: 'guardians' }, { name: 'dev' }] });
  });

  it('the answers of one commit group carry their own records\' LSNs (one that stored nothing: the LSN before it)', async () => {
    const writer = await client(await engineAt(tempDir()));
    await writer.admin('mutation ($s: String!) { updateGQLSchema(input: { set: { schema: $s } }) { gqlSchema { id } } }', { s: schemaV1 });
    const base = writer.engine.lsn;
    // Sent together: they queue for the commit path at once (group commit).
    const answers = await Promise.all([
      writer.gql('mutation { addAuthor(input: [{ name: "ann" }]) { numUids } }'),
      writer.gql('mutation { addAuthor(input: [{ name: "ann" }]) { numUids } }'),
      writer.gql('mutation { addAuthor(input: [{ name: "bob" }]) { numUids } }'),
      writer.gql('mutation { deleteAuthor(filter: { name: { eq: "nobody" } }) { numUids } }'),
    ]);
    expect(answers.map((a) => [a.errors?.length ?? 0, a.extensions.lsn])).toEqual([
      [0, base + 1],
      [1, base + 1],
      [0, base + 2],
      [0, base + 2],
    ]);
    expect(writer.engine.lsn).toBe(base + 2);
  });

  it('a live subscription on a replica sees the replicated writes, and ends with a replicated schema change', async () => {
    const live = schemaV1.replace('type Author {', 'type Author @withSubscription {');
    const writerDir = tempDir();
    const writer = await client(await engineAt(writerDir));
    const published: Buffer[] = [];
    writer.engine.onLogRecords((frames) => published.push(Buffer.from(frames)));
    const replica = await engineAt('');
    const feed = async (): Promise<void> => {
      for (const frames of published.splice(0)) expect(await replica.replicate(frames)).toEqual({ ok: true, lsn: writer.engine.lsn });
    };
    await writer.admin('mutation ($s: String!) { updateGQLSchema(input: { set: { schema: $s } }) { gqlSchema { id } } }', { s: live });
    // The writer's ACL defaults came before the listener: from its log file.
    expect((await replica.replicate(logFileRecords(writerDir)[0] as Buffer)).ok).toBe(true);
    await feed();
    const events: SubscriptionEvent[] = [];
    const token = (await client(replica)).token;
    const subscribed = await replica.subscribe({ method: 'POST', query: 'subscription { queryAuthor(order: { asc: name }) { name } }', headers: { 'x-dgraph-accesstoken': token } }, (event) => events.push(event));
    expect('stop' in subscribed).toBe(true);
    await vi.waitFor(() => expect(events).toEqual([{ kind: 'next', body: '{"data":{"queryAuthor":[]}}' }]));
    await writer.gql('mutation { addAuthor(input: [{ name: "ann" }]) { numUids } }');
    await feed();
    await vi.waitFor(() => expect(events.at(-1)).toEqual({ kind: 'next', body: '{"data":{"queryAuthor":[{"name":"ann"}]},"extensions":{"touched_uids":1}}' }));
    await writer.admin('mutation ($s: String!) { updateGQLSchema(input: { set: { schema: $s } }) { gqlSchema { id } } }', { s: live.replace('name: String! @id', 'name: String! @id\n  nick: String') });
    await feed();
    await vi.waitFor(() => expect(events.at(-1)).toEqual({ kind: 'complete' }));
    expect(events).toHaveLength(3);
  });

  it('a gap in the records is refused and nothing after it is applied', async () => {
    const writerDir = tempDir();
    const writer = await client(await engineAt(writerDir));
    const published: Buffer[] = [];
    writer.engine.onLogRecords((frames) => published.push(Buffer.from(frames)));
    await writer.admin('mutation ($s: String!) { updateGQLSchema(input: { set: { schema: $s } }) { gqlSchema { id } } }', { s: schemaV1 });
    await writer.gql('mutation { addAuthor(input: [{ name: "ann" }]) { numUids } }');
    const replica = await engineAt('');
    const refused = await replica.replicate(Buffer.concat(published.slice(1)));
    expect(refused).toEqual({ ok: false, message: `log record 3 cannot follow 0: LSN 1 is missing` });
    expect(replica.lsn).toBe(0);
    const damaged = Buffer.from(published[0] as Buffer);
    damaged.writeUInt8((damaged.at(-1) as number) ^ 0xff, damaged.length - 1);
    expect(await replica.replicate(damaged)).toEqual({ ok: false, message: 'log records damaged at offset 0: checksum mismatch' });
  });
});
