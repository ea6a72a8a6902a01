/**
 * The one open project of a core: opening (checks first, see db/open.ts), creating, closing, and
 * the recent-projects list. Whatever runs against a project (import jobs, judge runs, analyses)
 * registers a closer, so switching projects stops it before the file is closed.
 */
import { basename, extname, join, resolve } from 'node:path';
import { ApiError, type ProjectInfo } from '../../../shared/api';
import { LOUPE_VERSION } from '../../../shared/domain';
import { openProjectDatabase, ProjectFileError, type Database } from '../../../db/open';
import { Repository } from '../../../db/repository';
import { noProject, type CoreOptions, type OpenProject } from '../context';
import { ensureProjectId } from '../merge/merge';
import { RecentProjects } from './recent';

export interface ProjectSession {
  load(path: string, create: boolean): ProjectInfo;
  close(): void;
  current(): OpenProject | null;
  require(): OpenProject;
  readonly recent: RecentProjects;
  /** Called before the project closes (switch, or core shut-down). */
  onClose(closer: () => void): void;
}

export function createProjectSession(options: Pick<CoreOptions, 'Database' | 'stateDir'>): ProjectSession {
  let project: OpenProject | null = null;
  const closers: Array<() => void> = [];
  const recent = new RecentProjects(join(options.stateDir, 'recent.json'));

  function close(): void {
    for (const closer of closers) closer();
    project?.db.close();
    project = null;
  }

  function load(path: string, create: boolean): ProjectInfo {
    const full = resolve(path);
    let db: Database;
    try {
      db = openProjectDatabase(options.Database, full, { create });
    } catch (err) {
      if (err instanceof ProjectFileError)
        throw new ApiError({ code: err.reason === 'missing' ? 'not_found' : 'conflict', message: err.message });
      throw err;
    }
    close();
    const repo = new Repository(db);
    ensureProjectId(repo);
    if (create && repo.getMeta('created_at') === null) {
      repo.setMeta('created_at', new Date().toISOString());
      repo.setMeta('created_by', `Loupe ${LOUPE_VERSION}`);
    }
    const info: ProjectInfo = {
      path: full,
      name: basename(full, extname(full)),
      schemaVersion: repo.schemaVersion(),
      isDemo: repo.getMeta('demo') === 'ready',
    };
    project = { db, repo, info };
    recent.add(full, info.name);
    return info;
  }

  return {
    load,
    close,
    current: () => project,
    require: () => project ?? noProject(),
    recent,
    onClose: (closer) => closers.push(closer),
  };
}
