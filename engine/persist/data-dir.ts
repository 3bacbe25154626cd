// File names in the data directory: `snap-<lsn>.msgpack` (state after record <lsn>), its temporary
// `snap-<lsn>.msgpack.tmp` (never loaded), and `wal-<first lsn>.log`. LSNs are zero-padded to 20 digits
// so that names sort in LSN order.

export interface DirListing {
  /** Snapshot LSNs, newest first. */
  readonly snapshots: number[];
  /** Log files by their first LSN, oldest first. */
  readonly logs: number[];
  /** Leftover temporary files. */
  readonly temporary: string[];
  /** Names we do not know (left alone). */
  readonly other: string[];
}

const pad = (lsn: number): string => String(lsn).padStart(20, '0');

export const snapshotFileName = (lsn: number): string => `snap-${pad(lsn)}.msgpack`;
export const logFileName = (startLsn: number): string => `wal-${pad(startLsn)}.log`;

export function classify(names: readonly string[]): DirListing {
  const snapshots: number[] = [];
  const logs: number[] = [];
  const temporary: string[] = [];
  const other: string[] = [];
  for (const name of names) {
    let m: RegExpExecArray | null;
    if ((m = /^snap-(\d{20})\.msgpack$/.exec(name)) !== null) snapshots.push(Number(m[1]));
    else if ((m = /^wal-(\d{20})\.log$/.exec(name)) !== null) logs.push(Number(m[1]));
    else if (name.endsWith('.tmp')) temporary.push(name);
    else other.push(name);
  }
  snapshots.sort((a, b) => b - a);
  logs.sort((a, b) => a - b);
  return { snapshots, logs, temporary, other };
}
