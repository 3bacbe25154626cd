// Decides what to load on start: the newest valid snapshot, then the log records after it. A torn last
// record (a crash mid-write) is dropped with a warning; any other damage refuses to start with the file
// and offset, unless `recover` is set: then a damaged snapshot is set aside (renamed `.corrupt`) for the
// previous one, and a damaged log is cut at the bad record (the original kept as `.corrupt`), saying what
// was lost. Leftover `.tmp` files are never loaded, only removed.

import { join } from 'node:path';
import type { FileIo } from './file-io.js';
import { classify, logFileName, snapshotFileName } from './data-dir.js';
import { LOG_HEADER_BYTES, scanLog, type LogRecord, type ScannedLog } from './log-format.js';
import { readSnapshotFile, SnapshotError, type SnapshotContent, type SnapshotHeader } from './snapshot-file.js';

export interface PersistLogger {
  info(message: string, fields?: Readonly<Record<string, string | number | boolean | undefined>>): void;
  warn(message: string, fields?: Readonly<Record<string, string | number | boolean | undefined>>): void;
}

export interface RestorePlan {
  readonly snapshot: { readonly header: SnapshotHeader; readonly content: SnapshotContent } | undefined;
  /** Records after the snapshot, in LSN order. */
  readonly records: readonly LogRecord[];
  /** LSN of the last record the state will include (0 = none). */
  readonly lastLsn: number;
  /** True when the directory held no snapshot and no log. */
  readonly fresh: boolean;
}

/** Refusal to start: the message names the file and offset and how to proceed. */
export class RestoreError extends Error {}

/**
 * `readOnly`: a replica reading the directory of a live writer (server/threads/): nothing is removed or
 * cut, a torn or headerless end is where the reading stops (the writer is appending there), and damage
 * refuses as without `recover`.
 */
export async function planRestore(io: FileIo, dir: string, recover: boolean, log: PersistLogger, readOnly = false): Promise<RestorePlan> {
  const listing = classify(io.list(dir));
  if (readOnly) recover = false;
  for (const name of readOnly ? [] : listing.temporary) {
    log.warn('removing a leftover temporary file (an interrupted snapshot; never loaded)', { file: join(dir, name) });
    io.unlink(join(dir, name));
  }
  if (listing.snapshots.length === 0 && listing.logs.length === 0) {
    log.info('no snapshot and no mutation log in the data directory: starting empty', { 'data-dir': dir });
    return { snapshot: undefined, records: [], lastLsn: 0, fresh: true };
  }
  const snapshot = loadSnapshot(io, dir, listing.snapshots, recover, log);
  const base = snapshot?.header.lsn ?? 0;
  const records = await readLog(io, dir, listing.logs, base, recover, log, readOnly);
  const lastLsn = records.length === 0 ? base : (records[records.length - 1] as LogRecord).lsn;
  return { snapshot, records, lastLsn, fresh: false };
}

/** Which snapshot a state was restored from (its LSN and body checksum), or null for none. */
export type SnapshotIdentity = { readonly lsn: number; readonly bodyCrc: number } | null;

export function snapshotIdentity(snapshot: RestorePlan['snapshot']): SnapshotIdentity {
  return snapshot === undefined ? null : { lsn: snapshot.header.lsn, bodyCrc: snapshot.header.bodyCrc };
}

/**
 * A replica's early start (server/threads/): the newest snapshot of a directory a writer is opening, read
 * without changing anything; undefined when there is none or it does not read (the writer decides what
 * to do about it; the replica then loads whatever the writer restored from).
 */
export function newestSnapshotReadOnly(io: FileIo, dir: string): RestorePlan['snapshot'] {
  const newest = classify(io.list(dir)).snapshots[0];
  if (newest === undefined) return undefined;
  try {
    return readSnapshotFile(io, dir, newest);
  } catch {
    return undefined;
  }
}

