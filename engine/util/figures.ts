// Process-wide figures for GET /metrics that hot paths bump (a process serves one engine): plain number
// fields and fixed-bucket tallies, so an observation costs a few adds and allocates nothing. The server
// reads them when scraped (server/metrics.ts).

/** Upper bounds (seconds) of the latency buckets every tally shares: 50 µs .. 30 s. */
export const latencyBuckets: readonly number[] = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A histogram's counts: `counts[i]` observations in bucket i (not cumulative; the last slot is +Inf). */
export class LatencyTally {
  readonly counts = new Float64Array(latencyBuckets.length + 1);
  sum = 0;
  count = 0;

  observe(seconds: number): void {
    let i = 0;
    while (i < latencyBuckets.length && seconds > (latencyBuckets[i] as number)) i++;
    (this.counts[i] as number)++;
    this.sum += seconds;
    this.count++;
  }
}

/** Outgoing @custom/@lambda calls (engine/custom/call-runner.ts). */
export const customCallFigures = {
  calls: 0,
  errors: 0,
  timeouts: 0,
  /** Per batch of calls sent together (one GraphQL field's calls), from send to the last answer. */
  durations: new LatencyTally(),
};

/** The mutation log and snapshots (engine/persist). */
export const persistFigures = {
  logBytes: 0,
  fsyncs: new LatencyTally(),
  /** Unix seconds of the last snapshot written by this process (0: none yet). */
  lastSnapshotAt: 0,
  lastSnapshotSeconds: 0,
};
