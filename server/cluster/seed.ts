// `--cluster-seed`: a node with an empty data directory starts from a peer's newest snapshot
// (GET /admin/snapshot) instead of the stream's first message: written as its own (tmp, fsync, checked,
// rename, fsync dir), then the start goes on as a restart's (the check from the snapshot's stream sequence).
// A node that needs messages purged from the stream does the same by itself (`reseedFromPeers`).

import { mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { adoptSnapshotFile, clusterGuardianToken, DATA_DIR_MODE, DATA_FILE_MODE, snapshotFileName } from '../../engine/index.js';
import type { Logger } from '../log.js';
import { snapshotHeaders } from '../routes/admin-snapshot-route.js';

/** Why seeding failed (the start stops, exit code 1). */
export class SeedError extends Error {}

/** How long the peer has to start answering (the body then takes as long as it takes). */
const ANSWER_MS = 30_000;

/** Long enough for the peer to start answering; a token caught on the way is good no longer. */
const TOKEN_MS = 2 * ANSWER_MS;

/**
 * Seeds an empty `dataDir` from `peer`, sending `adminKey` and, with ACL on (`aclSecret`: the cluster's
 * shared secret), a guardian's token minted for the request; a data directory holding anything of its own
 * is left alone (false).
 */
export async function seedFromPeer(peer: string, dataDir: string, adminKey: string | undefined, aclSecret: Uint8Array | undefined, log: Logger): Promise<boolean> {
  const own = (await readdir(dataDir)).filter((name) => /^(snap-\d+\.msgpack|wal-\d+\.log)$/.test(name));
  if (own.length > 0) return false;
  const url = new URL('/admin/snapshot', peer).href;
  const answering = new AbortController();
  const timer = setTimeout(() => answering.abort(), ANSWER_MS);
  let response: Response;
  try {
    const headers: Record<string, string> = adminKey === undefined ? {} : { 'X-Auth-Token': adminKey };
    if (aclSecret !== undefined) headers['X-Dgraph-AccessToken'] = await clusterGuardianToken(aclSecret, 'cluster-seed', TOKEN_MS);
    response = await fetch(url, { headers, signal: answering.signal });
  } catch (error) {
    throw new SeedError(`could not reach the seed ${url}: ${reason(error)}`);
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok || response.body === null) {
    throw new SeedError(`the seed ${url} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  }
  const lsn = Number(response.headers.get(snapshotHeaders.lsn));
  if (!Number.isSafeInteger(lsn) || lsn < 0) throw new SeedError(`the seed ${url} sent no snapshot LSN (${snapshotHeaders.lsn})`);
  const tmp = join(dataDir, `${snapshotFileName(lsn)}.tmp`);
  try {
    const file = await open(tmp, 'w', DATA_FILE_MODE);
    try {
      // One piece at a time: the next is read once the last is written.
      const reader = response.body.getReader();
      for (let piece = await reader.read(); !piece.done; piece = await reader.read()) await file.write(piece.value);
      await file.sync();
    } finally {
      await file.close();
    }
    const header = await adoptSnapshotFile(dataDir, tmp, lsn);
    log.info('seeded from a peer', { seed: url, lsn, streamSequence: header.sharedLogPosition });
    return true;
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw new SeedError(`the snapshot from the seed ${url} is refused: ${reason(error)}`);
  }
}

/**
 * A node whose next stream message was purged: its snapshots and logs are moved to `set-aside-<time>/` in
 * its data directory (named in the log; an operator may delete it), then it seeds from the first of
 * `peers` that serves a snapshot. SeedError when none does (the files stay aside: the next start is a new node's).
 */
export async function reseedFromPeers(peers: readonly string[], dataDir: string, adminKey: string | undefined, aclSecret: Uint8Array | undefined, log: Logger): Promise<void> {
  const aside = join(dataDir, `set-aside-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const own = (await readdir(dataDir)).filter((name) => /^(snap-\d+\.msgpack|wal-\d+\.log)(\.tmp)?$/.test(name));
  if (own.length > 0) {
    await mkdir(aside, { mode: DATA_DIR_MODE });
    for (const name of own) await rename(join(dataDir, name), join(aside, name));
  }
  log.warn('the cluster stream no longer holds what this node needs: its files are set aside, seeding from a peer', { ...(own.length > 0 ? { aside } : {}), files: own.length, peers: peers.join(',') });
  const refusals: string[] = [];
  for (const peer of peers) {
    try {
      await seedFromPeer(peer, dataDir, adminKey, aclSecret, log);
      return;
    } catch (error) {
      if (!(error instanceof SeedError)) throw error;
      refusals.push(error.message);
    }
  }
  throw new SeedError(`no peer could seed this node${own.length > 0 ? ` (its files are in ${aside})` : ''}: ${refusals.join('; ')}`);
}

function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch's own message is "fetch failed"; the cause says why.
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}
