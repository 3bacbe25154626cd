// Shared tools of the hostile suite: while an attack runs against the real server process, a watchdog
// keeps sending a simple query and records how long each answer took, so a test can assert that the
// attack stalled nobody else; `rssOf` reads the server's resident memory so a test can assert it returns.

import { readFileSync } from 'node:fs';
import { postGraphql } from '../../integration/helpers/http.js';

export interface WatchdogReport {
  /** Answers received while the watchdog ran. */
  readonly answered: number;
  /** Slowest answer in milliseconds (including one still outstanding when the watchdog stopped). */
  readonly worstMs: number;
  /** Answers that were not `{"data":{"__typename":"Query"}}`. */
  readonly wrong: readonly string[];
}

export interface Watchdog {
  /** Settles once the first (unmeasured) answer is in: the server's and client's first-use costs are paid. */
  readonly ready: Promise<void>;
  stop(): Promise<WatchdogReport>;
}

/** Sends `{ __typename }` back to back (one in flight, `gapMs` apart) until stopped; the first answer is not timed. */
export function startWatchdog(baseUrl: string, gapMs = 10): Watchdog {
  let running = true;
  let answered = 0;
  let worstMs = 0;
  let inFlightSince = 0;
  const wrong: string[] = [];
  const first = postGraphql(baseUrl, { query: '{ __typename }' });
  const ready = first.then((answer) => {
    if (answer.text !== '{"data":{"__typename":"Query"}}') wrong.push(`${answer.status} ${answer.text.slice(0, 200)}`);
  });
  const loop = (async () => {
    await ready;
    while (running) {
      inFlightSince = performance.now();
      const answer = await postGraphql(baseUrl, { query: '{ __typename }' });
      const took = performance.now() - inFlightSince;
      inFlightSince = 0;
      worstMs = Math.max(worstMs, took);
      answered += 1;
      if (answer.text !== '{"data":{"__typename":"Query"}}') wrong.push(`${answer.status} ${answer.text.slice(0, 200)}`);
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
  })();
  return {
    ready,
    async stop() {
      running = false;
      const outstanding = inFlightSince === 0 ? 0 : performance.now() - inFlightSince;
      await loop;
      return { answered, worstMs: Math.max(worstMs, outstanding), wrong };
    },
  };
}

/** Runs `attack` with a watchdog beside it; returns the attack's result and the watchdog's report. */
export async function underWatch<T>(baseUrl: string, attack: () => Promise<T>): Promise<{ result: T; report: WatchdogReport }> {
  const watchdog = startWatchdog(baseUrl);
  await watchdog.ready;
  try {
    const result = await attack();
    return { result, report: await watchdog.stop() };
  } catch (error) {
    await watchdog.stop();
    throw error;
  }
}

/** Resident memory of a process in bytes (Linux /proc). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}
