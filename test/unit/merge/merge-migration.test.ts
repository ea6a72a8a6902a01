/**
 * Migration 004 (merging annotators' copies): a populated schema-3 project opens at schema 4 with
 * every event, review row and annotator kept, no provenance on its own events, the merges table
 * empty, and the same current labels (created_at order agrees with id order within one project,
 * including a tie in the same millisecond, broken by id).
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../../db/migrations';
import { openProjectDatabase } from '../../../db/open';
import { Repository } from '../../../db/repository';
import { AnalysisRepository } from '../../../db/analysisRepository';
import { createCore } from '../../../electron/core/index';
import { tempDir } from '../../helpers/tmp';
import { projectAtSchema } from '../../helpers/schema';

const dir = tempDir();

function schemaThreeProject(path: string, extra = ''): void {
  const db = projectAtSchema(path, 3);
  db.exec(`
    INSERT INTO datasets (id, name, created_at) VALUES (1, 'frank', '2025-01-01T00:00:00.000Z');
    INSERT INTO documents (id, dataset_id, doc_id, text) VALUES (1, 1, 'd1', 'The council met on Tuesday and voted.');
    INSERT INTO summaries (id, dataset_id, document_id, summary_id, text, global_label) VALUES (1, 1, 1, 's1', 'The council met. It voted.', 1);
    INSERT INTO units (id, summary_id, idx, text, start, end, fragment, splitter, splitter_version) VALUES
      (10, 1, 0, 'The council met.', 0, 16, 0, 'given', 'f'),
      (11, 1, 1, 'It voted.', 17, 26, 1, 'given', 'f');
    INSERT INTO annotators (id, name, created_at) VALUES (1, 'alice', 'x'), (2, 'bob', 'x'), (3, 'rita', 'x');
    INSERT INTO label_events (id, unit_id, annotator_id, phase, label, error_type, note, time_spent_ms, cause, created_at) VALUES
      (1, 10, 1, 'annotation', 'faithful', NULL, NULL, 1000, 'label', '2025-01-03T00:00:00.000Z'),
      (2, 10, 1, 'annotation', 'unfaithful', 'entity', NULL, 1000, 'label', '2025-01-03T00:00:00.000Z'),
      (3, 10, 2, 'annotation', 'faithful', NULL, NULL, 1000, 'label', '2025-01-03T00:00:01.000Z'),
      (4, 10, 3, 'review', 'unfaithful', 'entity', NULL, 4000, 'label', '2025-01-04T00:00:00.000Z'),
      (5, 11, 2, 'annotation', 'unclear', NULL, 'short', 500, 'label', '2025-01-05T00:00:00.000Z');
    INSERT INTO review_events (event_id, queue, judges) VALUES (4, 'human-human', '[]');
    ${extra}
  `);
  db.close();
}

describe('migration 004 (merge provenance, latest by time)', () => {
  it('keeps every row, adds empty provenance and the merges table, and leaves the current labels unchanged', () => {
    const path = join(dir, 'schema3.loupe');
    schemaThreeProject(path);
    const db = openProjectDatabase(Database, path, { create: false });
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(4);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT count(*) FROM merges').pluck().get()).toBe(0);
    expect(db.prepare('SELECT id, origin_project, origin_event, merge_id FROM label_events ORDER BY id').all()).toEqual(
      [1, 2, 3, 4, 5].map((id) => ({ id, origin_project: null, origin_event: null, merge_id: null })),
    );
    expect(db.prepare('SELECT * FROM review_events').all()).toEqual([
      { event_id: 4, queue: 'human-human', judges: '[]' },
    ]);
    const indexes = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'label_events'`)
      .pluck()
      .all();
    expect(indexes).toEqual(
      expect.arrayContaining(['label_events_origin', 'label_events_latest', 'label_events_annotator_latest']),
    );

    const repo = new Repository(db);
    // alice's two events share a millisecond: the later id is current (unfaithful).
    expect([...repo.currentStates(1, 1, 'annotation')]).toEqual([
      [10, { label: 'unfaithful', errorType: 'entity', note: null }],
    ]);
    expect(
      new AnalysisRepository(db)
        .currentLabels('frank')
        .map((r) => [r.unitIndex, r.annotator, r.phase, r.label, r.queue]),
    ).toEqual([
      [0, 'alice', 'annotation', 'unfaithful', null],
      [0, 'bob', 'annotation', 'faithful', null],
      [0, 'rita', 'review', 'unfaithful', 'human-human'],
      [1, 'bob', 'annotation', 'unclear', null],
    ]);
    expect(repo.review.adjudicatedLabels('frank')).toEqual([{ summaryKey: 1, unitIndex: 0, label: 'unfaithful' }]);
    expect(repo.review.currentLabels('frank').find((r) => r.annotator === 'alice')).toMatchObject({
      eventId: 2,
      events: 2,
      blindTimeMs: 1000,
      totalTimeMs: 2000,
    });
    db.close();
  });
});

describe('merging from an older project file', () => {
  it('reads a schema-3 copy without migrating or writing it, and brings its new events with their review queue', async () => {
    const target = join(dir, 'target.loupe');
    const old = join(dir, 'old-copy.loupe');
    schemaThreeProject(target);
    schemaThreeProject(
      old,
      `INSERT INTO annotators (id, name, created_at) VALUES (4, 'carol', 'x');
       INSERT INTO label_events (id, unit_id, annotator_id, phase, label, error_type, note, time_spent_ms, cause, created_at) VALUES
         (6, 11, 4, 'annotation', 'faithful', NULL, NULL, 700, 'label', '2025-01-06T00:00:00.000Z'),
         (7, 11, 3, 'review', 'unclear', NULL, NULL, 900, 'label', '2025-01-07T00:00:00.000Z');
       INSERT INTO review_events (event_id, queue, judges) VALUES (7, 'suspicious', '["j1"]');`,
    );
    const core = createCore({
      Database,
      stateDir: dir,
      demoDir: dir,
      host: 'electron',
      fileDialogs: false,
      diskPaths: true,
      canSwitchProjects: false,
    });
    core.openProject(target);
    const [result] = await core.handlers['merge.projects']({ paths: [old] });
    expect(result).toMatchObject({
      merged: true,
      sourceProject: null,
      eventsAdded: 2,
      eventsPresent: 5,
      annotatorsAdded: ['carol'],
      problems: [],
    });
    const labels = new AnalysisRepository((core.repository() as unknown as { db: Database.Database }).db).currentLabels(
      'frank',
    );
    expect(labels.filter((r) => r.unitIndex === 1).map((r) => [r.annotator, r.phase, r.label, r.queue])).toEqual([
      ['bob', 'annotation', 'unclear', null],
      ['carol', 'annotation', 'faithful', null],
      ['rita', 'review', 'unclear', 'suspicious'],
    ]);
    core.close();
    const check = new Database(old, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(3);
    expect(check.prepare(`SELECT count(*) FROM project_meta`).pluck().get()).toBe(0);
    check.close();
    // A file without a project id: its events' origin names the file.
    const db = new Database(target, { readonly: true });
    expect(
      db.prepare('SELECT DISTINCT origin_project FROM label_events WHERE merge_id IS NOT NULL').pluck().all(),
    ).toEqual([`file:${old}`]);
    db.close();
  });
});
