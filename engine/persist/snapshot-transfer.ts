// A snapshot file moved between nodes (GET /admin/snapshot, --cluster-seed): the newest one found, and a
// received one checked before use. Both read a piece at a time: a snapshot at 1M nodes is ~360 MB.

import { open, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { continueChecksum } from './checksum.js';
import { classify, snapshotFileName } from './data-dir.js';
import { nodeFileIo } from './file-io.js';
import { LogWriter } from './log-writer.js';
import { readSnapshotHeader, SnapshotError, type SnapshotHeader } from './snapshot-file.js';

export interface SnapshotFileInfo {
  readonly path: string;
  readonly bytes: number;
  readonly header: SnapshotHeader;
}

const PIECE = 1 << 20;

/** The newest snapshot of `dir` with its checked header, or undefined when it has none. */
export async function newestSnapshotFile(dir: string): Promise<SnapshotFileInfo | undefined> {
  const lsn = classify(await readdir(dir)).snapshots[0];
  if (lsn === undefined) return undefined;
  const path = join(dir, snapshotFileName(lsn));
  const file = await open(path, 'r');
  try {
    return { path, bytes: (await file.stat()).size, header: (await readHead(file, path)).header };
  } finally {
    await file.close();
  }
}

/** Checks a whole snapshot file (header and body checksums, length) without loading it; throws SnapshotError. */
export async function checkSnapshotFile(path: string): Promise<SnapshotHeader> {
  const file = await open(path, 'r');
  try {
    const { header, bodyOffset } = await readHead(file, path);
    const size = (await file.stat()).size;
    const end = bodyOffset + header.bodyLength;
    if (size < end) throw new SnapshotError(path, size, `truncated: ${end - size} bytes of the body are missing`);
    if (size > end) throw new SnapshotError(path, end, `${size - end} bytes of trailing garbage`);
    let crc = 0;
    const piece = Buffer.alloc(PIECE);
    for (let at = bodyOffset; at < end; ) {
      const { bytesRead } = await file.read(piece, 0, Math.min(PIECE, end - at), at);
      if (bytesRead === 0) throw new SnapshotError(path, at, 'truncated while reading');
      crc = continueChecksum(crc, piece.subarray(0, bytesRead));
      at += bytesRead;
    }
    if (crc !== header.bodyCrc) throw new SnapshotError(path, bodyOffset, 'body checksum mismatch');
    return header;
  } finally {
    await file.close();
  }
}

/**
 * Makes the received snapshot at `tmp` (checked, fsynced) the newest of the empty data directory `dir`,
 * with an empty log going on from the record after it: what a restart after that snapshot would find.
 */
export async function adoptSnapshotFile(dir: string, tmp: string, lsn: number): Promise<SnapshotHeader> {
  const header = await checkSnapshotFile(tmp);
  if (header.lsn !== lsn) throw new SnapshotError(tmp, 16, `header says LSN ${header.lsn}, the sender said ${lsn}`);
  await rename(tmp, join(dir, snapshotFileName(lsn)));
  await (await LogWriter.create(nodeFileIo, dir, lsn + 1)).close();
  await nodeFileIo.fsyncDir(dir);
  return header;
}

async function readHead(file: Awaited<ReturnType<typeof open>>, path: string): Promise<{ header: SnapshotHeader; bodyOffset: number }> {
  const start = Buffer.alloc(16);
  const { bytesRead } = await file.read(start, 0, 16, 0);
  if (bytesRead < 16) return readSnapshotHeader(start.subarray(0, bytesRead), path);
  const headerLength = start.readUInt32LE(12);
  // A damaged length must not size the buffer (the header is a few hundred bytes).
  if (headerLength > PIECE) throw new SnapshotError(path, 12, `header length ${headerLength} is not plausible`);
  const head = Buffer.alloc(16 + headerLength + 4);
  const read = await file.read(head, 0, head.length, 0);
  return readSnapshotHeader(head.subarray(0, read.bytesRead), path);
}
