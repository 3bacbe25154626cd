// One timed load run with wrk (C, epoll), the suite's other load generator (`--load wrk`). On one core
// autocannon (JS) tops out near the bare server's rate, so the ceiling it measures is partly its own
// limit; wrk is not, so its runs show each contender's own capacity. Varied bodies come from a Lua
// file the script loads (every request pre-formatted at start-up, sent round-robin by `request()`);
// a unique body per request is a variant's parts joined by a counter. wrk cannot pace, so fixed-rate runs stay
// on autocannon (load-runner.ts).
// Its figures come back from a Lua `done` hook as one JSON line: latencies from wrk's own histogram
// (microseconds), errors and non-2xx/3xx responses from its summary.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { LoadOptions, LoadResult, RequestBodies } from './autocannon-run.js';

const run = promisify(execFile);
const marker = 'WRK-RESULT ';

interface WrkSummary {
  readonly requests: number;
  readonly durationUs: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly meanUs: number;
  readonly socketErrors: number;
  readonly badStatus: number;
}

/** Whether a wrk binary is on the PATH (`wrk --version` exits 1 after printing its banner). */
export async function wrkAvailable(): Promise<boolean> {
  try {
    await run('wrk', ['--version']);
    return true;
  } catch (error) {
    return typeof (error as { stdout?: unknown }).stdout === 'string' && String((error as { stdout: string }).stdout).startsWith('wrk ');
  }
}

/** wrk cannot pace: fixed-rate runs are not for it. */
export function wrkCanRun(options: LoadOptions): boolean {
  return options.overallRate === undefined;
}

export async function runWrk(options: LoadOptions): Promise<LoadResult> {
  if (!wrkCanRun(options)) throw new Error('wrk runs take no rate');
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  try {
    const script = join(dir, 'request.lua');
    const bodiesFile = join(dir, 'bodies.lua');
    const bodies: RequestBodies = typeof options.body === 'string' ? { kind: 'list', bodies: [options.body] } : options.body;
    writeFileSync(bodiesFile, luaBodies(bodies));
    writeFileSync(script, luaScript(bodiesFile, bodies.kind));
    // wrk counts whole seconds; the 10 s timeout matches the autocannon runs.
    const seconds = String(Math.max(1, Math.round(options.durationS)));
    const { stdout } = await run('wrk', ['-t1', `-c${options.connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, options.url], { maxBuffer: 1 << 20 });
    const line = stdout.split('\n').find((l) => l.startsWith(marker));
    if (line === undefined) throw new Error(`wrk printed no result line:\n${stdout}`);
    const summary = JSON.parse(line.slice(marker.length)) as WrkSummary;
    const durationS = summary.durationUs / 1e6;
    const ok = summary.requests - summary.badStatus;
    return {
      generator: 'wrk',
      requests: ok,
      rps: ok / durationS,
      p50Ms: summary.p50Us / 1000,
      p99Ms: summary.p99Us / 1000,
      meanMs: summary.meanUs / 1000,
      errors: summary.socketErrors,
      non2xx: summary.badStatus,
      durationS,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A Lua chunk returning the bodies (or the parts around the counter) as a list of strings. */
export function luaBodies(bodies: RequestBodies): string {
  const items = bodies.kind === 'list' ? bodies.bodies.map(luaString) : bodies.variants.map((parts) => `{ ${parts.map(luaString).join(', ')} }`);
  return `return {\n${items.map((item) => `${item},`).join('\n')}\n}\n`;
}

function luaScript(bodiesFile: string, kind: RequestBodies['kind']): string {
  // Built in init(): wrk adds the Host header just before calling it, and wrk.format copies the headers.
  const send =
    kind === 'list'
      ? [
          // Formatted once: per request wrk only picks the next string.
          'local requests, count, at = {}, 0, 0',
          'init = function(args)',
          '  for i, body in ipairs(items) do requests[i] = wrk.format(nil, nil, nil, body) end',
          '  count = #requests',
          'end',
          'request = function()',
          '  at = at % count + 1',
          '  return requests[at]',
          'end',
        ]
      : [
          'local n = 0',
          'request = function()',
          '  n = n + 1',
          '  return wrk.format(nil, nil, nil, table.concat(items[(n - 1) % #items + 1], tostring(n)))',
          'end',
        ];
  return [
    'wrk.method = "POST"',
    'wrk.headers["Content-Type"] = "application/json"',
    `local items = dofile(${luaString(bodiesFile)})`,
    ...send,
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    `  io.write(string.format('${marker}{"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"meanUs":%f,"socketErrors":%d,"badStatus":%d}\\n',`,
    '    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.mean,',
    '    e.connect + e.read + e.write + e.timeout, e.status))',
    'end',
    '',
  ].join('\n');
}

/** A Lua long bracket string that `text` cannot close early (not even with its last characters). */
export function luaString(text: string): string {
  let level = 0;
  const close = (): string => `]${'='.repeat(level)}]`;
  while (`${text}${close()}`.indexOf(close()) !== text.length) level++;
  const eq = '='.repeat(level);
  // Lua drops a newline right after the opening bracket: keep one that starts the text.
  return `[${eq}[${text.startsWith('\n') ? '\n' : ''}${text}]${eq}]`;
}
