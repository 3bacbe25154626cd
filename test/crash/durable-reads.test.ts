// A read never sees a write that is not yet durable: with `--fsync always`, a query arriving while a
// mutation's fsync is under way waits for its outcome; the fsync fails, the write is rolled back, and the
// query answers without it (before: it answered with the write that then never was).

import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { postGraphql } from '../integration/helpers/http.js';
import { addItems, allItems, dirsRemovedAfterEach, itemInput, names, startWithFaults, uploadSchema } from './crash-helpers.js';

/** Bytes in the mutation log files: a record is appended to them just before its fsync. */
const logBytes = (dir: string): number => names(dir).filter((name) => name.startsWith('wal-')).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);

describe('reads and writes being made durable', () => {
  const dataDir = dirsRemovedAfterEach();

  it('a query during a failing fsync waits for it and answers without the rolled-back write', async () => {
    // The log's fsyncs: its header, the schema upload, item a; the fourth (item b's) fails after 1.5 s.
    const dir = dataDir();
    // One thread: the writer's store holds the group during its fsync; a replica thread reads only applied records and never waits.
    const server = await startWithFaults(dir, ['--fsync', 'always', '--threads', '1'], [{ op: 'fsync', path: 'wal-', nth: 4, delayMs: 1500 }]);
    try {
      await uploadSchema(server);
      expect(await addItems(server.url, ['a'])).toBe(true);
      const logged = logBytes(dir);
      const write = postGraphql(server.url, { query: 'mutation ($input: [AddItemInput!]!) { addItem(input: $input) { numUids } }', variables: { input: [itemInput('b')] } });
      await vi.waitFor(() => expect(logBytes(dir)).toBeGreaterThan(logged), { timeout: 5_000, interval: 5 }); // b's record is in, its 1.5 s fsync under way
      const started = performance.now();
      const read = await allItems(server.url);
      expect(performance.now() - started).toBeGreaterThan(700); // it waited for the fsync's outcome
      expect(read.map((item) => item.key)).toEqual(['a']);
      const failed = (await write).json() as any;
      expect(failed.data).toEqual({ addItem: null });
      expect(failed.errors[0].message).toMatch(/the mutation could not be made durable \(EIO while writing the mutation log\); it was rolled back and not applied/);
      expect((await allItems(server.url)).map((item) => item.key)).toEqual(['a']);
    } finally {
      await server.stop();
    }
  });
});