/** The log records after `base` of a live writer's directory, read without changing anything. */
export function logAfterReadOnly(io: FileIo, dir: string, base: number, log: PersistLogger): Promise<LogRecord[]> {
  return readLog(io, dir, classify(io.list(dir)).logs, base, false, log, true);
}

function loadSnapshot(io: FileIo, dir: string, lsns: readonly number[], recover: boolean, log: PersistLogger): RestorePlan['snapshot'] {
  for (let i = 0; i < lsns.length; i++) {
    const lsn = lsns[i] as number;
    try {
      return readSnapshotFile(io, dir, lsn);
    } catch (error) {
      const reason = error instanceof SnapshotError ? error.message : `snapshot ${join(dir, snapshotFileName(lsn))} could not be read: ${String(error)}`;
      const previous = lsns[i + 1];
      if (!recover) {
        throw new RestoreError(
          `${reason}. Refusing to start. Start with --recover to fall back to ${previous === undefined ? 'the mutation log alone' : `the previous snapshot (LSN ${previous})`} plus the log.`,
        );
      }
      const path = join(dir, snapshotFileName(lsn));
      log.warn(`${reason}; --recover: setting it aside and falling back`, { file: path, 'renamed-to': `${path}.corrupt`, 'fallback-lsn': previous ?? 0 });
      io.rename(path, `${path}.corrupt`);
    }
  }
  return undefined;
}

async function readLog(io: FileIo, dir: string, starts: readonly number[], base: number, recover: boolean, log: PersistLogger, readOnly: boolean): Promise<LogRecord[]> {
  if (base === 0 && starts.length > 0 && (starts[0] as number) > 1) {
    throw new RestoreError(`no usable snapshot in ${dir} and the mutation log starts at LSN ${starts[0]}: the state before it is gone. Refusing to start empty.`);
  }
  if (base > 0 && !starts.includes(base + 1)) {
    // The log file after a snapshot is created (and fsynced) before the snapshot is written, and
    // pruning never removes it: without it, whatever was logged after the snapshot is gone.
    const message = `mutation log ${join(dir, logFileName(base + 1))} is missing: snapshot ${join(dir, snapshotFileName(base))} expects the log to go on from LSN ${base + 1} there`;
    if (!recover) throw new RestoreError(`${message}. Refusing to start. Start with --recover to start from the snapshot alone (losing anything logged after it).`);
    const later = setAside(io, dir, starts.filter((s) => s > base + 1));
    await io.fsyncDir(dir);
    log.warn(`${message}; --recover: starting from the snapshot at LSN ${base}; LOST: anything logged after it (${later} later log file(s) set aside as .corrupt)`);
    return [];
  }
  const records: LogRecord[] = [];
  let expected = base + 1;
  for (let f = 0; f < starts.length; f++) {
    const start = starts[f] as number;
    const next = starts[f + 1];
    if (next !== undefined && next <= expected) continue; // wholly before the snapshot
    const file = join(dir, logFileName(start));
    const bytes = io.readFile(file);
    if (next === undefined && bytes.length < LOG_HEADER_BYTES) {
      // A crash while the newest log file was being created: its header (fsynced before any record
      // is appended) never made it, so it holds nothing that was acknowledged. The one the log goes
      // on in is left for start-up to write again, so a snapshot never loses the file it expects.
      if (start === expected || readOnly) return records;
      log.warn('removing a log file whose header was cut short by a crash (it holds no records)', { file, bytes: bytes.length });
      io.unlink(file);
      return records;
    }
    if (start > expected) {
      const missing = start - expected === 1 ? `LSN ${expected} is` : `LSNs ${expected}-${start - 1} are`;
      const message = `mutation log ${file} starts at LSN ${start} but the log before it ends at LSN ${expected - 1}: ${missing} missing`;
      if (!recover) throw new RestoreError(`${message}. Refusing to start. Start with --recover to stop the replay there (setting this file and later ones aside).`);
      await lostFiles(io, dir, starts.slice(f), log, message);
      return records;
    }
    const scanned = scanFile(bytes, file, start);
    if (typeof scanned === 'string') {
      if (!recover) throw new RestoreError(`${scanned}. Refusing to start. Start with --recover to stop the replay there (setting this file and later ones aside).`);
      await lostFiles(io, dir, starts.slice(f), log, scanned);
      return records;
    }
    let lastGood = LOG_HEADER_BYTES; // byte offset after the last record kept
    for (let r = 0; r < scanned.records.length; r++) {
      const record = scanned.records[r] as LogRecord;
      if (record.lsn < expected) continue;
      records.push(record);
      expected++;
      lastGood = scanned.ends[r] as number;
    }
    const end = scanned.end;
    if (end.kind === 'clean') continue;
    const isLast = next === undefined;
    if (end.kind === 'torn' && isLast) {
      if (readOnly) return records;
      log.warn('dropping a torn last record of the mutation log (a write cut short by a crash; never acknowledged)', {
        file,
        offset: end.offset,
        bytes: end.bytes,
      });
      await cut(io, file, end.offset);
      return records;
    }
    const reason = end.kind === 'torn' ? 'a record is cut short but later log files exist' : end.reason;
    const message = `mutation log ${file} is damaged at offset ${end.offset}: ${reason}`;
    if (!recover) {
      throw new RestoreError(`${message}. Refusing to start. Start with --recover to truncate the log at that record (losing it and everything after it).`);
    }
    await lostTail(io, dir, starts, f, Math.max(lastGood, end.offset), bytes, log, message);
    return records;
  }
  return records;
}

