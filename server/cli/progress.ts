// Progress of a long offline task (import, export): on a terminal a bar redrawn in place; otherwise
// (a pipe, a log file, CI) one plain line every few seconds with the count, the total and the rate,
// so the output stays readable and small. When a report is due is the engine's progressThrottle's call.

import { progressThrottle } from '../../engine/index.js';

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
export function progress(label: string, unit: string, total: number, sink: Sink = process.stderr, now?: () => number): Progress {
  const terminal = sink.isTTY === true;
  // Off a terminal, a task shorter than one interval prints nothing: its summary says it all.
  const throttle = terminal ? progressThrottle(200, 0, now) : progressThrottle(2000, 2000, now);
  let drawn = false;
  const report = ((done: number): void => {
    const figures = throttle.due(done, total, done >= total);
    if (figures === undefined) return;
    const counts = `${Math.round(done).toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${unit} (${figures.percent}%), ${figures.perSecond.toLocaleString('en-US')} ${unit}/s`;
    if (terminal) {
      const width = 30;
      const full = total === 0 ? width : Math.round(Math.min(1, done / total) * width);
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
