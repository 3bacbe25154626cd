// Requests on a connection of their own (no keep-alive), which the kernel spreads over a `--threads`
// server's listeners (SO_REUSEPORT); the generated X-Request-Id's prefix names the thread that answered.

import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import { findLog } from './log-records.js';
import type { ServerProcess } from './server-process.js';

export interface Fresh {
  readonly status: number;
  readonly thread: string;
  readonly body: { data?: any; errors?: { message: string }[]; extensions?: { lsn?: number } };
  readonly text: string;
}

/** One request on a connection of its own, so any thread may take it. */
export function fresh(url: string, path: string, body: string | undefined, contentType = 'application/json'): Promise<Fresh> {
  return new Promise((resolve, reject) => {
    const method = body === undefined ? 'GET' : 'POST';
    const call = httpRequest(`${url}${path}`, { method, agent: false, headers: { 'content-type': contentType, connection: 'close' } }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        const id = String(response.headers['x-request-id'] ?? '');
        try {
          const json = response.headers['content-type']?.includes('json') === true;
          resolve({ status: response.statusCode ?? 0, thread: id.slice(0, id.lastIndexOf('-')), body: (json ? JSON.parse(text) : {}) as Fresh['body'], text });
        } catch (error) {
          reject(new Error(`${String(error)}: ${text}`));
        }
      });
    });
    call.on('error', reject);
    call.end(body);
  });
}

/** Asks until every one of `threads` threads answered (fresh connections are spread by a hash: a few dozen suffice). */
export async function onEveryThread(url: string, threads: number, ask: (url: string) => Promise<Fresh>): Promise<Map<string, Fresh>> {
  const seen = new Map<string, Fresh>();
  for (let i = 0; i < 200 && seen.size < threads; i++) {
    const answer = await ask(url);
    seen.set(answer.thread, answer);
  }
  expect(seen.size).toBe(threads);
  return seen;
}

/**
 * Waits until every thread of `server` has applied every write made so far: a replica answers a read
 * only once it holds the writer's log position at the read's arrival (it applies a large write after the
 * writer answered it, and that work must not land in a test's later figures, e.g. memory).
 */
export async function everyThreadCaughtUp(server: ServerProcess): Promise<void> {
  const threads = Number(findLog(server.output(), /^listening on /)?.['threads'] ?? 1);
  const caughtUp = new Set<string>();
  for (let i = 0; i < 400 && caughtUp.size < threads; i++) {
    // A replica that needs longer than its read-after bound refuses the read: asked again.
    const answer = await fresh(server.url, '/graphql', JSON.stringify({ query: '{ __typename }' }));
    if (answer.status === 200 && answer.body.errors === undefined) caughtUp.add(answer.thread);
  }
  expect(caughtUp.size).toBe(threads);
}
