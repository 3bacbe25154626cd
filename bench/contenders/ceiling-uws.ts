// The ceiling: a bare uWebSockets.js server that reads each POST body and answers with a fixed JSON
// body the size of the scenario's real answer (the median-size answer of its checked variants;
// `POST /ceiling/<scenario>`) under the service's own answer headers (its CORS block, content type,
// Graphql-TouchedUids and a fresh X-Request-Id, written as the service writes them), so it sends the same
// bytes, not only the same body. No GraphQL at all: what one core can do for HTTP alone.
// Run: node dist/bench/contenders/ceiling-uws.js --port 0 --data <file>

import { createRequire } from 'node:module';
import type * as Uws from 'uWebSockets.js';
import { staticCorsHeaders } from '../../server/cors-headers.js';
import { headerBlock } from '../../server/exchange.js';
import { nextRequestId } from '../../server/request-id.js';
import { ceilingIds } from '../matrix/varied-shape.js';
import { buildLoadScenarios } from '../scenarios.js';
import { announce, contenderArgs, exitOnSignal } from './peer/contender-cli.js';

const args = contenderArgs();
const uws = createRequire(import.meta.url)('uWebSockets.js') as typeof Uws;
if (typeof (uws as Partial<typeof Uws>).getParts !== 'function') throw new Error('uWebSockets.js loaded its JS fallback, not the native module');

// uWS's switch that drops its own `uWebSockets: 20` header, as the service sets it (server/uws-transport.ts).
(uws as unknown as { _cfg(key: string): void })._cfg('999999990007');
// A two-digit count: the service's differs per answer; its length is what the bytes depend on.
const block = headerBlock({ ...staticCorsHeaders, 'Content-Type': 'application/json', 'Graphql-TouchedUids': '10' });
if (block === null) throw new Error('no answer headers');
const app = uws.App();
for (const scenario of buildLoadScenarios(args.data)) {
  const body = Buffer.from(JSON.stringify({ data: scenario.sample(ceilingIds) }));
  app.post(`/ceiling/${scenario.name}`, (res) => {
    let aborted = false;
    res.onAborted(() => (aborted = true));
    res.onData((_chunk, isLast) => {
      if (!isLast || aborted) return;
      res.cork(() => res.writeHeader(block.name, block.value).writeHeader('X-Request-Id', nextRequestId()).end(body));
    });
  });
}
app.any('/*', (res) => void res.writeStatus('404 Not Found').end());
app.listen(args.host, args.port, (socket) => {
  if (socket === false) throw new Error('could not listen');
  announce(args.host, uws.us_socket_local_port(socket as unknown as Uws.us_socket));
});
exitOnSignal();
