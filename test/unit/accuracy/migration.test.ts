/**
 * Migration 008 (claims, key facts, systems): a populated schema-7 project opens at schema 8 with
 * its labels unchanged and the new tables empty; the new label tables keep schema 7's rules
 * (an imported label set is read-only; a label after a reveal is recorded blind = 0).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../db/migrations';
import { migration008 } from '../../../db/migrations/008_claims_keyfacts_systems';
import { tempDir } from '../../helpers/tmp';
import { ONE_SUMMARY_SEED, openAfterMigration } from '../../helpers/schema';

const dir = tempDir('loupe-accuracy-migration-');

describe('migration 008 (claims, key facts, systems)', () => {
  it('migrates a populated schema-7 project; the claim and key-fact label tables enforce the imported and reveal rules', () => {
    expect(MIGRATIONS.indexOf(migration008)).toBe(7);
    const path = join(dir, 'schema7.loupe');
    const db = openAfterMigration(
      path,
      migration008,
      ONE_SUMMARY_SEED,
      `
      INSERT INTO label_events (unit_id, annotator_id, phase, label, cause, created_at) VALUES (10, 1, 'annotation', 'faithful', 'label', '2026-01-01T00:00:00.000Z');
    `,
    );
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT label FROM label_events').all()).toEqual([{ label: 'faithful' }]);
      expect(db.prepare('SELECT count(*) AS n FROM claim_sets').get()).toEqual({ n: 0 });
      db.exec(`
        INSERT INTO claim_sets (id, summary_id, version, source, decomposer, decomposer_version, created_at) VALUES (1, 1, 1, 'model', 'm', '1', 'x');
        INSERT INTO claims (id, set_id, sentence_unit_id, idx, text) VALUES (5, 1, 10, 0, 'The council met.');
      `);
      const insert = db.prepare(
        "INSERT INTO claim_label_events (claim_id, annotator_id, label, cause, created_at) VALUES (5, ?, 'supported', 'label', ?)",
      );
      expect(() => insert.run(2, '2026-01-02T00:00:00.000Z')).toThrow(/imported label set is read-only/);
      insert.run(1, '2026-01-02T00:00:00.000Z');
      db.prepare(
        "INSERT INTO reveals (annotator_id, summary_id, view, created_at) VALUES (1, 1, 'analysis', '2026-01-03T00:00:00.000Z')",
      ).run();
      insert.run(1, '2026-01-04T00:00:00.000Z');
      expect(db.prepare('SELECT blind FROM claim_label_events ORDER BY id').all()).toEqual([
        { blind: 1 },
        { blind: 0 },
      ]);
      // An error type only on an unsupported claim; a claim is always of kind claim.
      expect(() =>
        db
          .prepare(
            "INSERT INTO claim_label_events (claim_id, annotator_id, label, error_type, cause, created_at) VALUES (5, 1, 'supported', 'entity', 'label', 'y')",
          )
          .run(),
      ).toThrow();
      expect(() =>
        db
          .prepare("INSERT INTO claims (set_id, kind, sentence_unit_id, idx, text) VALUES (1, 'sentence', 10, 1, 'x')")
          .run(),
      ).toThrow();
    } finally {
      db.close();
    }
  });
});
