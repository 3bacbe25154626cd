// CPU time of another process from /proc/<pid>/stat: utime + stime, in µs (all its threads, or by thread name).

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

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
  const split = cpuSplit(`/proc/${pid}/stat`);
  return split === null ? null : split.user + split.system;
}

export interface CpuSplit {
  readonly user: number;
  readonly system: number;
}

/** User and system time (µs) from a /proc stat file (a process's, or one thread's under task/). */
function cpuSplit(statPath: string): CpuSplit | null {
  try {
    const stat = readFileSync(statPath, 'utf8');
    // The command name (field 2) may contain spaces; fields after its closing parenthesis are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: (Number(fields[11]) * 1e6) / clockTicks(), system: (Number(fields[12]) * 1e6) / clockTicks() };
  } catch {
    return null;
  }
}

/**
 * User and system time (µs) of every thread of `pid` by thread id (node names none of its threads:
 * JavaScript threads, V8's platform workers that run parallel GC and compiling, libuv's pool all read
 * "node"), so a run can say which thread a difference of CPU went to. Empty when /proc is not readable.
 */
export function threadCpu(pid: number): Map<string, CpuSplit> {
  const out = new Map<string, CpuSplit>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    const split = cpuSplit(`/proc/${pid}/task/${tid}/stat`);
    if (split !== null) out.set(tid, split);
  }
  return out;
}

/**
 * Context switches of every thread of `pid` (voluntary and not), summed: each message between threads
 * or wake-up by the kernel is one, so a change that batches messages shows here whatever the host's load.
 */
export function contextSwitches(pid: number): number {
  let sum = 0;
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const tid of tids) {
    try {
      for (const line of readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8').split('\n')) {
        if (line.startsWith('voluntary_ctxt_switches:') || line.startsWith('nonvoluntary_ctxt_switches:')) sum += Number(line.slice(line.indexOf(':') + 1));
      }
    } catch {
      // The thread ended meanwhile.
    }
  }
  return sum;
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
