/**
 * Opening a project refuses, in one line and leaving the file byte-identical: a file or folder
 * with no write permission bit whoever runs Loupe (root passes access(2), so the mode decides),
 * and schema versions no Loupe writes (−1; 0 beside Loupe's tables), which failed as a TypeError
 * or "table datasets already exists" with a stack trace.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openProjectDatabase, ProjectFileError, type ProjectFileReason } from '../../../db/open';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-open-refusals-');
const restore: Array<() => void> = [];
afterAll(() => {
  for (const undo of restore) undo();
});
let n = 0;

function project(name: string): string {
  const folder = join(dir, `${++n}`);
  mkdirSync(folder);
  const path = join(folder, name);
  openProjectDatabase(Database, path, { create: true }).close();
  return path;
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const sidecars = (path: string) => ['-wal', '-shm', '-journal'].filter((s) => existsSync(path + s));

function expectRefusal(path: string, reason: ProjectFileReason, wording: RegExp, create = false): void {
  const before = sha256(path);
  let error: unknown = null;
  try {
    openProjectDatabase(Database, path, { create }).close();
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(ProjectFileError);
  const refusal = error as ProjectFileError;
  expect(refusal.reason).toBe(reason);
  expect(refusal.message).toContain(path);
  expect(refusal.message).toMatch(wording);
  expect(refusal.message).not.toMatch(/[\r\n]|\n\s+at /);
  expect(sha256(path)).toBe(before);
  expect(sidecars(path)).toEqual([]);
}

/** Sets user_version with SQLite itself (as another tool would), leaving a closed file without -wal. */
function setUserVersion(path: string, version: number): void {
  const db = new Database(path);
  db.pragma(`user_version = ${version}`);
  db.close();
}

describe('write permission bits, whoever runs Loupe (root included)', () => {
  it('a chmod 444 project is refused as read-only, unchanged', () => {
    const path = project('p.loupe');
    chmodSync(path, 0o444);
    restore.push(() => chmodSync(path, 0o644));
    expectRefusal(path, 'read_only', /is read-only; Loupe writes every label to it/);
    expectRefusal(path, 'read_only', /is read-only/, true);
  });

  it('a project in a chmod 555 folder is refused (WAL needs -wal beside it), unchanged', () => {
    const path = project('p.loupe');
    const folder = join(path, '..');
    chmodSync(folder, 0o555);
    restore.push(() => chmodSync(folder, 0o755));
    expectRefusal(path, 'read_only', /is in a read-only folder/);
  });

  it('a new project in a chmod 555 folder is refused and not created', () => {
    const folder = join(dir, 'locked');
    mkdirSync(folder);
    chmodSync(folder, 0o555);
    restore.push(() => chmodSync(folder, 0o755));
    const path = join(folder, 'new.loupe');
    expect(() => openProjectDatabase(Database, path, { create: true })).toThrow(
      new ProjectFileError(`Cannot create ${path}: its folder is read-only`, 'read_only'),
    );
    expect(existsSync(path)).toBe(false);
  });
});

describe('schema versions no Loupe writes', () => {
  it('user_version −1: a one-line refusal (not a TypeError), unchanged', () => {
    const path = project('minus.loupe');
    setUserVersion(path, -1);
    expectRefusal(path, 'corrupt', /its schema version is -1; a Loupe project has 1 to \d+/);
  });

  it('user_version 0 beside Loupe\'s tables: a one-line refusal (not "table datasets already exists"), unchanged', () => {
    const path = project('zero.loupe');
    setUserVersion(path, 0);
    expectRefusal(path, 'corrupt', /marked as a Loupe project with tables but schema version 0/);
  });
});
