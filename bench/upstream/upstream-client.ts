// Starts the loopback upstream mock (mock-upstream.ts) as its own process and reads its counters.
// Its own process, never the load generator's event loop: a client timing requests must not also be
// the server those requests wait on.

import { join } from 'node:path';
import { spawnContender } from '../load/spawn-contender.js';
import type { PinResult } from '../load/pin.js';

export interface UpstreamStats {
  readonly calls: number;
  readonly peak: number;
  /** Arrival (request headers read) to answer written, per call, ms. */
  readonly spentMs: readonly number[];
  /** The body of the last call whose body was a list (a BATCH request). */
  readonly lastListBody: string | null;
}

export interface RunningUpstream {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly pid: number;
  stats(): Promise<UpstreamStats>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

export interface UpstreamOptions {
  readonly pin: PinResult;
  /** The core it is pinned to (when pinning is on). */
  readonly core: number;
  readonly delayMs: number;
  /** The built mock-upstream.js (default: next to this module, as in dist/). */
  readonly entry?: string;
}

export async function startUpstream(options: UpstreamOptions): Promise<RunningUpstream> {
  const entry = options.entry ?? join(import.meta.dirname, 'mock-upstream.js');
  const child = await spawnContender(options.pin, entry, ['--port', '0', '--host', '127.0.0.1', '--delay-ms', String(options.delayMs)], 30_000, options.core);
  return {
    url: child.url,
    pid: child.pid,
    stats: async () => (await (await fetch(`${child.url}/stats`)).json()) as UpstreamStats,
    reset: async () => void (await (await fetch(`${child.url}/stats/reset`, { method: 'POST' })).text()),
    stop: () => child.stop(),
  };
}
