#!/usr/bin/env node
/**
 * `npm run loupe -- …` / `npm run serve`: runs the CLI from an esbuild bundle, rebuilt only when
 * electron/, shared/ or db/ changed. Starting the bundle takes ~0.15 s where tsx needs ~0.7 s to
 * transpile on every start, which matters for scripts that call loupe in a loop and for the
 * analysis worker (bundled beside it). The tests run the sources through tsx instead.
 */
import { existsSync, readdirSync, renameSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { nodeBundleOptions } from './build-electron.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'out', 'cli');
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

function isStale() {
  const built = Object.keys(ENTRIES).map((name) => path.join(OUT, name));
  if (!built.every(existsSync)) return true;
  const sources = Math.max(...['electron', 'shared', 'db'].map((d) => newest(path.join(ROOT, d))), statSync(path.join(ROOT, 'package.json')).mtimeMs);
  return Math.min(...built.map((f) => statSync(f).mtimeMs)) < sources;
}

async function build() {
  await Promise.all(
    Object.entries(ENTRIES).map(async ([name, entry]) => {
      // Write beside, then rename: two loupe commands started at once never run a half-written file.
      const temp = path.join(OUT, `.${name}.${process.pid}.tmp.cjs`);
      await esbuild.build({ ...nodeBundleOptions(entry, temp, { target: 'node20' }), logLevel: 'warning' });
      renameSync(temp, path.join(OUT, name));
    }),
  );
}

if (isStale()) await build();
createRequire(import.meta.url)(path.join(OUT, 'loupe.cjs'));
