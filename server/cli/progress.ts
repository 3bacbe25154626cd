// Progress of a long offline task (import, export): on a terminal a bar redrawn in place; otherwise
// (a pipe, a log file, CI) one plain line every few seconds with the count, the total and the rate,
// so the output stays readable and small.

export interface Progress {
  /** `done` units of `total` so far (called as often as the task likes: output is throttled). */
  (done: number): void;
  /** Ends the bar's line on a terminal (the task's summary line follows). */
  finish(): void;
}

interface Sink {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** `label` names the task, `unit` what is counted; `now` is injectable for tests. */
export function progress(label: string, unit: string, total: number, sink: Sink = process.stderr, now: () => number = () => performance.now()): Progress {
  const terminal = sink.isTTY === true;
  const everyMs = terminal ? 200 : 2000;
  const started = now();
  let last = started;
  let drawn = false;
  const report = ((done: number): void => {
    const at = now();
    if (at - last < everyMs && done < total) return;
    if (!terminal && done >= total && at - started < everyMs) return; // a short task: its summary says it all
    last = at;
    const ratio = total === 0 ? 1 : Math.min(1, done / total);
    const rate = at > started ? Math.round((done * 1000) / (at - started)) : 0;
    const counts = `${Math.round(done).toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${unit} (${Math.round(ratio * 100)}%), ${rate.toLocaleString('en-US')} ${unit}/s`;
    if (terminal) {
      const width = 30;
      const full = Math.round(ratio * width);
      sink.write(`\r${label} [${'#'.repeat(full)}${'-'.repeat(width - full)}] ${counts}`);
      drawn = true;
    } else sink.write(`${label}: ${counts}\n`);
  }) as Progress;
  report.finish = () => {
    if (drawn) sink.write('\n');
    drawn = false;
  };
  return report;
}
