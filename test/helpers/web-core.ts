/**
 * The core as `loupe serve` creates it (no file dialogs, no disk paths, one project), state in
 * `dir`; `overrides` for what a caller varies. For benches and tests that need a plain host.
 */
import Database from 'better-sqlite3';
import { createCore, type CoreOptions } from '../../electron/core/index';

export function webCore(dir: string, overrides: Partial<CoreOptions> = {}): ReturnType<typeof createCore> {
  return createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'web',
    fileDialogs: false,
    diskPaths: false,
    canSwitchProjects: false,
    ...overrides,
  });
}
