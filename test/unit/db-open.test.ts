import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../db/migrations';
import { openProjectDatabase, ProjectFileError } from '../../db/open';
import { Repository } from '../../db/repository';
import { tempDir } from '../helpers/tmp';

const dir = tempDir();

describe('project file', () => {
  it('creates a WAL database at the current schema, marked as a Loupe project', () => {
    const db = openProjectDatabase(Database, join(dir, 'new.loupe'), { create: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    db.close();
  });

  it('refuses to open a missing file unless asked to create it', () => {
    expect(() => openProjectDatabase(Database, join(dir, 'missing.loupe'), { create: false })).toThrow(ProjectFileError);
  });

  it('refuses a project written by a newer Loupe and leaves it untouched', () => {
    const path = join(dir, 'future.loupe');
    openProjectDatabase(Database, path, { create: true }).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    let error: unknown;
    try {
      openProjectDatabase(Database, path, { create: false });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ProjectFileError);
    expect((error as ProjectFileError).reason).toBe('newer_schema');
    expect((error as Error).message).toMatch(/newer Loupe/);
    const check = new Database(path);
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    check.close();
  });

  it('refuses an SQLite file that is not a Loupe project', () => {
    const path = join(dir, 'other.sqlite');
    const raw = new Database(path);
    raw.exec('CREATE TABLE t (x)');
    raw.close();
    expect(() => openProjectDatabase(Database, path, { create: false })).toThrow(/not a Loupe project/);
  });

  it('keeps every acknowledged label as an append-only history; the latest event is current', () => {
    const db = openProjectDatabase(Database, join(dir, 'labels.loupe'), { create: true });
    const repo = new Repository(db);
    const importId = repo.recordImport({ kind: 'summaries', source: 't', files: [], contentHash: 'h', summaries: 1, labels: 0 });
    const key = repo.insertSummary(
      {
        dataset: 'd',
        docId: 'doc',
        document: 'The cat sat.',
        summaryId: 's1',
        summary: 'A cat sat. It was happy.',
        label: 1,
        meta: {},
        units: [
          { idx: 0, text: 'A cat sat.', start: 0, end: 10, fragment: true },
          { idx: 1, text: 'It was happy.', start: 11, end: 24, fragment: true },
        ],
        splitter: { name: 'test', version: '1' },
      },
      importId,
    );
    const [unit0] = repo.unitIdsBySummary('s1', 'd')[0]!.unitIds;
    const ann = repo.ensureAnnotator('ann');
    repo.recordLabel({ unitId: unit0!, annotatorId: ann.id, phase: 'annotation', state: { label: 'faithful', errorType: null, note: null }, timeSpentMs: 1200, cause: 'label' });
    repo.recordLabel({ unitId: unit0!, annotatorId: ann.id, phase: 'annotation', state: { label: 'unfaithful', errorType: 'entity', note: 'name' }, timeSpentMs: 800, cause: 'label' });
    expect(repo.currentStates(key, ann.id, 'annotation').get(unit0!)).toEqual({ label: 'unfaithful', errorType: 'entity', note: 'name' });
    expect(repo.labelHistory('d').map((e) => e.label)).toEqual(['faithful', 'unfaithful']);
    // The summary the annotator sees carries no global label.
    expect(Object.keys(repo.summaryForAnnotation(key)!)).not.toContain('label');
    db.close();
  });
});
