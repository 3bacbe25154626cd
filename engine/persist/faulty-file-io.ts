// Fault injection over any FileIo: fail the Nth matching write/fsync/rename/... with an errno code
// (EIO, ENOSPC, ...) or make it hang forever (to kill a process at that exact point). Rules can be
// changed at any time (`rules` is live), so a test can clear a fault and check the next write succeeds.
// Tests reach it through engine/testing.ts; the test-only server entry (server/testing/main-with-faults.ts)
// builds one from SERVICE_IO_FAULTS (JSON array of rules).

import { ioError, type FileIo } from './file-io.js';

export type FaultOp = 'open' | 'write' | 'fsync' | 'truncate' | 'rename' | 'unlink' | 'fsyncDir';

export interface FaultRule {
  readonly op: FaultOp;
  /** Only calls whose path contains this (the file's path for fd-based calls). */
  readonly path?: string;
  /** Fail from the nth matching call on (1-based; default 1). */
  readonly nth?: number;
  /** How many calls fail (default 1; 0 = every later one). */
  readonly times?: number;
  /** errno code to raise (default EIO). */
  readonly code?: string;
  /** Never return instead of failing. */
  readonly hang?: boolean;
  /** Fail only after this many ms (the calls that return a promise: fsync, fsyncDir, remove). */
  readonly delayMs?: number;
}

export interface FaultyFileIo extends FileIo {
  /** Live list: replace or empty it to change the faults. */
  rules: FaultRule[];
  /** Number of faults raised so far. */
  readonly injected: number;
  /** Simulates power loss: cuts every file written through this object back to its last fsynced length. */
  powerLoss(): void;
}

export function faultyFileIo(base: FileIo, rules: FaultRule[]): FaultyFileIo {
  const paths = new Map<number, string>();
  const seen = new Map<FaultRule, number>();
  let injected = 0;
  /** Per path: bytes written so far (high-water mark) and bytes known durable. */
  const lengths = new Map<string, { size: number; synced: number }>();
  const track = (path: string): { size: number; synced: number } => {
    let entry = lengths.get(path);
    if (entry === undefined) lengths.set(path, (entry = { size: 0, synced: 0 }));
    return entry;
  };
  const check = (op: FaultOp, path: string): Promise<never> | undefined => {
    for (const rule of io.rules) {
      if (rule.op !== op || (rule.path !== undefined && !path.includes(rule.path))) continue;
      const n = (seen.get(rule) ?? 0) + 1;
      seen.set(rule, n);
      const from = rule.nth ?? 1;
      const times = rule.times ?? 1;
      if (n < from || (times !== 0 && n >= from + times)) continue;
      injected++;
      if (rule.hang === true) return new Promise<never>(() => undefined);
      const error = ioError(rule.code ?? 'EIO', op, path);
      if (rule.delayMs !== undefined) return new Promise<never>((_, reject) => setTimeout(() => reject(error), rule.delayMs));
      throw error;
    }
    return undefined;
  };
  const hangSync = (pending: Promise<never> | undefined): void => {
    // A synchronous call cannot hang without blocking everything: block the thread, as a stuck disk would
    // (a delayed failure is one too: the calls that return a promise take delayMs).
    if (pending !== undefined) while (true) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  };
  const io: FaultyFileIo = {
    rules,
    get injected() {
      return injected;
    },
    powerLoss() {
      for (const [path, { synced }] of lengths) {
        let fd: number;
        try {
          fd = base.open(path, 'existing');
        } catch {
          continue; // removed meanwhile
        }
        base.truncate(fd, synced);
        base.close(fd);
      }
    },
    list: (dir) => base.list(dir),
    mkdir: (dir) => base.mkdir(dir),
    readFile: (path) => base.readFile(path),
    open(path, how) {
      hangSync(check('open', path));
      const fd = base.open(path, how);
      paths.set(fd, path);
      if (how === 'create') lengths.set(path, { size: 0, synced: 0 });
      return fd;
    },
    write(fd, data, position) {
      hangSync(check('write', paths.get(fd) ?? ''));
      base.write(fd, data, position);
      const entry = track(paths.get(fd) ?? '');
      entry.size = Math.max(entry.size, position + data.length);
    },
    async fsync(fd) {
      const pending = check('fsync', paths.get(fd) ?? '');
      if (pending !== undefined) return pending;
      const entry = track(paths.get(fd) ?? '');
      const size = entry.size;
      await base.fsync(fd);
      entry.synced = Math.max(entry.synced, size);
    },
    truncate(fd, length) {
      hangSync(check('truncate', paths.get(fd) ?? ''));
      base.truncate(fd, length);
      const entry = track(paths.get(fd) ?? '');
      entry.size = length;
      entry.synced = Math.min(entry.synced, length);
    },
    close(fd) {
      paths.delete(fd);
      base.close(fd);
    },
    rename(from, to) {
      hangSync(check('rename', to));
      base.rename(from, to);
      const entry = lengths.get(from);
      lengths.delete(from);
      if (entry !== undefined) lengths.set(to, entry);
    },
    unlink(path) {
      hangSync(check('unlink', path));
      base.unlink(path);
    },
    async remove(path) {
      const pending = check('unlink', path);
      if (pending !== undefined) return pending;
      return base.remove(path);
    },
    async fsyncDir(dir) {
      const pending = check('fsyncDir', dir);
      if (pending !== undefined) return pending;
      return base.fsyncDir(dir);
    },
  };
  return io;
}
