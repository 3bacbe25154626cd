// The ceiling answers with the service's bytes: the same status line and headers, in the same order and of
// the same lengths (the date, a request id and the touched-uids count are per answer), and a body the size
// of the shape's answer. A ceiling sending fewer header bytes would be cheaper than "the same bytes".

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset, writeDataset } from '../../../bench/data/dataset.js';
import { loadService } from '../../../bench/load/load-service.js';
import { spawnContender, type RunningContender } from '../../../bench/load/spawn-contender.js';
import { ceilingIds } from '../../../bench/matrix/varied-shape.js';
import { buildLoadScenarios } from '../../../bench/scenarios.js';
import { rawExchange } from '../../integration/helpers/raw-http.js';
import { projectRoot, startServer, type ServerProcess } from '../../integration/helpers/server-process.js';

const data = generateDataset({ posts: 200, authors: 20 });
const dir = mkdtempSync(join(tmpdir(), 'ceiling-bytes-'));
const unpinned = { pinned: false, note: 'test' };
let ceiling: RunningContender;
let service: ServerProcess;

beforeAll(async () => {
  writeDataset(join(dir, 'data.json'), data);
  [ceiling, service] = await Promise.all([
    spawnContender(unpinned, join(projectRoot, 'dist/bench/contenders/ceiling-uws.js'), ['--port', '0', '--data', join(dir, 'data.json')]),
    startServer({ args: [] }),
  ]);
  await loadService(service.url, data, 'http://127.0.0.1:9');
}, 60_000);
afterAll(async () => {
  await Promise.all([ceiling?.stop(), service?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

/** The head of a raw answer with the per-answer values blanked to their lengths; and the body's length. */
async function answer(url: string, path: string, body: string): Promise<{ head: string[]; bodyBytes: number }> {
  const raw = await rawExchange(url, `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`, 1_000);
  const [head = '', rest = ''] = raw.text.split('\r\n\r\n');
  const lines = head.split('\r\n').map((line) => line.replace(/^(Date|X-Request-Id|Graphql-TouchedUids|Content-Length): (.*)$/, (_all, name: string, value: string) => `${name}: <${name === 'Date' ? value.length : 'n'}>`));
  return { head: lines, bodyBytes: Buffer.byteLength(rest, 'latin1') };
}

describe('the ceiling', () => {
  it("sends the service's status line and headers, and a body of the answer's size", async () => {
    const scenario = buildLoadScenarios(data).find((s) => s.name === 'hash-eq');
    if (scenario === undefined) throw new Error('no hash-eq shape');
    const body = JSON.stringify({ query: scenario.document, variables: scenario.variables(ceilingIds, 0, 'test') });
    const fromService = await answer(service.url, '/graphql', body);
    const fromCeiling = await answer(ceiling.url, '/ceiling/hash-eq', body);
    expect(fromCeiling.head).toEqual(fromService.head);
    expect(fromCeiling.head).toContain('Access-Control-Allow-Credentials: true');
    expect(fromCeiling.bodyBytes).toBe(Buffer.byteLength(JSON.stringify({ data: scenario.sample(ceilingIds) })));
  });
});
