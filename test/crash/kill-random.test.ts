// SIGKILL at a random moment while concurrent clients add nodes with unique @id keys: after a restart
// every acknowledged node is present, complete and unique. CRASH_SEEDS=<n> runs more seeds.

import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addItems, allItems, crashDir, itemInput, rng, startOn, uploadSchema } from './crash-helpers.js';

const seeds = Number(process.env['CRASH_SEEDS'] ?? 20);
const modes = ['everysec', 'always', 'no'] as const;

describe('SIGKILL during concurrent writes', () => {
  for (let seed = 1; seed <= seeds; seed++) {
    const fsync = modes[seed % modes.length] as string;
    it(`seed ${seed} (fsync ${fsync}): every acknowledged node survives, whole and once`, async () => {
      const random = rng(seed);
      const dir = crashDir();
      try {
        const args = ['--fsync', fsync, '--snapshot-every', String(10 + Math.floor(random() * 40))];
        const first = await startOn(dir, args);
        await uploadSchema(first);
        const acked = new Set<string>();
        let firstAck: () => void = () => undefined;
        const acknowledged = new Promise<void>((resolve) => (firstAck = resolve));
        let stop = false;
        const client = async (c: number): Promise<void> => {
          for (let n = 0; !stop; n++) {
            const size = 1 + Math.floor(random() * 3);
            const keys = Array.from({ length: size }, (_, i) => `s${seed}-c${c}-${n}-${i}`);
            try {
              if (await addItems(first.url, keys)) {
                for (const key of keys) acked.add(key);
                firstAck();
              }
            } catch {
              return; // the connection died with the server
            }
          }
        };
        const clients = Array.from({ length: 4 }, (_, c) => client(c));
        // The random moment counts from the first acknowledgement, so a slow (loaded) machine still
        // kills the server mid-stream rather than before anything was written.
        await acknowledged;
        await new Promise((resolve) => setTimeout(resolve, random() * 400));
        first.child.kill('SIGKILL');
        stop = true;
        await Promise.all(clients);
        await first.exited;
        expect(acked.size).toBeGreaterThan(0);

        const second = await startOn(dir, ['--fsync', fsync]);
        try {
          const items = await allItems(second.url);
          const seen = new Map<string, number>();
          for (const item of items) {
            seen.set(item.key, (seen.get(item.key) ?? 0) + 1);
            const { key, ...fields } = itemInput(item.key);
            expect({ key, ...fields }).toEqual(item); // complete: no node with missing fields
          }
          for (const key of acked) expect(seen.get(key), key).toBe(1);
          for (const [key, count] of seen) expect(count, key).toBe(1);
        } finally {
          await second.stop();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);
  }
});
