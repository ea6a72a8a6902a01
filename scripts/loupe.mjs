#!/usr/bin/env node
/**
 * `npm run loupe -- …` / `npm run serve`: runs the CLI from an esbuild bundle, rebuilt only when
 * electron/, shared/ or db/ changed. Starting the bundle takes ~0.15 s where tsx needs ~0.7 s to
 * transpile on every start, which matters for scripts that call loupe in a loop and for the
 * analysis worker (bundled beside it). The integration and end-to-end tests run this same bundle:
 * their Vitest globalSetup calls buildCliBundle() once, and test/helpers start out/cli/loupe.cjs.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, renameSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { nodeBundleOptions } from './build-electron.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'out', 'cli');
/** The file `npm run loupe` runs (and the tests spawn). */
export const CLI_BUNDLE = path.join(OUT, 'loupe.cjs');
const ENTRIES = {
  'loupe.cjs': path.join(ROOT, 'electron', 'cli', 'loupe.ts'),
  // The analysis service starts `analysis-worker.cjs` from the folder of the bundle it runs in.
  'analysis-worker.cjs': path.join(ROOT, 'electron', 'worker', 'analysis-worker.ts'),
};

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

export function isStale() {
  const built = Object.keys(ENTRIES).map((name) => path.join(OUT, name));
  if (!built.every(existsSync)) return true;
  const sources = Math.max(
    ...['electron', 'shared', 'db'].map((d) => newest(path.join(ROOT, d))),
    statSync(path.join(ROOT, 'package.json')).mtimeMs,
  );
  return Math.min(...built.map((f) => statSync(f).mtimeMs)) < sources;
}

/** Bundles the CLI and the analysis worker into out/cli, whether stale or not. */
export async function buildCliBundle() {
  await Promise.all(
    Object.entries(ENTRIES).map(async ([name, entry]) => {
      // Write beside, then rename: two loupe commands started at once never run a half-written file.
      const temp = path.join(OUT, `.${name}.${process.pid}.${randomUUID()}.tmp.cjs`);
      await esbuild.build({ ...nodeBundleOptions(entry, temp, { target: 'node20' }), logLevel: 'warning' });
      renameSync(temp, path.join(OUT, name));
    }),
  );
}

// Run as `node scripts/loupe.mjs …` (not imported by the tests' globalSetup): build if stale, then run.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (isStale()) await buildCliBundle();
  createRequire(import.meta.url)(CLI_BUNDLE);
}