/** Scans one log file, or says how its header is damaged. */
function scanFile(bytes: Buffer, file: string, start: number): ScannedLog | string {
  let scanned: ScannedLog;
  try {
    scanned = scanLog(bytes, file);
  } catch (error) {
    return `mutation log ${file} is damaged at offset 0: ${(error as Error).message}`;
  }
  if (scanned.startLsn !== start) return `mutation log ${file} is damaged at offset 8: its header says LSN ${scanned.startLsn}, its name says ${start}`;
  return scanned;
}

/** --recover at a file boundary: set the files aside and say what was lost. */
async function lostFiles(io: FileIo, dir: string, starts: readonly number[], log: PersistLogger, message: string): Promise<void> {
  const count = setAside(io, dir, starts);
  await io.fsyncDir(dir);
  log.warn(`${message}; --recover: stopped the replay there. LOST: ${count} log file(s), set aside as .corrupt`, { 'first-set-aside': join(dir, logFileName(starts[0] as number)) });
}

/** Renames the log files to `.corrupt` (kept for inspection, never loaded); returns how many. */
function setAside(io: FileIo, dir: string, starts: readonly number[]): number {
  for (const start of starts) {
    const path = join(dir, logFileName(start));
    io.rename(path, `${path}.corrupt`);
  }
  return starts.length;
}

/** --recover: keep a copy, cut file `f` at `offset`, set later files aside, and say what was lost. */
async function lostTail(io: FileIo, dir: string, starts: readonly number[], f: number, offset: number, bytes: Buffer, log: PersistLogger, message: string): Promise<void> {
  const file = join(dir, logFileName(starts[f] as number));
  const copy = `${file}.corrupt`;
  const fd = io.open(copy, 'create');
  try {
    io.write(fd, bytes, 0);
    await io.fsync(fd);
  } finally {
    io.close(fd);
  }
  await cut(io, file, offset);
  const later = setAside(io, dir, starts.slice(f + 1));
  await io.fsyncDir(dir);
  log.warn(`${message}; --recover: truncated the log there. LOST: ${bytes.length - offset} bytes of this file and ${later} later log file(s)`, {
    file,
    offset,
    'copy-of-original': copy,
    'later-files-set-aside': later,
  });
}

/** Truncates `file` to `offset` bytes, durably. */
export async function cut(io: FileIo, file: string, offset: number): Promise<void> {
  const fd = io.open(file, 'existing');
  try {
    io.truncate(fd, offset);
    await io.fsync(fd);
  } finally {
    io.close(fd);
  }
}
