// A start that takes more than a second logs its progress: each phase once past the second, and the
// log replay every 2 s (count, total, percentage, rate); a quick start logs none of it.

import { describe, expect, it } from 'vitest';
import { restoreProgress } from '../../../engine/serving/open-persistence.js';

function recorder(): { lines: unknown[]; info(message: string, fields?: Record<string, unknown>): void; warn(): void; error(): void } {
  return { lines: [], info(message, fields) { this.lines.push({ message, ...fields }); }, warn() {}, error() {} };
}

describe('restoreProgress', () => {
  it('a slow start: phases after the first second, replay lines every 2 s with the rate', () => {
    const log = recorder();
    let t = 0;
    const p = restoreProgress(log, () => t);
    t = 400;
    p.phase('files read and checked');
    t = 1_500;
    p.phase('snapshot loaded');
    t = 2_000;
    p.replayed(1_024, 10_240);
    t = 3_600;
    p.replayed(5_120, 10_240);
    t = 4_000;
    p.replayed(6_144, 10_240);
    t = 5_000;
    p.phase('10240 log records replayed');
    expect(log.lines).toEqual([
      { message: 'restoring', done: 'snapshot loaded', ms: 1_500 },
      { message: 'restoring', replayed: 5_120, of: 10_240, percent: 50, perSecond: 1_422, ms: 3_600 },
      { message: 'restoring', done: '10240 log records replayed', ms: 5_000 },
    ]);
  });

  it('a quick start logs nothing', () => {
    const log = recorder();
    let t = 0;
    const p = restoreProgress(log, () => t);
    t = 300;
    p.phase('snapshot loaded');
    p.replayed(1_024, 2_048);
    t = 900;
    p.phase('2048 log records replayed');
    expect(log.lines).toEqual([]);
  });
});
