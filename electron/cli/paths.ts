/** Where the CLI and `loupe serve` find the repository's own folders and keep their state. */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRepoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'demo'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
}

export const REPO_ROOT = findRepoRoot();
export const DEMO_DIR = join(REPO_ROOT, 'demo');
export const RENDERER_OUT = join(REPO_ROOT, 'out', 'renderer');

/** LOUPE_STATE_DIR, else $XDG_STATE_HOME/loupe, else ~/.local/state/loupe. */
export function stateDir(): string {
  if (process.env.LOUPE_STATE_DIR) return resolve(process.env.LOUPE_STATE_DIR);
  const base = process.env.XDG_STATE_HOME ?? join(homedir(), '.local', 'state');
  return join(base, 'loupe');
}
