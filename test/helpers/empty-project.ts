/**
 * A web-host core on a new, empty project for the file's tests (created before them, closed after),
 * and a read-only view of the project file to count what a call stored: a refused call must store
 * nothing.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createCore } from '../../electron/core/index';
import { webCore } from './web-core';
import { tempDir } from './tmp';

export interface EmptyProject {
  readonly core: ReturnType<typeof createCore>;
  /** The rows `table` holds now. */
  rows(table: string): number;
}

export function useEmptyProject(): EmptyProject {
  const dir = tempDir();
  let core: ReturnType<typeof createCore> | undefined;
  let projectDb: Database.Database | undefined;
  beforeAll(() => {
    core = webCore(dir, { env: {} });
    core.createProject(join(dir, 'p.loupe'));
    projectDb = new Database(join(dir, 'p.loupe'), { readonly: true });
  });
  afterAll(() => {
    projectDb?.close();
    core?.close();
  });
  return {
    get core() {
      if (!core) throw new Error('useEmptyProject: the core exists once the tests run');
      return core;
    },
    rows: (table) => (projectDb!.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n,
  };
}
