import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The JSON report feeds the plain "N passed, N failed" line CI prints (.ci/summary.mjs).
    reporters: ['default', 'json'],
    outputFile: { json: 'dist/test-results.json' },
    projects: [
      { extends: true, test: { name: 'main', include: ['test/**/*.test.ts'], exclude: ['test/hostile/**'], sequence: { groupOrder: 0 } } },
      // The hostile suite asserts that a watchdog query is answered within 100 ms while an attack runs:
      // its files run after everything else and one at a time, so no other test shares the cores.
      { extends: true, test: { name: 'hostile', include: ['test/hostile/**/*.test.ts'], sequence: { groupOrder: 1 }, fileParallelism: false } },
    ],
  },
});
