import { defineConfig } from 'vitest/config';

/**
 * Three tiers: `unit` (pure code and SQLite, in process: no child process, worker
 * thread, bundling or browser), `integration` (the CLI and `loupe serve` as processes, the analysis
 * worker, esbuild bundles, electron-builder) and `e2e` (Debian Chromium, Electron). The two outer
 * tiers spawn out/cli/loupe.cjs, the bundle `npm run loupe` runs, built once by their globalSetup.
 * Run one with `npx vitest run --project unit` (or `npm run test:unit`).
 */
const CLI_BUNDLE_SETUP = ['test/helpers/cli-bundle.setup.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // End-to-end tests share one Chromium and the machine has two cores.
    fileParallelism: true,
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
          setupFiles: ['test/helpers/dom-waits.setup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'integration', include: ['test/integration/**/*.test.ts'], globalSetup: CLI_BUNDLE_SETUP },
      },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], globalSetup: CLI_BUNDLE_SETUP } },
    ],
  },
});
