// Micro-benchmark timing: warm up, then several rounds; the figure is the median round's CPU µs per op
// (process.cpuUsage, user + system: time descheduled by other work on a shared host is left out, which
// the wall clock charged to whichever round it fell in; the GC's helper threads are counted).

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

/**
 * The warm-up runs ops for this long (at least one): V8 compiles the hot code on a background thread, whose
 * CPU is the process's, so rounds right after 50 ops charged the compile to the op (get-by-id 30-85 CPU µs
 * instead of ~4). Slow ops (a linear scan at 1M nodes takes seconds) stop after one past it.
 */
const warmupMs = 500;
/** A round runs at least this many ops, and checks the clock once per this many (cheap ops). */
const minOpsPerRound = 3;
const clockEvery = 8;

/**
 * A full collection before a case (when run with --expose-gc): what the case before it left, or its
 * own answer check (a naive scan over 1M posts: 100s of MB), is otherwise marked incrementally inside
 * this case's rounds, and marking a 3 GB heap took several of them (get-by-id 27 µs at 1M, 5 at 100k).
 */
function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** CPU µs used by the process so far (user + system). */
function cpuUs(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

const wallMs = (since: bigint): number => Number(process.hrtime.bigint() - since) / 1e6;

/** Whether a round that began at `began` runs another op after its nth: slow ops read the clock after each op, cheap ones once per clockEvery. */
function roundGoesOn(n: number, began: bigint, roundMs: number): boolean {
  if (n < minOpsPerRound) return true;
  if (n >= clockEvery && n % clockEvery !== 0) return true;
  return wallMs(began) < roundMs;
}

/**
 * Rounds last `roundMs` by the clock, whatever the op costs: an op count calibrated from the warm-up (the
 * code not yet optimised) made rounds of a few ms, where a background compile or sweep landing in one
 * round moved its figure 5-15x (get-by-id: rounds of 5 and 77 µs in one case).
 */
export async function timeAsync(op: (i: number) => Promise<unknown>, options: TimingOptions): Promise<Timing> {
  collect();
  let i = 0;
  const warm = process.hrtime.bigint();
  while (i === 0 || wallMs(warm) < warmupMs) await op(i++);
  const perRound: number[] = [];
  let total = 0;
  for (let r = 0; r < options.rounds; r++) {
    const start = cpuUs();
    const began = process.hrtime.bigint();
    let n = 0;
    while (roundGoesOn(n, began, options.roundMs)) {
      await op(i++);
      n++;
    }
    perRound.push((cpuUs() - start) / n);
    total += n;
  }
  return { usPerOp: median(perRound), rounds: options.rounds, opsPerRound: Math.round(total / options.rounds) };
}

export function timeSync(op: (i: number) => unknown, options: TimingOptions): Timing {
  collect();
  let i = 0;
  const warm = process.hrtime.bigint();
  while (i === 0 || (i % clockEvery !== 0 || wallMs(warm) < warmupMs)) op(i++);
  const perRound: number[] = [];
  let total = 0;
  for (let r = 0; r < options.rounds; r++) {
    const start = cpuUs();
    const began = process.hrtime.bigint();
    let n = 0;
    while (roundGoesOn(n, began, options.roundMs)) {
      op(i++);
      n++;
    }
    perRound.push((cpuUs() - start) / n);
    total += n;
  }
  return { usPerOp: median(perRound), rounds: options.rounds, opsPerRound: Math.round(total / options.rounds) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}
