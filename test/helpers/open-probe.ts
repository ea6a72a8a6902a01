/**
 * Opens one project file in a child process and prints the outcome as JSON, so a test can try a
 * read-only file as an unprivileged user (root may write any file whatever its mode).
 * Run: node --import tsx test/helpers/open-probe.ts <path>
 */
import Database from 'better-sqlite3';
import { openProjectDatabase, ProjectFileError } from '../../db/open';

const path = process.argv[2];
if (!path) throw new Error('usage: open-probe.ts <path>');
try {
  openProjectDatabase(Database, path, { create: false }).close();
  console.log(JSON.stringify({ opened: true }));
} catch (err) {
  if (!(err instanceof ProjectFileError)) throw err;
  console.log(JSON.stringify({ opened: false, reason: err.reason, message: err.message }));
}
