// The load generator of one run: autocannon, or with `--load wrk` wrk for every run it can make
// (one fixed body, no rate); per-request bodies (mutations) and fixed-rate runs stay on autocannon.

import { runLoad, type LoadGenerator, type LoadOptions, type LoadResult } from './autocannon-run.js';
import { runWrk, wrkCanRun } from './wrk-run.js';

export function runLoadWith(generator: LoadGenerator, options: LoadOptions): Promise<LoadResult> {
  return generator === 'wrk' && wrkCanRun(options) ? runWrk(options) : runLoad(options);
}
