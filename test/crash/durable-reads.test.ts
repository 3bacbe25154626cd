// A read never sees a write that is not yet durable: with `--fsync always`, a query arriving while a
// mutation's fsync is under way waits for its outcome; the fsync fails, the write is rolled back, and the
// query answers without it (before: it answered with the write that then never was).

import { describe, expect, it } from 'vitest';
import { postGraphql } from '../integration/helpers/http.js';
import { addItems, allItems, dirsRemovedAfterEach, itemInput, startWithFaults, uploadSchema } from './crash-helpers.js';

describe('reads and writes being made durable', () => {
  const dataDir = dirsRemovedAfterEach();

  it('a query during a failing fsync waits for it and answers without the rolled-back write', async () => {
    // The log's fsyncs: its header, the schema upload, item a; the fourth (item b's) fails after 1.5 s.
    const server = await startWithFaults(dataDir(), ['--fsync', 'always'], [{ op: 'fsync', path: 'wal-', nth: 4, delayMs: 1500 }]);
    try {
      await uploadSchema(server);
      expect(await addItems(server.url, ['a'])).toBe(true);
      const write = postGraphql(server.url, { query: 'mutation ($input: [AddItemInput!]!) { addItem(input: $input) { numUids } }', variables: { input: [itemInput('b')] } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = performance.now();
      expect((await allItems(server.url)).map((item) => item.key)).toEqual(['a']);
      expect(performance.now() - started).toBeGreaterThan(500); // it waited for the fsync's outcome
      const failed = (await write).json() as any;
      expect(failed.data).toEqual({ addItem: null });
      expect(failed.errors[0].message).toMatch(/the mutation could not be made durable \(EIO while writing the mutation log\); it was rolled back and not applied/);
      expect((await allItems(server.url)).map((item) => item.key)).toEqual(['a']);
    } finally {
      await server.stop();
    }
  });
});
