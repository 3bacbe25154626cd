// A loopback upstream for @custom benchmarks (bare uWebSockets.js, so it is never the bottleneck):
// POST any path with a JSON object or list of objects; each object is answered with
// `up:<its values in key order, joined by ":">` (a list answers a list of the same length), after `--delay-ms`.
// GET /stats reports calls, peak concurrency, time spent per call and the last list body;
// POST /stats/reset clears them. Run: node dist/bench/upstream/mock-upstream.js --port 0 [--delay-ms 20]

import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type * as Uws from 'uWebSockets.js';
import type { UpstreamStats } from './upstream-client.js';

/** The computed value for one object: its values in key order (so senders may order keys as they like). */
function answerFor(item: unknown): string {
  if (typeof item !== 'object' || item === null) return 'up:';
  const record = item as Record<string, unknown>;
  return `up:${Object.keys(record).sort().map((key) => String(record[key])).join(':')}`;
}

const { values } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string' }, 'delay-ms': { type: 'string' } } });
const host = values.host ?? '127.0.0.1';
const delayMs = Number(values['delay-ms'] ?? 0);
const uws = createRequire(import.meta.url)('uWebSockets.js') as typeof Uws;
let calls = 0;
let inFlight = 0;
let peak = 0;
let spentMs: number[] = [];
let lastListBody: string | null = null;

const app = uws.App();
app.get('/stats', (res) => {
  const stats: UpstreamStats = { calls, peak, spentMs, lastListBody };
  res.cork(() => res.writeHeader('content-type', 'application/json').end(JSON.stringify(stats)));
});
app.post('/stats/reset', (res) => {
  calls = 0;
  peak = inFlight;
  spentMs = [];
  lastListBody = null;
  res.cork(() => res.end('{}'));
});
app.post('/*', (res) => {
  const arrived = performance.now();
  calls++;
  peak = Math.max(peak, ++inFlight);
  let aborted = false;
  res.onAborted(() => {
    aborted = true;
    inFlight--;
  });
  const chunks: Buffer[] = [];
  res.onData((chunk, isLast) => {
    // uWS reuses the chunk's memory after this callback returns.
    chunks.push(Buffer.from(chunk.slice(0)));
    if (!isLast) return;
    const text = Buffer.concat(chunks).toString('utf8');
    let answer: string;
    try {
      const body: unknown = JSON.parse(text);
      if (Array.isArray(body)) lastListBody = text;
      answer = JSON.stringify(Array.isArray(body) ? body.map(answerFor) : answerFor(body));
    } catch {
      answer = '';
    }
    const reply = (): void => {
      if (aborted) return;
      inFlight--;
      res.cork(() => {
        if (answer === '') res.writeStatus('400 Bad Request').end('not JSON');
        else res.writeHeader('content-type', 'application/json').end(answer);
      });
      spentMs.push(performance.now() - arrived);
    };
    if (delayMs > 0) setTimeout(reply, delayMs);
    else reply();
  });
});
app.listen(host, Number(values.port ?? 0), (socket) => {
  if (socket === false) throw new Error('could not listen');
  console.log(`listening on http://${host}:${uws.us_socket_local_port(socket as unknown as Uws.us_socket)}`);
});
process.once('SIGTERM', () => process.exit(0));
process.once('SIGINT', () => process.exit(0));
