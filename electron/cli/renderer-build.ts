/** `loupe serve` needs the built UI: build it when missing or older than its sources. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, RENDERER_OUT } from './paths';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

export function rendererIsStale(): boolean {
  const index = join(RENDERER_OUT, 'index.html');
  if (!existsSync(index)) return true;
  const sources = ['renderer', 'shared'].map((d) => join(REPO_ROOT, d)).filter(existsSync);
  return (
    Math.max(...sources.map(newestMtime), statSync(join(REPO_ROOT, 'vite.config.ts')).mtimeMs) > statSync(index).mtimeMs
  );
}

/** Builds with vite; its chatter goes to stderr so stdout's first line stays the URL. */
export function ensureRendererBuilt(): void {
  if (!rendererIsStale()) return;
  process.stderr.write('Building the Loupe UI (first run or sources changed)…\n');
  const result = spawnSync(
    process.execPath,
    [join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 2, 2],
    },
  );
  if (result.status !== 0) throw new Error('Building the UI failed (see the messages above).');
}
