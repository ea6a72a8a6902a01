/**
 * Vitest globalSetup of the integration and end-to-end tiers: bundles the CLI (and the analysis
 * worker beside it) once, with the function `npm run loupe` uses, so every test spawns the same
 * out/cli/loupe.cjs a user runs. scripts/test.mjs builds it once for both tiers and sets
 * LOUPE_CLI_BUNDLE_BUILT, so a tier started by it does not build again.
 *
 * It also builds the UI when it is missing or older than its sources: otherwise every `loupe
 * serve` a test file starts would rebuild out/renderer at once, in parallel, into the same folder.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { ensureRendererBuilt } from '../../electron/cli/renderer-build';

interface LoupeScript {
  buildCliBundle(): Promise<void>;
  CLI_BUNDLE: string;
}

export default async function setup(): Promise<void> {
  ensureRendererBuilt();
  if (process.env.LOUPE_CLI_BUNDLE_BUILT === '1') return;
  const script = (await import(
    pathToFileURL(join(import.meta.dirname, '..', '..', 'scripts', 'loupe.mjs')).href
  )) as LoupeScript;
  const started = Date.now();
  await script.buildCliBundle();
  // Set here, in Vitest's main process: the next project's globalSetup in this run skips the build.
  process.env.LOUPE_CLI_BUNDLE_BUILT = '1';
  process.stdout.write(`CLI bundle built (${script.CLI_BUNDLE}) in ${Date.now() - started} ms\n`);
}
