#!/usr/bin/env node
// `npm test`: everything a change must pass, in the order that fails fastest — type check, lint, format, the UI
// and Electron bundles, electronegativity, the unit tier, the CLI bundle, then the integration and
// end-to-end tiers (vitest.config.ts) — each step's and tier's wall time, and one plain last line
// "N passed, N failed, N skipped" that CI reads (Vitest's own summary is not one it recognises).
// Stops at the first failing step or tier. Extra arguments go to every tier's `vitest run`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const extraArgs = process.argv.slice(2);
const totals = { passed: 0, failed: 0, skipped: 0 };
const timings = [];

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

function finish(ok) {
  for (const line of timings) process.stdout.write(`${line}\n`);
  process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
  process.exit(ok ? 0 : 1);
}

function step(title, command, args, env = process.env) {
  process.stdout.write(`\n▶ ${title}\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env });
  timings.push(`${title}: ${seconds(Date.now() - started)}`);
  if (result.status !== 0) {
    process.stdout.write(`\n✖ ${title} failed (exit ${result.status ?? result.signal}); later steps not run\n`);
    totals.failed += 1;
    finish(false);
  }
}

/** One tier through Vitest's JSON reporter (its counts are what the last line sums). */
function tier(name, title, env) {
  process.stdout.write(`\n▶ ${title}\n`);
  const report = join(mkdtempSync(join(tmpdir(), `loupe-test-${name}-`)), 'vitest.json');
  const started = Date.now();
  const run = spawnSync(
    npx,
    [
      'vitest',
      'run',
      '--project',
      name,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...(extraArgs.length ? ['--passWithNoTests', ...extraArgs] : []),
    ],
    { stdio: 'inherit', env },
  );
  const elapsed = Date.now() - started;
  const counts = { passed: 0, failed: 0, skipped: 0 };
  try {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    counts.passed = json.numPassedTests;
    counts.failed = json.numFailedTests;
    counts.skipped = json.numPendingTests + json.numTodoTests;
    if (json.numFailedTestSuites > 0 && counts.failed === 0) counts.failed = json.numFailedTestSuites;
  } catch {
    counts.failed = Math.max(1, counts.failed);
  }
  if (run.status !== 0 && counts.failed === 0) counts.failed = 1;
  for (const key of Object.keys(totals)) totals[key] += counts[key];
  timings.push(
    `${name} tier: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped in ${seconds(elapsed)}`,
  );
  process.stdout.write(`\n${name} tier: ${seconds(elapsed)}\n`);
  if (counts.failed > 0) {
    process.stdout.write(`\n✖ the ${name} tier failed; later tiers not run\n`);
    finish(false);
  }
}

const suiteStarted = Date.now();
step('type check (TypeScript strict)', npx, ['tsc', '-p', '.']);
step('lint (ESLint with typescript-eslint, eslint.config.mjs)', npx, ['eslint', '--max-warnings', '0', '.']);
step('format (Prettier --check, .prettierrc.json; `npm run format` writes)', npx, [
  'prettier',
  '--check',
  '--log-level',
  'warn',
  '.',
]);
step('build the UI', npx, ['vite', 'build', '--logLevel', 'warn']);
step('build the Electron main and preload bundles', process.execPath, ['scripts/build-electron.mjs']);
step('electronegativity over electron/', process.execPath, ['scripts/check-electronegativity.mjs']);
tier('unit', 'unit tier (pure code and SQLite, in process)', process.env);
// Once for both outer tiers, right before them (the sources may have moved on during the unit
// tier); their globalSetup skips the build when LOUPE_CLI_BUNDLE_BUILT is set.
step('build the CLI bundle (out/cli/loupe.cjs, what `npm run loupe` runs)', process.execPath, [
  '--input-type=module',
  '-e',
  "await (await import('./scripts/loupe.mjs')).buildCliBundle();",
]);
const bundled = { ...process.env, LOUPE_CLI_BUNDLE_BUILT: '1' };
tier('integration', 'integration tier (CLI and serve processes, workers, bundles, packing)', bundled);
tier('e2e', 'end-to-end tier (Debian Chromium, Electron)', bundled);
timings.push(`whole suite: ${seconds(Date.now() - suiteStarted)}`);
finish(true);
