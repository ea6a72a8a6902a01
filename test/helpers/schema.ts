/** Migration tests: a project file as an older Loupe left it, to fill with rows and then open. */
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../db/migrations';
import { APPLICATION_ID, openProjectDatabase } from '../../db/open';

/** A Loupe project at schema `version` (migrations 1..version applied), open for inserts; close it. */
export function projectAtSchema(path: string, version: number): Database.Database {
  const db = new Database(path);
  for (const migration of MIGRATIONS.slice(0, version)) db.exec(migration);
  db.pragma(`application_id = ${APPLICATION_ID}`);
  db.pragma(`user_version = ${version}`);
  return db;
}

/**
 * The test of one migration: a project at the schema just before `migration`, filled by `seeds`
 * (SQL run in order), then opened as today's Loupe opens it (so every later migration runs too).
 * The caller closes the returned database.
 */
export function openAfterMigration(path: string, migration: string, ...seeds: string[]): Database.Database {
  const before = MIGRATIONS.indexOf(migration);
  if (before < 0) throw new Error('openAfterMigration: not one of MIGRATIONS');
  const raw = projectAtSchema(path, before);
  try {
    for (const sql of seeds) raw.exec(sql);
  } finally {
    raw.close();
  }
  return openProjectDatabase(Database, path, { create: false });
}

/**
 * One dataset with one document, one summary of one sentence (unit 10), a person (1, alice) and an
 * imported annotator (2, bench-0): the rows the schema-7+ migration tests build on.
 */
export const ONE_SUMMARY_SEED = `
  INSERT INTO datasets (id, name, created_at) VALUES (1, 'news', 'x');
  INSERT INTO documents (id, dataset_id, doc_id, text) VALUES (1, 1, 'd1', 'The council met on Monday.');
  INSERT INTO summaries (id, dataset_id, document_id, summary_id, text) VALUES (1, 1, 1, 's1', 'The council met.');
  INSERT INTO units (id, summary_id, idx, text, start, end, fragment, splitter, splitter_version) VALUES (10, 1, 0, 'The council met.', 0, 16, 0, 'given', 'f');
  INSERT INTO annotators (id, name, created_at, kind) VALUES (1, 'alice', 'x', 'person'), (2, 'bench-0', 'x', 'imported');
`;
