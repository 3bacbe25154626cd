// The offline tools' progress: a bar redrawn in place on a terminal, plain throttled lines elsewhere.

import { describe, expect, it } from 'vitest';
import { progress } from '../../../server/cli/progress.js';

function sink(isTTY: boolean): { isTTY: boolean; text: string; write(t: string): void } {
  return { isTTY, text: '', write(t: string) { this.text += t; } };
}

describe('progress', () => {
  it('off a terminal: a line every 2 s with count, total, percentage and rate; the last one at the end', () => {
    const out = sink(false);
    let t = 0;
    const p = progress('import', 'records', 10_000, out, () => t);
    for (const [at, done] of [[500, 1_000], [2_000, 4_000], [3_000, 6_000], [4_100, 8_000], [5_000, 10_000]] as const) {
      t = at;
      p(done);
    }
    p.finish();
    expect(out.text).toBe(['import: 4,000/10,000 records (40%), 2,000 records/s', 'import: 8,000/10,000 records (80%), 1,951 records/s', 'import: 10,000/10,000 records (100%), 2,000 records/s', ''].join('\n'));
  });

  it('off a terminal, a task shorter than one interval prints nothing (its summary follows)', () => {
    const out = sink(false);
    let t = 0;
    const p = progress('export', 'nodes', 3, out, () => t);
    t = 10;
    p(3);
    p.finish();
    expect(out.text).toBe('');
  });

  it('on a terminal: a bar redrawn in place, the line ended by finish', () => {
    const out = sink(true);
    let t = 0;
    const p = progress('export', 'nodes', 4, out, () => t);
    t = 250;
    p(1);
    t = 300;
    p(2); // within 200 ms of the last draw: skipped
    t = 1_000;
    p(4);
    p.finish();
    expect(out.text).toBe('\rexport [########----------------------] 1/4 nodes (25%), 4 nodes/s\rexport [##############################] 4/4 nodes (100%), 4 nodes/s\n');
  });
});
