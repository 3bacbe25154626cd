// Persisted-query registrations in the log as counts, not one line each (a client may register
// thousands): the first at once, then one line a minute at most with how many were registered since
// the last line, and what is left at close.

import type { EngineLogger } from '../api.js';

export class RegistrationLog {
  #since = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The first line is written at once; later ones wait for the minute to end. */
  #quietUntil = 0;

  constructor(
    private readonly log: EngineLogger,
    /** How many are registered now. */
    private readonly total: () => number,
    private readonly everyMs = 60_000,
  ) {}

  /** One more registered. */
  registered(): void {
    this.#since++;
    if (this.#timer !== undefined) return;
    const wait = this.#quietUntil - performance.now();
    if (wait <= 0) return this.flush();
    this.#timer = setTimeout(() => this.flush(), wait);
    this.#timer.unref();
  }

  /** Writes the count since the last line, if any. */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#since === 0) return;
    this.log.info('persisted queries registered', { count: this.#since, total: this.total() });
    this.#since = 0;
    this.#quietUntil = performance.now() + this.everyMs;
  }
}
