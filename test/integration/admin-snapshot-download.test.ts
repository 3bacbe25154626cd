// GET /admin/snapshot: the newest snapshot file as written (what --cluster-seed downloads), behind the
// admin key, streamed: a client that stops reading a while gets every byte all the same.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findLogs } from './helpers/log-records.js';
import { postGraphql, send, uploadSchema, uploadSucceeded } from './helpers/http.js';
import { startServer, type ServerProcess } from './helpers/server-process.js';

const adminKey = 'snapshot-download-key-3c9a1e';
const key = { 'X-Auth-Token': adminKey };

/** A GET whose reader pauses `pauseMs` before reading anything: the server must wait for it. */
function slowGet(url: string, pauseMs: number): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: key }, (response) => {
      response.pause();
      const chunks: Buffer[] = [];
      setTimeout(() => {
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        response.resume();
      }, pauseMs);
    }).on('error', reject);
  });
}

describe('GET /admin/snapshot', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ args: ['--admin-key', adminKey, '--snapshot-interval', '0', '--log-requests', '1'] });
    expect(await uploadSchema(server.url, 'type Note {\n  id: ID!\n  text: String\n}\n', key)).toEqual(uploadSucceeded);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('needs the admin key; a node without a snapshot answers 404; another method than GET or POST is refused', async () => {
    expect((await send(`${server.url}/admin/snapshot`)).status).toBe(401);
    const none = await send(`${server.url}/admin/snapshot`, { headers: key });
    expect([none.status, none.text]).toEqual([404, expect.stringContaining('this node has no snapshot yet: POST /admin/snapshot writes one')]);
    expect((await send(`${server.url}/admin/snapshot`, { method: 'PUT', headers: key })).status).toBe(400);
  });

  it('answers the newest snapshot file byte for byte with its LSN, to a client slower than the socket', { timeout: 60_000 }, async () => {
    // ~12 MB of notes: more than the socket buffers hold while the client does not read.
    const text = 'x'.repeat(60_000);
    for (let i = 0; i < 20; i++) {
      const notes = Array.from({ length: 10 }, (_, j) => `{ text: "${i}-${j}-${text}" }`).join(', ');
      expect((await postGraphql(server.url, { query: `mutation { addNote(input: [${notes}]) { numUids } }` }, key)).status).toBe(200);
    }
    const written = await send(`${server.url}/admin/snapshot`, { method: 'POST', headers: key });
    const { lsn } = (written.json() as { data: { lsn: number } }).data;
    const name = readdirSync(server.dataDir).filter((file) => file.startsWith('snap-')).sort().at(-1) ?? '';
    const onDisk = readFileSync(join(server.dataDir, name));
    expect(onDisk.length).toBeGreaterThan(12_000_000);
    const answer = await slowGet(`${server.url}/admin/snapshot`, 1500);
    expect([answer.status, answer.headers['content-type'], answer.headers['x-snapshot-lsn'], answer.headers['x-snapshot-stream-sequence']]).toEqual([200, 'application/octet-stream', String(lsn), undefined]);
    expect(answer.body.length).toBe(onDisk.length);
    expect(createHash('sha256').update(answer.body).digest('hex')).toBe(createHash('sha256').update(onDisk).digest('hex'));
    // Its request line, once the last byte went out (it is written after the answer is sent).
    await vi.waitFor(() => expect(findLogs(server.output(), 'request', { method: 'GET', path: '/admin/snapshot', status: 200 })).toEqual([expect.objectContaining({ bytes: onDisk.length })]));
  });

  it('a file that shrinks while it is sent: the connection is cut (no second answer after part of the first), the server goes on', { timeout: 60_000 }, async () => {
    const name = readdirSync(server.dataDir).filter((file) => file.startsWith('snap-')).sort().at(-1) ?? '';
    const path = join(server.dataDir, name);
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(12_000_000);
    const cutAt = 10 * 1024 * 1024;
    const answer = await new Promise<{ status: number; received: number; complete: boolean }>((resolve, reject) => {
      get(`${server.url}/admin/snapshot`, { headers: key }, (response) => {
        response.pause();
        let received = 0;
        // While the client does not read, the server has sent what the socket buffers hold (a few MB): the rest is read after the cut.
        setTimeout(() => {
          truncateSync(path, cutAt);
          response.on('data', (chunk: Buffer) => (received += chunk.length));
          response.on('close', () => resolve({ status: response.statusCode ?? 0, received, complete: response.complete }));
          response.resume();
        }, 1000);
      }).on('error', reject);
    });
    expect(answer).toEqual({ status: 200, received: cutAt, complete: false });
    await vi.waitFor(() => expect(findLogs(server.output(), 'internal error').map((r) => String(r['error']).split('\n')[0])).toEqual([`Error: snapshot ${path} shrank while being sent`]));
    expect((await postGraphql(server.url, { query: '{ __typename }' }, key)).json()).toEqual({ data: { __typename: 'Query' } });
  });
});
