// Appends framed records to the current log file at a known position. A failed write or fsync is
// undone by truncating back to the last good length, so a record that was refused never comes back
// on restart. If even the truncation fails the writer stays "dirty" and retries it before the next write.

import { join } from 'node:path';
import type { FileIo } from './file-io.js';
import { logFileHeader, LOG_HEADER_BYTES } from './log-format.js';
import { logFileName } from './data-dir.js';
import { persistFigures } from '../util/figures.js';

export class LogWriter {
  #fd: number;
  #size: number;
  /** Length the file must be cut back to before the next write (a failed append left bytes behind). */
  #cutTo: number | undefined;
  #syncedSize: number;
  #syncing: Promise<void> | undefined;

  private constructor(
    private readonly io: FileIo,
    readonly path: string,
    readonly startLsn: number,
    fd: number,
  ) {
    this.#fd = fd;
    this.#size = LOG_HEADER_BYTES;
    this.#syncedSize = LOG_HEADER_BYTES;
  }

  /** Creates a fresh log file whose first record will be `startLsn`; durable (file and directory) on return. */
  static async create(io: FileIo, dir: string, startLsn: number): Promise<LogWriter> {
    const path = join(dir, logFileName(startLsn));
    const fd = io.open(path, 'create');
    try {
      io.write(fd, logFileHeader(startLsn), 0);
      await io.fsync(fd);
      await io.fsyncDir(dir);
    } catch (error) {
      io.close(fd);
      throw error;
    }
    return new LogWriter(io, path, startLsn, fd);
  }

  get size(): number {
    return this.#size;
  }

  /** True when everything written has been fsynced. */
  get synced(): boolean {
    return this.#syncedSize === this.#size;
  }

  /** Writes `bytes` after the last good record; on failure nothing of it stays in the file. */
  append(bytes: Uint8Array): void {
    this.#repair();
    const at = this.#size;
    try {
      this.io.write(this.#fd, bytes, at);
    } catch (error) {
      this.discardFrom(at);
      throw error;
    }
    this.#size = at + bytes.length;
    persistFigures.logBytes += bytes.length;
  }

  /** Forgets everything from `length` on (a group whose fsync failed); never throws. */
  discardFrom(length: number): void {
    this.#size = length;
    this.#syncedSize = Math.min(this.#syncedSize, length);
    this.#cutTo = length;
    try {
      this.#repair();
    } catch {
      // Still dirty: the next append retries the cut before writing.
    }
  }

  /** fsyncs what has been written; concurrent callers share one fsync when they can. */
  async sync(): Promise<void> {
    while (this.#syncing !== undefined) await this.#syncing.catch(() => undefined);
    if (this.synced) return;
    const target = this.#size;
    const started = performance.now();
    const run = this.io.fsync(this.#fd).then(() => {
      persistFigures.fsyncs.observe((performance.now() - started) / 1000);
      if (this.#size >= target) this.#syncedSize = Math.max(this.#syncedSize, target);
    });
    this.#syncing = run;
    try {
      await run;
    } finally {
      this.#syncing = undefined;
    }
  }

  async close(): Promise<void> {
    try {
      await this.sync();
    } finally {
      this.io.close(this.#fd);
    }
  }

  #repair(): void {
    if (this.#cutTo === undefined) return;
    this.io.truncate(this.#fd, this.#cutTo);
    this.#cutTo = undefined;
  }
}
