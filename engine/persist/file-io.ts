// The one interface every byte of persistence goes through, so tests can inject faults (fail the Nth
// write, fsync or rename; drop what was never fsynced). `nodeFileIo` is the real thing over node:fs.

import * as fs from 'node:fs';

/** Data files hold the schema (with its secrets) and every value: owner only. */
export const DATA_DIR_MODE = 0o700;
export const DATA_FILE_MODE = 0o600;

export interface FileIo {
  /** Names in `dir` (not paths); [] if it does not exist. */
  list(dir: string): string[];
  mkdir(dir: string): void;
  readFile(path: string): Buffer;
  /** Opens for writing: 'create' truncates/creates, 'existing' keeps the content. Returns a handle. */
  open(path: string, how: 'create' | 'existing'): number;
  /** Writes all of `data` at `position`, or throws (a partial write may have happened). */
  write(fd: number, data: Uint8Array, position: number): void;
  /** Durably flushes the file's data. */
  fsync(fd: number): Promise<void>;
  truncate(fd: number, length: number): void;
  close(fd: number): void;
  rename(from: string, to: string): void;
  unlink(path: string): void;
  /** Unlinks off the event loop (freeing a large file's blocks takes ~0.6 s per GB): pruning's removals. */
  remove(path: string): Promise<void>;
  /** Makes renames/creations/removals in `dir` durable. */
  fsyncDir(dir: string): Promise<void>;
}

export const nodeFileIo: FileIo = {
  list(dir) {
    try {
      return fs.readdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  },
  mkdir(dir) {
    fs.mkdirSync(dir, { recursive: true, mode: DATA_DIR_MODE });
  },
  readFile(path) {
    return fs.readFileSync(path);
  },
  open(path, how) {
    return fs.openSync(path, how === 'create' ? 'w' : 'r+', DATA_FILE_MODE);
  },
  write(fd, data, position) {
    let done = 0;
    while (done < data.length) done += fs.writeSync(fd, data, done, data.length - done, position + done);
  },
  fsync(fd) {
    return new Promise((resolve, reject) => fs.fdatasync(fd, (error) => (error === null ? resolve() : reject(error))));
  },
  truncate(fd, length) {
    fs.ftruncateSync(fd, length);
  },
  close(fd) {
    fs.closeSync(fd);
  },
  rename(from, to) {
    fs.renameSync(from, to);
  },
  unlink(path) {
    fs.unlinkSync(path);
  },
  remove(path) {
    return fs.promises.unlink(path);
  },
  async fsyncDir(dir) {
    const fd = fs.openSync(dir, 'r');
    try {
      await new Promise<void>((resolve, reject) => fs.fsync(fd, (error) => (error === null ? resolve() : reject(error))));
    } finally {
      fs.closeSync(fd);
    }
  },
};

/** An I/O error with a code, as node:fs raises them (used by fault injection too). */
export function ioError(code: string, op: string, path = ''): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: ${op} failed${path === '' ? '' : ` '${path}'`}`);
  error.code = code;
  return error;
}
