import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // End-to-end tests share one Chromium and the machine has two cores.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
