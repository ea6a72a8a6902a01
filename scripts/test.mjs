#!/usr/bin/env node
// `npm test`: everything a change must pass, in the order that fails fastest, then one plain
// "N passed, N failed" line that CI can read (Vitest's own summary is not one it recognises).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function step(title, command, args) {
  process.stdout.write(`\n▶ ${title}\n`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    process.stdout.write(`✖ ${title} failed\n0 passed, 1 failed\n`);
    process.exit(result.status ?? 1);
  }
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
step('type check (TypeScript strict)', npx, ['tsc', '-p', '.']);
step('build the UI', npx, ['vite', 'build', '--logLevel', 'warn']);
step('build the Electron main and preload bundles', process.execPath, ['scripts/build-electron.mjs']);
step('electronegativity over electron/', process.execPath, ['scripts/check-electronegativity.mjs']);

const report = join(mkdtempSync(join(tmpdir(), 'loupe-test-')), 'vitest.json');
process.stdout.write('\n▶ unit, integration and end-to-end tests (Vitest; e2e in Debian Chromium)\n');
const run = spawnSync(npx, ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed = json.numPassedTests;
  failed = json.numFailedTests;
  skipped = json.numPendingTests + json.numTodoTests;
  if (json.numFailedTestSuites > 0 && failed === 0) failed = json.numFailedTestSuites;
} catch {
  failed = Math.max(1, failed);
}
process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
