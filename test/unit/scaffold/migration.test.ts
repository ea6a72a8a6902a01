/**
 * Migration 009 (Semantic Scaffold): a populated schema-8 project opens at schema 9 with its labels
 * and key facts unchanged and the scaffold tables empty; alignment events keep schema 7's rules
 * (an imported label set is read-only; an alignment after a reveal is recorded blind = 0), take
 * exactly one source (a person or a judge) and only values that fit their item's kind.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../db/migrations';
import { migration009 } from '../../../db/migrations/009_scaffolds';
import { tempDir } from '../../helpers/tmp';
import { ONE_SUMMARY_SEED, openAfterMigration } from '../../helpers/schema';

const dir = tempDir('loupe-scaffold-migration-');

describe('migration 009 (scaffolds, alignments)', () => {
  it('migrates a populated schema-8 project; alignment events enforce the imported, reveal, source and value rules', () => {
    expect(MIGRATIONS.indexOf(migration009)).toBe(8);
    const path = join(dir, 'schema8.loupe');
    const db = openAfterMigration(
      path,
      migration009,
      ONE_SUMMARY_SEED,
      `
      INSERT INTO key_fact_sets (id, document_id, version, source, extractor, extractor_version, created_at) VALUES (1, 1, 1, 'model', 'm', '1', 'x');
      INSERT INTO key_facts (id, set_id, idx, text) VALUES (1, 1, 0, 'The council met.');
    `,
    );
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT text FROM key_facts').all()).toEqual([{ text: 'The council met.' }]);
      expect(db.prepare('SELECT count(*) AS n FROM scaffolds').get()).toEqual({ n: 0 });
      db.exec(`
        INSERT INTO scaffolds (id, document_id, version, source, extractor, extractor_version, created_at) VALUES (1, 1, 1, 'model', 'gpt-4.1', 'g1', 'x');
        INSERT INTO scaffold_items (id, scaffold_id, kind, item_key, idx, text, tier) VALUES (5, 1, 'fact', 'M1', 0, 'The council met.', 'main');
        INSERT INTO scaffold_items (id, scaffold_id, kind, item_key, idx, text, tier, answer) VALUES (6, 1, 'question', 'Q1', 0, 'Who met?', 'main', 'The council.');
      `);
      const insert = db.prepare(
        "INSERT INTO scaffold_alignment_events (item_id, summary_id, annotator_id, value, cause, created_at) VALUES (5, 1, ?, 'preserved', 'annotate', ?)",
      );
      expect(() => insert.run(2, '2026-01-02T00:00:00.000Z')).toThrow(/imported label set is read-only/);
      insert.run(1, '2026-01-02T00:00:00.000Z');
      db.prepare(
        "INSERT INTO reveals (annotator_id, summary_id, view, created_at) VALUES (1, 1, 'analysis', '2026-01-03T00:00:00.000Z')",
      ).run();
      insert.run(1, '2026-01-04T00:00:00.000Z');
      expect(db.prepare('SELECT blind FROM scaffold_alignment_events ORDER BY id').all()).toEqual([
        { blind: 1 },
        { blind: 0 },
      ]);
      // A question cannot be "preserved"; an event has one source; an attribute has no tier.
      expect(() =>
        db
          .prepare(
            "INSERT INTO scaffold_alignment_events (item_id, summary_id, annotator_id, value, cause, created_at) VALUES (6, 1, 1, 'preserved', 'annotate', 'y')",
          )
          .run(),
      ).toThrow(/does not fit/);
      expect(() =>
        db
          .prepare(
            "INSERT INTO scaffold_alignment_events (item_id, summary_id, value, cause, created_at) VALUES (5, 1, 'missing', 'annotate', 'y')",
          )
          .run(),
      ).toThrow();
      expect(() =>
        db
          .prepare(
            "INSERT INTO scaffold_items (scaffold_id, kind, item_key, idx, text, tier, entity) VALUES (1, 'attribute', 'a1', 0, 'x', 'main', 'e')",
          )
          .run(),
      ).toThrow();
    } finally {
      db.close();
    }
  });
});
