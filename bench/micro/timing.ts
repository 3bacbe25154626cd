// Micro-benchmark timing: warm up, then several rounds; the figure is the median round's µs per op.

export interface Timing {
  readonly usPerOp: number;
  readonly rounds: number;
  readonly opsPerRound: number;
}

export interface TimingOptions {
  readonly rounds: number;
  /** Each round runs about this long (the op count is calibrated from the warm-up). */
  readonly roundMs: number;
}

const warmupOps = 50;
/** Slow ops (a linear scan at 1M nodes takes seconds) warm up for at most this long, and run 3 per round. */
const warmupMaxMs = 1_000;
const opsFor = (warmupUs: number, roundMs: number): number => Math.max(3, Math.min(50_000, Math.round((roundMs * 1000) / Math.max(warmupUs, 0.01))));

/**
 * A full collection before a case (when run with --expose-gc): what the case before it left, or its
 * own answer check (a naive scan over 1M posts: 100s of MB), is otherwise marked incrementally inside
 * this case's rounds, and marking a 3 GB heap took several of them (get-by-id 27 µs at 1M, 5 at 100k).
 */
function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** `op(i)` gets a running counter, so an op can make its input unique (cache misses, new slugs). */
export async function timeAsync(op: (i: number) => Promise<unknown>, options: TimingOptions): Promise<Timing> {
  collect();
  let i = 0;
  const warm = process.hrtime.bigint();
  const elapsedMs = (): number => Number(process.hrtime.bigint() - warm) / 1e6;
  while (i < warmupOps && (i === 0 || elapsedMs() < warmupMaxMs)) await op(i++);
  const opsPerRound = opsFor((elapsedMs() * 1000) / i, options.roundMs);
  const perRound: number[] = [];
  for (let r = 0; r < options.rounds; r++) {
    const start = process.hrtime.bigint();
    for (let n = 0; n < opsPerRound; n++) await op(i++);
    perRound.push(Number(process.hrtime.bigint() - start) / 1e3 / opsPerRound);
  }
  return { usPerOp: median(perRound), rounds: options.rounds, opsPerRound };
}

export function timeSync(op: (i: number) => unknown, options: TimingOptions): Timing {
  collect();
  let i = 0;
  const warm = process.hrtime.bigint();
  for (let w = 0; w < warmupOps * 10; w++) op(i++);
  const opsPerRound = opsFor(Number(process.hrtime.bigint() - warm) / 1e3 / (warmupOps * 10), options.roundMs);
  const perRound: number[] = [];
  for (let r = 0; r < options.rounds; r++) {
    const start = process.hrtime.bigint();
    for (let n = 0; n < opsPerRound; n++) op(i++);
    perRound.push(Number(process.hrtime.bigint() - start) / 1e3 / opsPerRound);
  }
  return { usPerOp: median(perRound), rounds: options.rounds, opsPerRound };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}
