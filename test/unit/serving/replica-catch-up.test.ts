// A replica thread whose copy cannot catch up with its writer (server/threads/): a read that arrived
// after the writer published LSN n waits for n, then is refused with an error saying so (not an internal
// error); a write the writer already answered is still answered (it is durable: failing it would invite a
// second, duplicate write).

import { describe, expect, it } from 'vitest';
import type { AdminHost, EngineResponse, WriterLink } from '../../../engine/index.js';
import { openEngine } from '../persist/engine-helpers.js';

const host: AdminHost = { address: 'localhost:0', logLevel: () => 'info', setLogLevel: () => undefined, exportData: () => Promise.reject(new Error('no export')), shutdown: () => undefined, caller: 'anonymous' };
const written: EngineResponse = { kind: 'ok', body: '{"data":{"addPost":{"numUids":1}},"extensions":{"lsn":7}}' };
// The writer published LSN 7 by answering the write; this replica never receives it.
let published = 0;
const stuck: WriterLink = {
  execute: () => {
    published = 7;
    return Promise.resolve(written);
  },
  executeAdmin: () => Promise.resolve(written),
  updateSchema: () => Promise.reject(new Error('not used')),
  snapshot: () => Promise.reject(new Error('not used')),
  visibleLsn: () => published,
  draining: () => false,
};
const refusal = 'this thread\'s copy of the data did not apply log sequence number 7 of the writer within 50 ms (it is at 0): try again';

describe('a replica that does not catch up with its writer', () => {
  it('still answers the forwarded write, then refuses reads, /admin reads and subscriptions with an error naming the LSN', async () => {
    const { engine } = await openEngine('', { writer: stuck, readAfterTimeoutMs: 50 });
    try {
      expect(await engine.execute({ method: 'POST', query: 'mutation { addPost(input: [{}]) { numUids } }', headers: {} })).toBe(written);
      const reading = engine.execute({ method: 'POST', query: '{ queryPost { id } }', headers: {} });
      // Read when execute returns (server/routes/graphql-route.ts labels /metrics by it), though the read waits.
      expect(engine.lastOperation).toBe(1);
      const read = await reading;
      expect(read.kind).toBe('request-error');
      expect(JSON.parse(read.body)).toEqual({ errors: [{ message: refusal }] });
      const adminRead = await engine.executeAdmin({ method: 'POST', query: '{ health { status } }', headers: {} }, host);
      expect(JSON.parse(adminRead.body)).toEqual({ errors: [{ message: refusal }] });
      expect(await engine.subscribe({ method: 'POST', query: 'subscription { queryPost { id } }', headers: {} }, () => undefined)).toEqual({ refused: [{ message: refusal }] });
    } finally {
      await engine.close();
    }
  });
});
