import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The JSON report feeds the plain "N passed, N failed" line CI prints (.ci/summary.mjs).
    reporters: ['default', 'json'],
    outputFile: { json: 'dist/test-results.json' },
  },
});
