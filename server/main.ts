// Entry point: `node dist/server/main.js [options]`. Exit codes: 0 clean, 1 start-up failure, 2 bad usage.
// Loads no test hooks (those enter through server/testing/).

import { runAsProcess, serve } from './serve.js';

runAsProcess(serve());
