// The command line every contender shares: `--port <n> --data <file> [--upstream <url>]`; prints
// `listening on http://127.0.0.1:PORT` once it accepts connections.

import { readDataset, type Dataset } from '../../data/dataset.js';
import { refPath } from '../../schema.js';

export interface ContenderArgs {
  readonly port: number;
  readonly host: string;
  readonly data: Dataset;
  /** The upstream endpoint computing `Post.ref` (its base URL plus the path). */
  readonly refUrl: string;
}

export function contenderArgs(argv: readonly string[] = process.argv.slice(2)): ContenderArgs {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const dataPath = value('--data');
  if (dataPath === undefined) throw new Error('usage: --port <n> --data <file> [--upstream <url>]');
  const upstream = value('--upstream') ?? 'http://127.0.0.1:9';
  return { port: Number(value('--port') ?? 0), host: value('--host') ?? '127.0.0.1', data: readDataset(dataPath), refUrl: `${upstream}${refPath}` };
}

export function announce(host: string, port: number): void {
  console.log(`listening on http://${host}:${port}`);
}

/** Exit cleanly on SIGTERM so the runner can stop a contender. */
export function exitOnSignal(): void {
  process.once('SIGTERM', () => process.exit(0));
  process.once('SIGINT', () => process.exit(0));
}
