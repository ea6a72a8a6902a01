/** The demo project is Loupe's own file: an unfinished or damaged copy is rebuilt from demo/, never left broken. */
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core/index';
import { tempDir } from '../../helpers/tmp';

const DEMO_DIR = join(import.meta.dirname, '..', '..', '..', 'demo');

function core(stateDir: string) {
  return createCore({
    Database,
    stateDir,
    demoDir: DEMO_DIR,
    host: 'web',
    fileDialogs: false,
    diskPaths: false,
    canSwitchProjects: false,
  });
}

describe('the demo project', () => {
  const dir = tempDir('loupe-demo-');

  it('rebuilds a damaged demo file instead of refusing to open it', async () => {
    writeFileSync(join(dir, 'demo.loupe'), 'this is not an SQLite file, it was damaged');
    const c = core(dir);
    const info = await c.openDemo();
    expect(info.isDemo).toBe(true);
    const [frank] = await c.handlers['datasets.list']({});
    expect(frank).toMatchObject({ name: 'frank', sampled: 25 });
    c.close();
    // A second start opens the finished demo as it is.
    const again = core(dir);
    expect((await again.openDemo()).isDemo).toBe(true);
    again.close();
  });
});
