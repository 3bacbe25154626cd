// bench/micro/token-index-ab.ts on a small data set, one build against itself: a line of figures per index kind
// (after both builds' answers were checked equal), and an unknown kind refused.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../integration/helpers/server-process.js';

const dist = join(projectRoot, 'dist');
const run = (...args: string[]) => spawnSync(process.execPath, [join(dist, 'bench/micro/token-index-ab.js'), dist, dist, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('token-index-ab', () => {
  it('times each token index kind of both builds', () => {
    const out = run('--posts', '2000', '--rounds', '2', '--ops', '50');
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines[0]).toBe("2000 posts; CPU µs per remove + add back (median of 2 alternating rounds of 50), B/A the median of the rounds' ratios");
    expect(lines.slice(1).map((line) => line.replace(/[\d.]+/g, 'n').replace(/ +/g, ' '))).toEqual([
      'ngram A n B n B/A n',
      'fulltext A n B n B/A n',
      'term A n B n B/A n',
      'trigram A n B n B/A n',
    ]);
  });

  it('refuses an unknown index kind', () => {
    const out = run('--posts', '500', '--kinds', 'geo');
    expect(out.status).not.toBe(0);
    expect(out.stderr).toMatch(/unknown kind geo/);
  });
});
