// The engine's logger when none is injected (in-process use: tests, benchmarks, the import CLI). The
// server injects its own (server/log.ts), so a running service writes one log in one format.

import type { EngineLogger } from '../api.js';

export const consoleLogger: EngineLogger = {
  error: (message, fields) => console.error(message, fields ?? ''),
  warn: (message, fields) => console.warn(message, fields ?? ''),
  info: (message, fields) => console.log(message, fields ?? ''),
};
