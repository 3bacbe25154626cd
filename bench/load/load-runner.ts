// The load generator of one run: autocannon, or with `--load wrk` wrk for every run it can make
// (one fixed body, no rate); per-request bodies (mutations) and fixed-rate runs stay on autocannon.

import { runLoad, type LoadOptions, type LoadResult } from './autocannon-run.js';
import { runWrk } from './wrk-run.js';

export type LoadGenerator = 'autocannon' | 'wrk';

export function runLoadWith(generator: LoadGenerator, options: LoadOptions): Promise<LoadResult> {
  const wrk = generator === 'wrk' && typeof options.body === 'string' && options.overallRate === undefined;
  return wrk ? runWrk(options) : runLoad(options);
}
