// A snapshot must not stall the other clients (issue #19 class): the engine with its real persistence and
// the bench's data set, a reader sending a small query every 2 ms while a snapshot of the whole store is
// taken. Also: the file holds the state of the capture point (a write made while it is being written is
// not in it) and restores to the same data after a restart.

import { readdirSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../bench/data/dataset.js';
import { serviceSdl } from '../../bench/schema.js';
import { readSnapshotFile } from '../../engine/persist/snapshot-file.js';
import { nodeFileIo } from '../../engine/persist/file-io.js';
import { gql, openEngine, tempDir } from '../unit/persist/engine-helpers.js';

// 50k posts (+5k authors): encoding them all at once on the event loop held reads 0.6-0.9 s here.
const data = generateDataset({ posts: 50_000, authors: 5_000 });
// The bound: a read must never wait 200 ms because of a snapshot — well above a timer's and a young-GC
// pause's jitter on a busy 2-core host, well below what encoding the store at once costs at this size.
const worstReadBoundMs = 200;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const everyPost = '{ queryPost(order: { asc: slug }) { slug title body score rating code summary place { latitude longitude } embedding author { handle name } } }';

describe('snapshot under reads', () => {
  it('never holds a read for long, keeps the capture point, and restores to the same data', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const { engine } = await openEngine(dir, { fsync: 'no', snapshotEveryMutations: 0 });
    expect((await engine.updateSchema(serviceSdl)).ok).toBe(true);
    const must = async (query: string, variables?: Record<string, unknown>): Promise<any> => {
      const answer = await gql(engine, query, variables);
      if (answer.errors !== undefined) throw new Error(JSON.stringify(answer.errors).slice(0, 300));
      return answer;
    };
    await must('mutation ($input: [AddAuthorInput!]!) { addAuthor(input: $input) { numUids } }', { input: data.authors.map((a) => ({ handle: a.handle, name: a.name })) });
    for (let i = 0; i < data.posts.length; i += 2_000) {
      const input = data.posts.slice(i, i + 2_000).map((p) => ({ ...p, author: { handle: data.authors[p.author]?.handle ?? '' } }));
      await must('mutation ($input: [AddPostInput!]!) { addPost(input: $input) { numUids } }', { input });
    }
    const before = await must(everyPost);
    expect(before.data.queryPost).toHaveLength(data.posts.length);

    let worstRead = 0;
    let reads = 0;
    let done = false;
    const reader = (async () => {
      while (!done) {
        // From when the client meant to send: a stall that delays the timer delays the read as well.
        const due = performance.now() + 2;
        await new Promise((resolve) => setTimeout(resolve, 2));
        const answer = await must('query ($slug: String!) { getPost(slug: $slug) { slug } }', { slug: data.posts[reads % data.posts.length]?.slug });
        expect(answer.data.getPost.slug).toBe(data.posts[reads % data.posts.length]?.slug);
        worstRead = Math.max(worstRead, performance.now() - due);
        reads++;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const snapshot = engine.snapshot();
    // Queued behind the snapshot: it lands after the capture point, so the file must not hold it.
    const late = must('mutation { updatePost(input: { filter: { slug: { eq: "' + data.posts[0]?.slug + '" } }, set: { title: "written during the snapshot" } }) { numUids } }');
    const result = await snapshot;
    await late;
    done = true;
    await reader;
    expect(result.ok).toBe(true);
    expect(reads).toBeGreaterThan(0);
    // (The loop delay histogram is not asserted: under vitest's worker threads it misses the stall; bench/micro/snapshot-stall.ts reports it.)
    expect({ worstReadMs: Math.round(worstRead) }).toEqual({ worstReadMs: expect.toSatisfy((ms: number) => ms < worstReadBoundMs) });

    // The file is the capture point's state: the late title is not in it, the original is.
    const lsn = Math.max(...readdirSync(dir).filter((f) => f.startsWith('snap-')).map((f) => Number(/\d+/.exec(f)?.[0])));
    const { content } = readSnapshotFile(nodeFileIo, dir, lsn);
    const titles = content.store.scalars.find((col) => col.predicate === 'Post.title')?.values ?? [];
    expect(titles).toContain(data.posts[0]?.title);
    expect(titles).not.toContain('written during the snapshot');
    expect(titles).toHaveLength(data.posts.length);

    // Abandoned (as by a crash): a restart loads that snapshot and replays the one record after it.
    const reopened = await openEngine(dir, { fsync: 'no', snapshotEveryMutations: 0 });
    expect(reopened.notes.infos.find((line) => line.startsWith('restored'))).toContain(`"snapshotLsn":${lsn},"replayed":1,`);
    const after = await gql(reopened.engine, everyPost);
    const expected = structuredClone(before);
    const first = expected.data.queryPost.find((p: { slug: string }) => p.slug === data.posts[0]?.slug);
    first.title = 'written during the snapshot';
    expect(after).toEqual(expected);
    await reopened.engine.close();
  }, 240_000);
});
