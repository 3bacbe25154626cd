// /admin/snapshot (admin key rules like the other /admin* routes; with ACL on a guardian's access token
// too, as the rest of /admin's operations). Dgraph has no such route.
// POST writes a snapshot now. GET answers the newest snapshot file as written (a new node seeds itself
// from it: --cluster-seed, server/cluster/seed.ts), streamed, with its LSN and stream sequence in headers.

import { open } from 'node:fs/promises';
import { newestSnapshotFile } from '../../engine/index.js';
import type { Exchange } from '../exchange.js';
import type { Reply } from '../http-types.js';
import type { ResponseMode } from '../negotiate.js';
import { refusals, snapshotReply } from '../responses.js';
import type { Route, RouteContext } from './route.js';

/** Headers of GET's answer (read by server/cluster/seed.ts). */
export const snapshotHeaders = { lsn: 'x-snapshot-lsn', streamSequence: 'x-snapshot-stream-sequence' } as const;

const PIECE = 1 << 20;

export const snapshotRoute: Route = {
  scope: 'admin',
  handle(exchange, mode, context, respond) {
    const method = exchange.request.method;
    if (method === 'POST') return respond(() => snapshotNow(exchange, mode, context));
    if (method !== 'GET') throw refusals.invalidMethod();
    respond(() => newestFile(exchange, context));
  },
};

async function snapshotNow(exchange: Exchange, mode: ResponseMode, context: RouteContext): Promise<Reply> {
  await guardian(exchange, context);
  const result = await context.engine.snapshot();
  if (!result.ok) context.log.warn('snapshot on demand failed', { error: result.message });
  else context.log.info('snapshot on demand', { lsn: result.lsn, by: await context.engine.adminCaller(exchange.request.headers, context.admin) });
  return snapshotReply(result, mode);
}

async function guardian(exchange: Exchange, context: RouteContext): Promise<void> {
  const refused = await context.engine.guardianRefusal(exchange.request.headers);
  if (refused !== undefined) throw refusals.notGuardian(refused);
}

/** The newest snapshot file, streamed (a refusal or a failure before the first byte is an ordinary answer). */
async function newestFile(exchange: Exchange, context: RouteContext): Promise<Reply> {
  await guardian(exchange, context);
  const newest = await newestSnapshotFile(context.config.dataDir);
  if (newest === undefined) throw refusals.noSnapshot();
  // Opened before the first byte: a snapshot pruned meanwhile stays readable through the descriptor.
  const file = await open(newest.path, 'r');
  try {
    const headers: Record<string, string> = { [snapshotHeaders.lsn]: String(newest.header.lsn) };
    if (newest.header.sharedLogPosition !== undefined) headers[snapshotHeaders.streamSequence] = String(newest.header.sharedLogPosition);
    context.log.info('snapshot sent', { lsn: newest.header.lsn, bytes: newest.bytes, by: await context.engine.adminCaller(exchange.request.headers, context.admin) });
    const read = async (offset: number): Promise<Uint8Array> => {
      const piece = Buffer.alloc(Math.min(PIECE, newest.bytes - offset));
      const { bytesRead } = await file.read(piece, 0, piece.length, offset);
      if (bytesRead !== piece.length) throw new Error(`snapshot ${newest.path} shrank while being sent`);
      return piece;
    };
    return { status: 200, contentType: 'application/octet-stream', body: new Uint8Array(0), headers, stream: { size: newest.bytes, read, close: () => file.close() } };
  } catch (error) {
    await file.close();
    throw error;
  }
}
