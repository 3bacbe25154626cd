// One timed load run with autocannon (in this process, which is pinned to the load core). Latencies are
// recorded here from each response's own high-resolution time (autocannon's histogram keeps whole
// milliseconds, too coarse for sub-millisecond targets); only 2xx responses count.

import autocannon, { type RequestStep } from 'autocannon';

/**
 * The bodies of a run: request n (from 0) sends `bodies[n % length]`; or, for mutations that need a
 * unique value per request, the parts of `variants[n % length]` joined by the request's number, n + 1.
 */
export type RequestBodies = { readonly kind: 'list'; readonly bodies: readonly string[] } | { readonly kind: 'counter'; readonly variants: readonly (readonly string[])[] };

export interface LoadOptions {
  readonly url: string;
  /** One fixed request body, or bodies that vary per request. */
  readonly body: string | RequestBodies;
  readonly connections: number;
  readonly durationS: number;
  /** Requests per second over all connections (autocannon paces each connection per second). */
  readonly overallRate?: number;
}

/** `--load`: autocannon, or wrk for the runs it can make (load-runner.ts). */
export type LoadGenerator = 'autocannon' | 'wrk';

export interface LoadResult {
  /** Which load generator made the run. */
  readonly generator: LoadGenerator;
  readonly requests: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  readonly errors: number;
  readonly non2xx: number;
  readonly durationS: number;
}

const headers = { 'content-type': 'application/json' };

export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  const body = typeof options.body === 'string' ? options.body : bodyOfRequest(options.body);
  let counter = 0;
  const requests: RequestStep[] | undefined =
    typeof body === 'function'
      ? [{ method: 'POST', path: url.pathname, headers, setupRequest: (request) => ({ ...request, body: body(counter++) }) }]
      : undefined;
  const latencies = new LatencyLog();
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        method: 'POST',
        headers,
        ...(typeof body === 'string' ? { body } : {}),
        ...(requests ? { requests } : {}),
        connections: options.connections,
        pipelining: 1,
        duration: options.durationS,
        timeout: 10,
        ...(options.overallRate !== undefined ? { overallRate: options.overallRate } : {}),
      },
      (error, result) => {
        if (error) {
          reject(error);
          return;
        }
        const durationS = Number(process.hrtime.bigint() - started) / 1e9;
        resolve({
          generator: 'autocannon',
          requests: latencies.count,
          rps: latencies.count / durationS,
          p50Ms: latencies.percentile(50),
          p99Ms: latencies.percentile(99),
          meanMs: latencies.mean(),
          errors: result.errors + result.timeouts,
          non2xx: result.non2xx,
          durationS,
        });
      },
    );
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status >= 200 && status < 300) latencies.add(ms);
    });
  });
}

/** Request n's body (n from 0). */
export function bodyOfRequest(bodies: RequestBodies): (n: number) => string {
  if (bodies.kind === 'counter') {
    const variants = bodies.variants;
    return (n) => variants[n % variants.length]?.join(String(n + 1)) ?? '';
  }
  const list = bodies.bodies;
  return (n) => list[n % list.length] ?? '';
}

class LatencyLog {
  #values = new Float64Array(1 << 16);
  count = 0;

  add(ms: number): void {
    if (this.count === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.count++] = ms;
  }

  percentile(p: number): number {
    if (this.count === 0) return NaN;
    const sorted = this.#values.subarray(0, this.count).sort();
    return sorted[Math.min(this.count - 1, Math.ceil((p / 100) * this.count) - 1)] ?? NaN;
  }

  mean(): number {
    let sum = 0;
    for (let i = 0; i < this.count; i++) sum += this.#values[i] ?? 0;
    return this.count === 0 ? NaN : sum / this.count;
  }
}
