// Cluster mode at open, before anything is restored: which records of this node's own log the shared log
// holds. A node appends a group to its log, then proposes it; a crash in between leaves records nobody
// was ever answered about, and other nodes may since have taken those LSNs with other records. The shared
// log is the truth: the node reads it from its snapshot's position on and compares; local records it
// does not hold (or holds others at their LSNs) are cut off the log files before the restore, so the
// state loaded is a prefix of the shared log and the node applies the rest from there.

import { join } from 'node:path';
import type { FileIo } from './file-io.js';
import { classify, logFileName } from './data-dir.js';
import { frameRecord, LOG_HEADER_BYTES, readFrames, scanLog, type LogRecord } from './log-format.js';
import { cut, RestoreError, type PersistLogger, type RestorePlan } from './restore.js';

/** What the shared log is asked to check (SharedLog.agree), fed its messages in order. */
export interface LocalTail {
  /** The shared-log position the snapshot holds (0: none recorded): read on from the message after it. */
  readonly position: number;
  /** LSN of the last record of the local log. */
  readonly lastLsn: number;
  /**
   * Checks the next message of the shared log against the local records at its LSNs; false once no
   * later message can change the verdict (a record differs, or the message goes past the local log).
   * Throws when the message's frames are damaged.
   */
  offer(message: Uint8Array): boolean;
}

class TailCheck implements LocalTail {
  readonly position: number;
  readonly lastLsn: number;
  readonly #snapshotLsn: number;
  readonly #records = new Map<number, LogRecord>();
  /** The highest LSN the shared log is known to hold the same as here. */
  #held: number;
  #differsAt: number | undefined;

  constructor(plan: RestorePlan) {
    this.#snapshotLsn = plan.snapshot?.header.lsn ?? 0;
    this.position = plan.snapshot?.header.sharedLogPosition ?? 0;
    this.lastLsn = plan.lastLsn;
    for (const record of plan.records) this.#records.set(record.lsn, record);
    // A snapshot taken in cluster mode holds only records the shared log took (up to its position and beyond).
    this.#held = this.position > 0 ? this.#snapshotLsn : 0;
  }

  offer(message: Uint8Array): boolean {
    for (const record of readFrames(Buffer.from(message.buffer, message.byteOffset, message.byteLength))) {
      if (record.lsn > this.lastLsn) return false;
      const local = this.#records.get(record.lsn);
      // Both framed again from their decoded form: the same record gives the same bytes on every node.
      if (record.lsn > this.#snapshotLsn && (local === undefined || !frameRecord(local).equals(frameRecord(record)))) {
        this.#differsAt = record.lsn;
        return false;
      }
      if (record.lsn > this.#held) this.#held = record.lsn;
    }
    return true;
  }

  /** The last local LSN the shared log holds the same (once it was read up to its end or a verdict). */
  get agreed(): number {
    return this.#differsAt === undefined ? Math.min(this.lastLsn, this.#held) : this.#differsAt - 1;
  }
}

/**
 * Asks `check` to read the shared log against the local log of `plan`, cuts the records it does not hold
 * off the log files (logged as a warning naming their LSNs) and returns the plan without them. Refuses
 * (RestoreError) when the snapshot itself holds records the shared log does not, when more than
 * `maxGroup` records (one group: what one proposal carries) would go, or when the check fails.
 */
export async function agreeWithSharedLog(
  io: FileIo,
  dir: string,
  plan: RestorePlan,
  check: (tail: LocalTail) => Promise<void>,
  log: PersistLogger,
  maxGroup: number,
): Promise<RestorePlan> {
  const tail = new TailCheck(plan);
  try {
    await check(tail);
  } catch (error) {
    throw new RestoreError(`could not check the local log against the shared log: ${error instanceof Error ? error.message : String(error)}`);
  }
  const agreed = tail.agreed;
  if (agreed >= plan.lastLsn) return plan;
  const snapshotLsn = plan.snapshot?.header.lsn ?? 0;
  if (agreed < snapshotLsn) {
    throw new RestoreError(
      `the snapshot at LSN ${snapshotLsn} in ${dir} holds records the shared log does not have (it agrees up to LSN ${agreed}): this data directory did not follow this shared log. Refusing to start; start this node on an empty data directory to join it.`,
    );
  }
  const lsns = agreed + 1 === plan.lastLsn ? `${plan.lastLsn}` : `${agreed + 1}-${plan.lastLsn}`;
  // A crash between the append and the proposal leaves one group at most: more is another log's history.
  if (plan.lastLsn - agreed > maxGroup) {
    throw new RestoreError(
      `the log in ${dir} holds ${plan.lastLsn - agreed} records (LSNs ${lsns}) the shared log does not have: more than one group of writes (at most ${maxGroup}), so not a crash before a proposal; this data directory did not follow this shared log. Refusing to start; start this node on an empty data directory to join it.`,
    );
  }
  await cutLogAfter(io, dir, agreed);
  log.warn('cut off records of the local log that the shared log never took (a crash between the local append and the proposal: never acknowledged to anyone)', {
    lsns,
    dropped: plan.lastLsn - agreed,
  });
  return { ...plan, records: plan.records.filter((record) => record.lsn <= agreed), lastLsn: agreed };
}

/**
 * Cuts every record after `lsn` off the log files. Later files go first, newest first, so that a crash
 * midway leaves a log that is still contiguous (the next start cuts the rest); the file the log goes on
 * in keeps its header (a snapshot at `lsn` expects it).
 */
async function cutLogAfter(io: FileIo, dir: string, lsn: number): Promise<void> {
  const starts = classify(io.list(dir)).logs;
  for (const start of [...starts].reverse()) {
    const file = join(dir, logFileName(start));
    if (start > lsn + 1) {
      io.unlink(file);
      continue;
    }
    const scanned = scanLog(io.readFile(file), file);
    const kept = scanned.records.findIndex((record) => record.lsn > lsn);
    if (kept >= 0) await cut(io, file, kept === 0 ? LOG_HEADER_BYTES : (scanned.ends[kept - 1] as number));
    break; // the files before this one end before it starts
  }
  await io.fsyncDir(dir);
}
