// /admin export logs its progress as the offline tools show it: a start line, a line every 2 s with the
// nodes written, the total, the percentage and the rate, and an end line with the totals and the
// duration (an injected clock: each reading 1.5 s after the last).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../engine/index.js';
import { createAdminHost } from '../../../server/admin-host.js';
import { createLogger } from '../../../server/log.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('/admin export log lines', () => {
  it('start, progress every 2 s (nodes, of, percent, perSecond, ms), end with totals and duration', async () => {
    const engine = await Engine.open({ dataDir: '', maxQueryTokens: 50_000, maxQueryDepth: 200, debug: false });
    expect((await engine.updateSchema('type Item { code: String! @id name: String }')).ok).toBe(true);
    const added = await engine.execute({ method: 'POST', headers: {}, query: 'mutation { addItem(input: [{code: "a"}, {code: "b"}, {code: "c"}, {code: "d"}]) { numUids } }' });
    expect(JSON.parse(added.body)).toMatchObject({ data: { addItem: { numUids: 4 } } });
    const dataDir = mkdtempSync(join(tmpdir(), 'export-log-'));
    dirs.push(dataDir);
    const lines: string[] = [];
    const log = createLogger('info', { format: 'json', stream: { write: (line: string) => void lines.push(line) } });
    let t = 0;
    const now = (): number => (t += 1_500) - 1_500;
    const host = createAdminHost({ engine, dataDir, log, address: () => '127.0.0.1:0', shutdown: () => undefined, now });
    const file = await host.exportData('0x7');
    expect(readFileSync(file, 'utf8').split('\n').filter((line) => line !== '')).toHaveLength(4);
    const records = lines.map((line) => {
      const { time: _time, pid: _pid, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return rest;
    });
    expect(records).toEqual([
      { level: 'info', msg: 'export started', taskId: '0x7' },
      // the throttle starts at 1.5 s; due 2 s after it: the second node at 4.5 s, the fourth at 7.5 s
      { level: 'info', msg: 'exporting', taskId: '0x7', nodes: 2, of: 4, percent: 50, perSecond: 1, ms: 3_000 },
      { level: 'info', msg: 'exporting', taskId: '0x7', nodes: 4, of: 4, percent: 100, perSecond: 1, ms: 6_000 },
      { level: 'info', msg: 'export written', taskId: '0x7', file, nodes: 4, types: 1, ms: 9_000 },
    ]);
  });
});
