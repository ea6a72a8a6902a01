/**
 * Opening a project file: WAL, foreign keys, pending migrations in one transaction, and a
 * refusal to touch a file written by a newer Loupe. The driver is injected so the desktop app
 * (better-sqlite3 13, N-API) and Node (better-sqlite3 12) share this code.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations';

export type Database = BetterSqlite3.Database;
export type DatabaseConstructor = new (path: string, options?: BetterSqlite3.Options) => Database;

export class ProjectFileError extends Error {
  constructor(
    message: string,
    readonly reason: 'newer_schema' | 'not_a_project' | 'missing',
  ) {
    super(message);
    this.name = 'ProjectFileError';
  }
}

export interface OpenOptions {
  /** Create the file when missing (File › New). */
  create: boolean;
}

export const APPLICATION_ID = 0x4c4f5550; // "LOUP": marks the SQLite file as a Loupe project.

export function openProjectDatabase(Driver: DatabaseConstructor, path: string, options: OpenOptions): Database {
  let db: Database;
  try {
    db = new Driver(path, { fileMustExist: !options.create });
  } catch (err) {
    if (!options.create) throw new ProjectFileError(`No project file at ${path}`, 'missing');
    throw err;
  }
  try {
    db.pragma('journal_mode = WAL');
    // FULL: a label acknowledged to the annotator survives a power cut, not only a crash.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, path);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function migrate(db: Database, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  const appId = db.pragma('application_id', { simple: true }) as number;
  const hasTables = (db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'`).get() as { n: number }).n > 0;
  if (appId !== APPLICATION_ID && (version > 0 || hasTables)) {
    throw new ProjectFileError(`${path} is an SQLite file but not a Loupe project`, 'not_a_project');
  }
  if (version > SCHEMA_VERSION) {
    throw new ProjectFileError(
      `${path} was written by a newer Loupe (schema ${version}; this version knows up to ${SCHEMA_VERSION}). ` +
        'Update Loupe to open it; it was not changed.',
      'newer_schema',
    );
  }
  if (version === SCHEMA_VERSION) return;
  db.transaction(() => {
    for (let v = version; v < SCHEMA_VERSION; v += 1) {
      db.exec(MIGRATIONS[v]!);
    }
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}
