// CPU time of another process (all its threads) from /proc/<pid>/stat: utime + stime, in µs.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** utime + stime of `pid` in microseconds, or null when /proc is not readable. */
export function cpuMicros(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces; fields after its closing parenthesis are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return ((utime + stime) * 1e6) / clockTicks();
  } catch {
    return null;
  }
}

/**
 * Waits until `pid` burns less than 5% of a core over 100 ms (at most `maxMs`): a server may still be
 * answering requests of connections the previous run closed, which would eat into the next timed run.
 */
export async function waitUntilIdle(pid: number, maxMs = 15_000): Promise<void> {
  const until = Date.now() + maxMs;
  let before = cpuMicros(pid);
  while (before !== null && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = cpuMicros(pid);
    if (now === null || now - before < 5_000) return;
    before = now;
  }
}
