// bench/load/proc-cpu.ts's per-thread CPU (bench/threads.ts splits a run's CPU by thread with it): a
// thread kept busy in this process shows up under its own id with the time it burned, and the
// threads' sum is the process's figure.

import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { cpuMicros, threadCpu } from '../../../bench/load/proc-cpu.js';

// Stays alive after spinning: an exited thread's task is gone from /proc before it can be read.
const spin = `const until = Date.now() + 500; while (Date.now() < until) {} require('node:worker_threads').parentPort.postMessage('done'); setInterval(() => {}, 1000);`;

describe('threadCpu', () => {
  it('reports a busy worker thread under its own id, apart from the main thread', async () => {
    const before = threadCpu(process.pid);
    const worker = new Worker(spin, { eval: true });
    await new Promise((resolve) => worker.once('message', resolve));
    const after = threadCpu(process.pid);
    await worker.terminate();
    const grown = (tid: string): number => {
      const now = after.get(tid);
      const was = before.get(tid);
      return now === undefined ? 0 : now.user + now.system - (was?.user ?? 0) - (was?.system ?? 0);
    };
    const others = [...after.keys()].filter((tid) => tid !== String(process.pid)).map(grown);
    // The worker spun 500 ms of wall time on its own thread (a loaded host gives it less; ticks are 10 ms);
    // the main thread only waited for its message.
    expect(Math.max(...others)).toBeGreaterThanOrEqual(100_000);
    expect(Math.max(...others)).toBeGreaterThan(2 * grown(String(process.pid)));
  });

  it('sums to the process figure', () => {
    const total = [...threadCpu(process.pid).values()].reduce((sum, t) => sum + t.user + t.system, 0);
    const whole = cpuMicros(process.pid) ?? NaN;
    // Exited threads count in the process figure only; a tick or so may pass between the two readings.
    expect(total).toBeLessThanOrEqual(whole + 20_000);
    expect(total).toBeGreaterThan(0);
  });
});
