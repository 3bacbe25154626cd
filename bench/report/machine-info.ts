// Where and how a run happened: cores, CPU model, Node version, date, command, git commit.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import type { MachineInfo } from './results.js';

export function machineInfo(pinning: string): MachineInfo {
  return {
    // cpus(), not availableParallelism(): the latter shrinks to 1 once this process is pinned.
    cpus: cpus().length,
    cpuModel: cpuModel(),
    node: process.version,
    date: new Date().toISOString(),
    command: `node dist/bench/run.js ${process.argv.slice(2).join(' ')}`.trim(),
    commit: gitCommit(),
    pinning,
  };
}

function cpuModel(): string {
  try {
    return /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function gitCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== '';
    return dirty ? `${commit} (uncommitted changes)` : commit;
  } catch {
    return 'unknown';
  }
}
