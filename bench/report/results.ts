// The shapes of one suite run, as written to bench/results/latest.json.

import type { LoadGenerator } from '../load/autocannon-run.js';
import type { MicroReport } from '../micro/run-micro.js';
import type { CacheLookups } from '../load/cache-lookups.js';

export type RunMode = 'throughput' | 'fixed-rate' | 'one-connection';

export interface LoadRecord {
  readonly contender: string;
  readonly scenario: string;
  readonly mode: RunMode;
  readonly connections: number;
  readonly overallRate: number | null;
  /** The load generator that made the run (absent in results written before wrk runs existed). */
  readonly generator?: LoadGenerator;
  /** false when the contender's answer was wrong: its figures do not count. */
  readonly valid: boolean;
  readonly invalidReason: string | null;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly non2xx: number;
  readonly requests: number;
  readonly cpuUsPerRequest: number | null;
  /** Distinct request bodies the run cycled through (absent in results written before the shape matrix). */
  readonly distinctBodies?: number;
  /** The service's cache lookups during the timed run, per cache consulted (absent for peers and older results). */
  readonly caches?: CacheLookups;
}

export interface MachineInfo {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly node: string;
  readonly date: string;
  readonly command: string;
  readonly commit: string;
  readonly pinning: string;
}

export interface TargetResult {
  readonly name: string;
  readonly target: string;
  readonly actual: string;
  /** null when the figures it needs were not measured in this run. */
  readonly pass: boolean | null;
}

export interface RunReport {
  readonly machine: MachineInfo;
  readonly settings: {
    readonly quick: boolean;
    readonly durationS: number;
    readonly warmupS: number;
    readonly connections: number;
    readonly posts: number;
    readonly authors: number;
    /** `--load`: absent in results written before wrk runs existed (autocannon). */
    readonly load?: LoadGenerator;
  };
  readonly records: readonly LoadRecord[];
  readonly failures: readonly { readonly contender: string; readonly error: string }[];
  readonly pending: readonly { readonly name: string; readonly reason: string }[];
  readonly targets: readonly TargetResult[];
  readonly micro: MicroReport | null;
  /** The matrix's read shapes (targets: each ≥ 0.5, median ≥ 0.6 of the ceiling). */
  readonly readShapes?: readonly string[];
  /** How the cache hit rates were measured, or why there are none (absent in older results). */
  readonly caches?: string;
}
