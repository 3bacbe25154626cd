// CPU pinning with taskset: the contender under test on one core, the load generator on the other.

import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

export const serverCore = 0;
export const loadCore = 1;

export interface PinResult {
  readonly pinned: boolean;
  readonly note: string;
}

/** Pins every thread of this process (the load generator) to `loadCore`. */
export function pinSelf(core = loadCore): PinResult {
  if (availableParallelism() < 2) return { pinned: false, note: 'one core only: not pinned' };
  try {
    execFileSync('taskset', ['-a', '-cp', String(core), String(process.pid)], { stdio: 'ignore' });
    return { pinned: true, note: `load generator pinned to core ${core}, contenders to core ${serverCore}` };
  } catch (error) {
    return { pinned: false, note: `taskset failed (${error instanceof Error ? error.message : String(error)}): not pinned` };
  }
}

/** The command prefix that starts a child pinned to `core` (empty when pinning is off). */
export function pinnedCommand(pin: PinResult, command: string, args: readonly string[], core = serverCore): { command: string; args: string[] } {
  return pin.pinned ? { command: 'taskset', args: ['-c', String(core), command, ...args] } : { command, args: [...args] };
}
