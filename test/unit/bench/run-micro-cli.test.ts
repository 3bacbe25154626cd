// The micro-benchmark runner's command line: a mistyped flag, --help or an unknown scenario must
// answer at once (a run of every case at 1M nodes takes minutes), and the usage names every flag.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../integration/helpers/server-process.js';

const usage = 'usage: node dist/bench/micro/run-micro.js [--quick] [--out <file>] [--scenario <a,b>] [--scales <n,n>]';
const run = (...args: string[]) => spawnSync(process.execPath, [join(projectRoot, 'dist/bench/micro/run-micro.js'), ...args], { encoding: 'utf8', timeout: 20_000 });

describe('run-micro command line', () => {
  it('--help prints the usage and runs nothing', () => {
    const out = run('--help');
    expect(out.status).toBe(0);
    expect(out.stdout.trim()).toBe(usage);
    expect(out.stderr).toBe('');
  });

  it('an unknown flag is refused with the usage', () => {
    const out = run('--scenaro', 'get-by-id');
    expect(out.status).toBe(2);
    expect(out.stderr).toBe(`Unknown option '--scenaro'\n${usage}\n`);
  });

  it('an unknown scenario is refused with the known names', () => {
    const out = run('--scenario', 'get-by-id,nope');
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/^unknown scenario nope; known: get-by-id, get-by-xid, .*, delete\n$/);
  });

  it('a scale that is not a positive integer is refused', () => {
    const out = run('--scales', '10k');
    expect(out.status).toBe(2);
    expect(out.stderr).toBe(`--scales takes positive integers\n${usage}\n`);
  });
});
