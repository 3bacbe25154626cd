// Long custom-stage loops (1,000 SINGLE calls to build, 1,000 answers to parse and graft) give the event
// loop a turn once they have run for `budgetMs`, so other requests' latency does not wait on them.

import { performance } from 'node:perf_hooks';

/** Parents handled between two budget checks (a clock read per parent would cost more than it saves). */
export const sliceCheckEvery = 64;

export class TimeSlice {
  #started = performance.now();

  constructor(
    private readonly budgetMs = 1,
    /** Run at every pause (the request's deadline check, which throws once it has passed). */
    private readonly checkpoint?: () => void,
  ) {}

  /** Resolves at once within the budget, otherwise after one turn of the event loop (a new budget starts). */
  async pause(): Promise<void> {
    this.checkpoint?.();
    if (performance.now() - this.#started < this.budgetMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#started = performance.now();
  }
}
