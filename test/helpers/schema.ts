/** Migration tests: a project file as an older Loupe left it, to fill with rows and then open. */
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../db/migrations';
import { APPLICATION_ID } from '../../db/open';

/** A Loupe project at schema `version` (migrations 1..version applied), open for inserts; close it. */
export function projectAtSchema(path: string, version: number): Database.Database {
  const db = new Database(path);
  for (const migration of MIGRATIONS.slice(0, version)) db.exec(migration);
  db.pragma(`application_id = ${APPLICATION_ID}`);
  db.pragma(`user_version = ${version}`);
  return db;
}
