/**
 * Migration 003 (review queues): a schema-2 project with annotation and review-phase labels opens
 * at schema 3 with every label kept; the old review labels have no queue, so they stay review
 * labels (Table 4, corrections) and never become adjudicated labels for the audit.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../../db/migrations';
import { openProjectDatabase } from '../../../db/open';
import { Repository } from '../../../db/repository';
import { loadDataset } from '../../../electron/core/review/load';
import { resolvedLabel } from '../../../shared/review';
import { tempDir } from '../../helpers/tmp';
import { projectAtSchema } from '../../helpers/schema';

const dir = tempDir();

function schemaTwoProject(path: string): void {
  const db = projectAtSchema(path, 2);
  db.exec(`
    INSERT INTO datasets (id, name, created_at) VALUES (1, 'frank', '2025-01-01T00:00:00.000Z');
    INSERT INTO documents (id, dataset_id, doc_id, text) VALUES (1, 1, 'd1', 'The council met on Tuesday and voted.');
    INSERT INTO summaries (id, dataset_id, document_id, summary_id, text, global_label) VALUES (1, 1, 1, 's1', 'The council met. It voted.', 1);
    INSERT INTO units (id, summary_id, idx, text, start, end, fragment, splitter, splitter_version) VALUES
      (10, 1, 0, 'The council met.', 0, 16, 0, 'given', 'f'),
      (11, 1, 1, 'It voted.', 17, 26, 1, 'given', 'f');
    INSERT INTO annotators (id, name, created_at) VALUES (1, 'alice', 'x'), (2, 'bob', 'x'), (3, 'rita', 'x');
    INSERT INTO label_events (unit_id, annotator_id, phase, label, error_type, note, time_spent_ms, cause, created_at) VALUES
      (10, 1, 'annotation', 'faithful', NULL, NULL, 1000, 'label', '2025-01-03T00:00:00.000Z'),
      (10, 2, 'annotation', 'unfaithful', 'entity', NULL, 1000, 'label', '2025-01-03T00:00:01.000Z'),
      (10, 3, 'review', 'unfaithful', 'entity', NULL, 4000, 'label', '2025-01-04T00:00:00.000Z');
  `);
  db.close();
}

describe('migration 003 (review queues)', () => {
  it('adds review_events, keeps every label, and treats queue-less review labels as review labels only', () => {
    const path = join(dir, 'schema2.loupe');
    schemaTwoProject(path);
    const db = openProjectDatabase(Database, path, { create: false });
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(3);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[];
    expect(tables).toContain('review_events');
    expect(db.prepare('SELECT count(*) FROM label_events').pluck().get()).toBe(3);
    expect(db.prepare('SELECT count(*) FROM review_events').pluck().get()).toBe(0);

    const repo = new Repository(db);
    // A disagreement (alice faithful, bob unfaithful) and a review label without a queue: not an adjudication.
    expect(repo.review.adjudicatedLabels('frank')).toEqual([]);
    const unit = loadDataset(repo.review, 'frank').summaries[0]!.units[0]!;
    expect([unit.analysis.human, unit.analysis.humanStatus, unit.analysis.review]).toEqual([
      null,
      'disagreement',
      'unfaithful',
    ]);
    expect(resolvedLabel(unit)).toEqual({ label: 'unfaithful', source: 'reviewer' });
    expect(unit.decisions[0]).toMatchObject({ annotator: 'rita', queue: null, blindTimeMs: 4000 });

    // New decisions record their queue; one from the human-human queue settles the disagreement.
    repo.review.recordDecision({
      unitId: 10,
      annotatorId: 3,
      label: 'faithful',
      errorType: null,
      note: null,
      timeSpentMs: 3000,
      cause: 'label',
      queue: 'human-human',
      judges: [],
    });
    expect(repo.review.adjudicatedLabels('frank')).toEqual([{ summaryKey: 1, unitIndex: 0, label: 'faithful' }]);
    expect(db.prepare('SELECT queue, judges FROM review_events').all()).toEqual([
      { queue: 'human-human', judges: '[]' },
    ]);
    expect(() => db.prepare(`INSERT INTO review_events (event_id, queue) VALUES (1, 'anything')`).run()).toThrow(
      /CHECK/,
    );
    db.close();
  });
});
