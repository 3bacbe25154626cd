// The only module that imports piscina. Batches of outgoing calls go to worker threads (one task per
// batch); small batches are sent inline on the main thread, where a worker round trip (~85 µs) would
// cost more than it saves. The threshold is `inlineMaxCalls` (measured in bench/custom-batch.ts).

import { Piscina } from 'piscina';
import { closeHttpClient, sendCalls, timedOut } from './http-client.js';
import { customCallFigures } from '../util/figures.js';
import type { CallTask } from './call-worker.js';
import type { SelfAddress } from './address-guard.js';
import type { CallLimits, CallOutcome, OutboundCall } from './outbound.js';

export interface CallRunnerOptions {
  readonly limits: CallLimits;
  /** Worker threads (0 = everything inline). */
  readonly workers: number;
  /** Batches with at most this many calls are sent inline. */
  readonly inlineMaxCalls: number;
  /** Calls in flight at once to one upstream host:port (default: no cap beyond `maxConcurrency`). */
  readonly maxPerHost?: number;
}

/** Counts a batch's outcomes for GET /metrics. */
function counted(outcomes: CallOutcome[], started: number): CallOutcome[] {
  customCallFigures.durations.observe((performance.now() - started) / 1000);
  customCallFigures.calls += outcomes.length;
  for (const outcome of outcomes) {
    if (outcome.ok ? outcome.status < 400 : false) continue;
    customCallFigures.errors++;
    if (timedOut(outcome)) customCallFigures.timeouts++;
  }
  return outcomes;
}

export class CallRunner {
  #pool: Piscina | undefined;
  #limits: CallLimits;
  /** Calls in flight across the process; batches wait for room so `maxConcurrency` holds overall. */
  #inFlight = 0;
  /** Calls in flight per upstream host:port, so one slow host cannot hold every slot. */
  readonly #hostInFlight = new Map<string, number>();
  readonly #waiting: { readonly n: number; readonly hosts: readonly string[]; readonly wake: () => void }[] = [];
  /** Counters for tests and the benchmark. */
  readonly stats = { calls: 0, batches: 0, workerBatches: 0 };

  constructor(readonly options: CallRunnerOptions) {
    this.#limits = options.limits;
  }

  /** The limits calls go out with (the service's own address included once known). */
  get limits(): CallLimits {
    return this.#limits;
  }

  /** Calls to the service's own listening address and port are refused from now on. */
  refuseSelf(self: SelfAddress): void {
    this.#limits = { ...this.#limits, self };
  }

  async run(calls: readonly OutboundCall[]): Promise<CallOutcome[]> {
    if (calls.length === 0) return [];
    this.stats.calls += calls.length;
    this.stats.batches++;
    const limits = this.#limits;
    const hosts = hostsOf(calls);
    const share = Math.max(1, Math.min(calls.length, limits.maxConcurrency, this.#maxPerHost));
    await this.#acquire(share, hosts);
    const started = performance.now();
    try {
      const sliceLimits: CallLimits = { ...limits, maxConcurrency: share };
      if (this.options.workers <= 0 || calls.length <= this.options.inlineMaxCalls) return counted(await sendCalls(calls, sliceLimits), started);
      this.stats.workerBatches++;
      const task: CallTask = { calls, limits: sliceLimits };
      return counted((await this.#workerPool().run(task)) as CallOutcome[], started);
    } finally {
      this.#release(share, hosts);
    }
  }

  /** The worker pool's queue and utilization (0..1); undefined until a batch has needed the pool. */
  get poolFigures(): { readonly queueSize: number; readonly utilization: number; readonly threads: number } | undefined {
    const pool = this.#pool;
    return pool === undefined ? undefined : { queueSize: pool.queueSize, utilization: pool.utilization, threads: pool.threads.length };
  }

  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await Promise.all([pool?.destroy(), closeHttpClient()]);
  }

  #workerPool(): Piscina {
    this.#pool ??= new Piscina({
      filename: new URL('./call-worker.js', import.meta.url).href,
      minThreads: 1,
      maxThreads: this.options.workers,
      concurrentTasksPerWorker: 16,
      idleTimeout: 30_000,
    });
    return this.#pool;
  }

  get #maxPerHost(): number {
    return this.options.maxPerHost ?? this.#limits.maxConcurrency;
  }

  /** Waits until `n` more calls fit both process-wide and for each of `hosts`, then takes them all at once. */
  async #acquire(n: number, hosts: readonly string[]): Promise<void> {
    if (this.#fits(n, hosts)) return this.#take(n, hosts);
    // Slots are handed over by #release, in arrival order among the waiters that fit (waiters never fit
    // at this point, so an arrival that fits does not jump a queue that could have gone).
    await new Promise<void>((wake) => this.#waiting.push({ n, hosts, wake }));
  }

  #take(n: number, hosts: readonly string[]): void {
    this.#inFlight += n;
    for (const host of hosts) this.#hostInFlight.set(host, (this.#hostInFlight.get(host) ?? 0) + n);
  }

  #fits(n: number, hosts: readonly string[]): boolean {
    if (this.#inFlight > 0 && this.#inFlight + n > this.#limits.maxConcurrency) return false;
    const perHost = this.#maxPerHost;
    for (const host of hosts) {
      const busy = this.#hostInFlight.get(host) ?? 0;
      if (busy > 0 && busy + n > perHost) return false;
    }
    return true;
  }

  #release(n: number, hosts: readonly string[]): void {
    this.#inFlight -= n;
    for (const host of hosts) {
      const left = (this.#hostInFlight.get(host) ?? n) - n;
      if (left <= 0) this.#hostInFlight.delete(host);
      else this.#hostInFlight.set(host, left);
    }
    // Wake only the waiters that now fit (a waiter on a capped host lets later ones on other hosts
    // pass): waking every waiter to re-check cost a promise per waiter per finished call.
    let kept = 0;
    for (const waiter of this.#waiting) {
      if (this.#fits(waiter.n, waiter.hosts)) {
        this.#take(waiter.n, waiter.hosts);
        waiter.wake();
      } else this.#waiting[kept++] = waiter;
    }
    this.#waiting.length = kept;
  }
}

/** The upstream host:port of each call, once (a bad URL counts as its own text: it fails without a connection). */
function hostsOf(calls: readonly OutboundCall[]): string[] {
  const hosts = new Set<string>();
  for (const call of calls) {
    try {
      hosts.add(new URL(call.url).host);
    } catch {
      hosts.add(call.url);
    }
  }
  return [...hosts];
}
