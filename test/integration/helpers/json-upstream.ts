// A lambda / `@custom(http:)` endpoint on 127.0.0.1 for the tests: each request's JSON body goes to
// `answer` with its path, and whatever it resolves to is sent back as JSON with status 200.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JsonUpstream {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startJsonUpstream(answer: (path: string, body: Record<string, unknown>) => unknown): Promise<JsonUpstream> {
  const server: Server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      void Promise.resolve(answer(req.url ?? '', JSON.parse(text) as Record<string, unknown>)).then((value) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
