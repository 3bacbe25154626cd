// bench/micro/write-split.ts on a small data set: every shape's requests answered (the script throws on
// an error or a numUids other than 1), a line of figures per shape, a CPU profile per shape with
// --profile, and a run that would delete more posts than it may refused before any is timed.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../integration/helpers/server-process.js';

const dist = join(projectRoot, 'dist');
const run = (...args: string[]) => spawnSync(process.execPath, [join(dist, 'bench/micro/write-split.js'), dist, ...args], { encoding: 'utf8', timeout: 60_000 });
const profiles = mkdtempSync(join(tmpdir(), 'write-split-test-'));

afterAll(() => rmSync(profiles, { recursive: true, force: true }));

describe('write-split', () => {
  it('times add, add-whole-post, delete-only and delete, and profiles each', () => {
    const out = run('--posts', '3000', '--rounds', '3', '--ops', '40', '--profile', profiles);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines[0]).toBe('3000 posts, a data directory (fsync off), 20 requests at once; CPU µs per request over 2 alternating rounds of 40');
    expect(lines.slice(1, 5).map((line) => line.replace(/[\d.]+/g, 'n').replace(/ +/g, ' '))).toEqual([
      'add median n least n',
      'add-whole-post median n least n',
      'delete-only median n least n',
      'delete median n least n',
    ]);
    for (const shape of ['add', 'add-whole-post', 'delete-only', 'delete']) {
      const profile = JSON.parse(readFileSync(join(profiles, `${shape}.cpuprofile`), 'utf8')) as { nodes: unknown[] };
      expect(profile.nodes.length).toBeGreaterThan(0);
    }
  });

  it('--shapes keeps the named shapes (delete-only left out: more rounds than it has posts for), and refuses names of none; profile-stages classifies a profile', () => {
    const out = run('--posts', '3000', '--rounds', '60', '--ops', '200', '--shapes', 'add', '--profile', profiles);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines[0]).toBe('3000 posts, a data directory (fsync off), 20 requests at once; CPU µs per request over 59 alternating rounds of 200');
    expect(lines.slice(1, -1).map((line) => line.replace(/[\d.]+/g, 'n').replace(/ +/g, ' '))).toEqual(['add median n least n']);
    const bad = run('--posts', '3000', '--shapes', 'nothing');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--shapes names none of add, add-whole-post, delete-only, delete');
    const stages = spawnSync(process.execPath, [join(dist, 'bench/micro/profile-stages.js'), join(profiles, 'add.cpuprofile')], { encoding: 'utf8' });
    expect(stages.status).toBe(0);
    const [head, ...shares] = stages.stdout.trim().split('\n');
    expect(head).toMatch(/^\d+ samples$/);
    const percents = shares.map((line) => Number(/^ *([\d.]+)%/.exec(line)?.[1]));
    expect(Math.abs(percents.reduce((a, b) => a + b, 0) - 100)).toBeLessThan(1);
    expect(shares.some((line) => line.endsWith('log record (redo ops, msgpack, CRC, frame)'))).toBe(true);
    expect(shares.some((line) => line.endsWith('token indexes'))).toBe(true);
  });

  it('refuses a run that would delete more posts than it has', () => {
    const out = run('--posts', '3000', '--rounds', '60', '--ops', '200');
    expect(out.status).not.toBe(0);
    expect(out.stderr).toMatch(/delete-only would run out of posts \(\d+\): fewer rounds or ops, or more posts/);
  });
});
