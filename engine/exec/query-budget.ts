// The bounds one query runs under (`--max-query-cost`, `--max-result-bytes`, `--query-timeout-ms`):
// execution reports its work here (objects read, edge targets listed) and every `checkEvery` units the
// clock is read once, so the deadline costs a subtraction per object on the fast paths.

import { performance } from 'node:perf_hooks';
import { messages } from '../errors/messages.js';

export interface BudgetLimits {
  /** Estimated nodes read above which a query is refused before running; 0 = no limit. */
  readonly maxQueryCost: number;
  /** Largest answer in bytes. */
  readonly maxResultBytes: number;
  /** Running time of one query; 0 = no limit. */
  readonly queryTimeoutMs: number;
}

export const defaultBudgetLimits: BudgetLimits = { maxQueryCost: 10_000_000, maxResultBytes: 32 * 1024 * 1024, queryTimeoutMs: 2_000 };

/** Limits that never trip (mutations, and contexts made without limits). */
export const noBudgetLimits: BudgetLimits = { maxQueryCost: 0, maxResultBytes: Infinity, queryTimeoutMs: 0 };

/** Work units between two clock reads: ~4,000 objects or listed edge targets, well under a millisecond. */
const checkEvery = 4096;

/** A query stopped by its budget; the executor turns it into the request's error. */
export class BudgetExceeded extends Error {}

export class QueryBudget {
  #deadline: number;
  #left = checkEvery;
  /** A lower bound of the answer's JSON size, for answers built as objects (read-objects.ts). */
  #bytes = 0;

  constructor(readonly limits: BudgetLimits = noBudgetLimits) {
    this.#deadline = limits.queryTimeoutMs > 0 ? performance.now() + limits.queryTimeoutMs : Infinity;
  }

  /** Records `units` of work (objects read, edge targets listed); checks the clock now and then. */
  spend(units: number): void {
    if ((this.#left -= units) <= 0) this.check();
  }

  /** Records an object of `fields` fields built for the answer: at least `{}` and `"k":v,` per field. */
  object(fields: number): void {
    this.#bytes += 6 * fields + 1;
    if (--this.#left <= 0) this.check();
  }

  /**
   * Moves the deadline by the time since `since`: waiting for @custom upstreams (bounded by their own
   * --custom-timeout-ms, and stalling nobody) does not count against the query's own running time.
   */
  excludeWaitSince(since: number): void {
    this.#deadline += performance.now() - since;
  }

  /** Throws BudgetExceeded when past the deadline or the (lower-bound) answer size. */
  check(): void {
    this.#left = checkEvery;
    if (performance.now() > this.#deadline) throw new BudgetExceeded(messages.queryTimedOut(this.limits.queryTimeoutMs));
    this.checkSize(this.#bytes);
  }

  /** Throws BudgetExceeded when an answer of `bytes` bytes is over the cap. */
  checkSize(bytes: number): void {
    if (bytes > this.limits.maxResultBytes) throw new BudgetExceeded(messages.resultTooLarge(bytes, this.limits.maxResultBytes));
  }
}
