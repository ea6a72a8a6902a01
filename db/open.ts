/**
 * Opening a project file: check first, touch after. A file is judged (is it there, writable,
 * SQLite, whole, a Loupe project, of a schema this version knows, intact) before any connection
 * may change it; only then is it opened for writing, switched to WAL and migrated in one
 * transaction. A refusal leaves the file byte-identical and no -wal/-shm beside it. The driver is
 * injected so the desktop app (better-sqlite3 13, N-API) and Node (better-sqlite3 12) share this.
 */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  type Stats,
} from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { readSqliteHeader, SQLITE_HEADER_BYTES } from './fileHeader';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations';

export type Database = BetterSqlite3.Database;
export type DatabaseConstructor = new (path: string, options?: BetterSqlite3.Options) => Database;

/**
 * Why a file was refused. missing: no file (or no folder to create it in); not_a_project: empty,
 * not SQLite, or SQLite without Loupe's mark; newer_schema: written by a newer Loupe; corrupt:
 * truncated or failing SQLite's quick_check; read_only: the file or its folder cannot be written.
 */
export type ProjectFileReason = 'missing' | 'not_a_project' | 'newer_schema' | 'corrupt' | 'read_only';

export class ProjectFileError extends Error {
  constructor(
    message: string,
    readonly reason: ProjectFileReason,
  ) {
    super(oneLine(message));
    this.name = 'ProjectFileError';
  }
}

export interface OpenOptions {
  /** Create the file when missing or empty (File › New). */
  create: boolean;
}

export const APPLICATION_ID = 0x4c4f5550; // "LOUP": marks the SQLite file as a Loupe project.

const UNCHANGED = 'it was not changed';

export function openProjectDatabase(Driver: DatabaseConstructor, path: string, options: OpenOptions): Database {
  checkProjectFile(Driver, path, options);
  let db: Database;
  try {
    db = new Driver(path, { fileMustExist: !options.create });
  } catch (err) {
    throw asProjectFileError(err, path, '') ?? err;
  }
  try {
    db.pragma('journal_mode = WAL');
    // FULL: a label acknowledged to the annotator survives a power cut, not only a crash.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db);
    return db;
  } catch (err) {
    db.close();
    throw asProjectFileError(err, path, '') ?? err;
  }
}

/** Throws a ProjectFileError unless `path` may be opened (or created) as a project. Touches nothing. */
function checkProjectFile(Driver: DatabaseConstructor, path: string, options: OpenOptions): void {
  const stats = statOrNull(path);
  if (stats === null) {
    if (!options.create) throw new ProjectFileError(`No project file at ${path}`, 'missing');
    const folder = dirname(path);
    if (!existsSync(folder))
      throw new ProjectFileError(`Cannot create ${path}: the folder ${folder} does not exist`, 'missing');
    requireWritable(folder, `Cannot create ${path}: its folder is read-only`);
    return;
  }
  if (!stats.isFile())
    throw new ProjectFileError(`${path} is not a project file (it is a folder or a device)`, 'not_a_project');
  if (stats.size === 0) {
    if (options.create) return requireWritableFile(path);
    throw new ProjectFileError(
      `${path} is empty (0 bytes), not a Loupe project; create a new project instead; ${UNCHANGED}`,
      'not_a_project',
    );
  }
  const verdict = readSqliteHeader(readHead(path), stats.size);
  if (verdict.kind === 'not_sqlite')
    throw new ProjectFileError(`${path} is not a Loupe project (not an SQLite file); ${UNCHANGED}`, 'not_a_project');
  if (verdict.kind === 'truncated')
    throw new ProjectFileError(`${path} is damaged (truncated: ${verdict.detail}); ${UNCHANGED}`, 'corrupt');
  // Without a -wal file the main file holds every committed change, so its header is the truth
  // and a foreign or newer file is refused before SQLite ever opens it.
  if (!existsSync(`${path}-wal`)) {
    const { header } = verdict;
    judgeMarks(path, header.applicationId, header.userVersion, header.schemaCookie > 0, options);
  }
  requireWritableFile(path);
  inspectWithSqlite(Driver, path, options);
}

