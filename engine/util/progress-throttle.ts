// The one throttle of progress reports for long work (the offline import and export, the start's
// restore, /admin export): when a report is due and its figures (count, total, percentage, rate,
// elapsed). Callers only render: a bar, a text line or a log record.

export interface ProgressFigures {
  readonly done: number;
  readonly total: number;
  /** Whole percent of `total` (100 when there is nothing to do). */
  readonly percent: number;
  /** Units per second since the start. */
  readonly perSecond: number;
  /** Since the start. */
  readonly ms: number;
}

export interface ProgressThrottle {
  /**
   * The figures when a report is due, else undefined: `everyMs` after the last one, never within the
   * quiet start. `end` (the task's last unit, a phase's end) is due however soon after the last report.
   */
  due(done: number, total: number, end?: boolean): ProgressFigures | undefined;
}

/**
 * `everyMs`: at most one report per interval. `quietMs`: a task that ends within it reports nothing
 * (its summary says it all). `now` is injectable for tests.
 */
export function progressThrottle(everyMs: number, quietMs = 0, now: () => number = () => performance.now()): ProgressThrottle {
  const started = now();
  let last = started;
  return {
    due(done, total, end = false) {
      const at = now();
      if (at - started < quietMs || (!end && at - last < everyMs)) return undefined;
      last = at;
      const ms = at - started;
      return {
        done,
        total,
        percent: total === 0 ? 100 : Math.round(Math.min(1, done / total) * 100),
        perSecond: ms > 0 ? Math.round((done * 1000) / ms) : 0,
        ms: Math.round(ms),
      };
    },
  };
}