/** Reads the marks, the tables and quick_check through a read-only connection, then removes any -wal/-shm it created. */
function inspectWithSqlite(Driver: DatabaseConstructor, path: string, options: OpenOptions): void {
  const sidecars = [`${path}-wal`, `${path}-shm`].filter((p) => !existsSync(p));
  let db: Database | null = null;
  try {
    db = new Driver(path, { readonly: true, fileMustExist: true });
    const applicationId = db.pragma('application_id', { simple: true }) as number;
    const userVersion = db.pragma('user_version', { simple: true }) as number;
    const tables = (db.prepare(`SELECT count(*) AS n FROM sqlite_master`).get() as { n: number }).n;
    judgeMarks(path, applicationId, userVersion, tables > 0, options);
    const check = db.pragma('quick_check(1)', { simple: true }) as string;
    if (check !== 'ok')
      throw new ProjectFileError(`${path} is damaged (SQLite quick_check: ${check}); ${UNCHANGED}`, 'corrupt');
  } catch (err) {
    throw asProjectFileError(err, path, `; ${UNCHANGED}`) ?? err;
  } finally {
    db?.close();
    // A read-only connection to a WAL file creates an empty -wal and an -shm index and leaves them.
    for (const sidecar of sidecars) rmSync(sidecar, { force: true });
  }
}

function judgeMarks(
  path: string,
  applicationId: number,
  userVersion: number,
  hasSchema: boolean,
  options: OpenOptions,
): void {
  if (applicationId !== APPLICATION_ID) {
    // An SQLite file with nothing in it may become a project, but only when asked to create one.
    if (options.create && userVersion === 0 && !hasSchema) return;
    throw new ProjectFileError(`${path} is an SQLite file but not a Loupe project; ${UNCHANGED}`, 'not_a_project');
  }
  // Loupe sets the mark and the schema version in one transaction: a negative version, or none
  // beside tables, means another tool changed the file, and migrating it would fail halfway.
  if (userVersion < 0) {
    throw new ProjectFileError(
      `${path} is damaged (its schema version is ${userVersion}; a Loupe project has 1 to ${SCHEMA_VERSION}); ${UNCHANGED}`,
      'corrupt',
    );
  }
  if (userVersion === 0 && hasSchema) {
    throw new ProjectFileError(
      `${path} is damaged (marked as a Loupe project with tables but schema version 0); ${UNCHANGED}`,
      'corrupt',
    );
  }
  if (userVersion > SCHEMA_VERSION) {
    throw new ProjectFileError(
      `${path} was written by a newer Loupe (schema ${userVersion}; this version knows up to ${SCHEMA_VERSION}). Update Loupe to open it; ${UNCHANGED}.`,
      'newer_schema',
    );
  }
}

function migrate(db: Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version === SCHEMA_VERSION) return;
  db.transaction(() => {
    for (let v = version; v < SCHEMA_VERSION; v += 1) {
      db.exec(MIGRATIONS[v]!);
    }
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

function readHead(path: string): Buffer {
  const head = Buffer.alloc(SQLITE_HEADER_BYTES);
  const fd = openSync(path, 'r');
  try {
    return head.subarray(0, readSync(fd, head, 0, SQLITE_HEADER_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}

/** WAL needs to write the file and to create -wal/-shm beside it. */
function requireWritableFile(path: string): void {
  requireWritable(path, `${path} is read-only; Loupe writes every label to it, so it cannot open it`);
  requireWritable(dirname(path), `${path} is in a read-only folder; Loupe needs to create ${path}-wal beside it`);
}

/**
 * Writable for whoever runs Loupe, and marked writable: root passes access(2) on any file, but a
 * file or folder with no write permission bit (chmod 444, 555) was made read-only on purpose.
 */
function requireWritable(path: string, message: string): void {
  try {
    accessSync(path, constants.W_OK);
  } catch {
    throw new ProjectFileError(message, 'read_only');
  }
  if ((statSync(path).mode & 0o222) === 0) throw new ProjectFileError(message, 'read_only');
}

/**
 * SQLite's own refusals (not a database, damaged, cannot write) as a one-line ProjectFileError;
 * `after` ends the message (says the file was not changed when only the check had touched it).
 */
function asProjectFileError(err: unknown, path: string, after: string): ProjectFileError | null {
  if (err instanceof ProjectFileError) return err;
  const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
  const detail = err instanceof Error ? err.message : String(err);
  if (code.startsWith('SQLITE_NOTADB'))
    return new ProjectFileError(`${path} is not a Loupe project (SQLite: ${detail})${after}`, 'not_a_project');
  if (code.startsWith('SQLITE_CORRUPT'))
    return new ProjectFileError(`${path} is damaged (SQLite: ${detail})${after}`, 'corrupt');
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_PERM')) {
    return new ProjectFileError(`Cannot open ${path} for writing (SQLite: ${detail})${after}`, 'read_only');
  }
  return null;
}

/** A refusal is shown on one line: no line breaks from a path or an SQLite message. */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}
