/**
 * Migration 013 (scaffold item notes): a populated schema-12 project opens with its alignment
 * events unchanged and no note on them; a person's note then rides on an alignment event (with a
 * value or without one), the latest event is the item's state, note included, and that query is
 * still served by schema 9's index.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../db/migrations';
import { migration013 } from '../../../db/migrations/013_scaffold_item_notes';
import { ScaffoldRepository } from '../../../db/scaffoldRepository';
import { tempDir } from '../../helpers/tmp';
import { ONE_SUMMARY_SEED, openAfterMigration } from '../../helpers/schema';

const dir = tempDir('loupe-scaffold-notes-migration-');

describe('migration 013 (scaffold item notes)', () => {
  it('migrates a populated schema-12 project; notes ride on alignment events, latest wins, still indexed', () => {
    expect(MIGRATIONS.indexOf(migration013)).toBe(12);
    const path = join(dir, 'schema12.loupe');
    const db = openAfterMigration(
      path,
      migration013,
      ONE_SUMMARY_SEED,
      `
      INSERT INTO scaffolds (id, document_id, version, source, extractor, extractor_version, created_at) VALUES (1, 1, 1, 'model', 'gpt-4.1', 'g1', 'x');
      INSERT INTO scaffold_items (id, scaffold_id, kind, item_key, idx, text, tier) VALUES (5, 1, 'fact', 'M1', 0, 'The council met.', 'main');
      INSERT INTO scaffold_items (id, scaffold_id, kind, item_key, idx, text, tier) VALUES (6, 1, 'fact', 'M2', 1, 'It met on Monday.', 'main');
      INSERT INTO scaffold_alignment_events (item_id, summary_id, annotator_id, value, sentences, cause, created_at)
        VALUES (5, 1, 1, 'preserved', '[0]', 'label', '2026-01-02T00:00:00.000Z');
    `,
    );
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const repo = new ScaffoldRepository(db);
      expect([...repo.annotatorAlignments(1, 1, 1)]).toEqual([[5, { value: 'preserved', sentences: [0], note: null }]]);

      const event = { summaryKey: 1, annotatorId: 1, judgeId: null, configHash: null, sentences: [] };
      const common = { ...event, timeSpentMs: null, importKey: null, importId: null };
      // A note on an item not aligned, and a note replacing the state of an aligned one.
      repo.recordAlignment({ ...common, itemId: 6, value: null, note: 'not said', cause: 'note' });
      repo.recordAlignment({ ...common, itemId: 5, value: 'partial', note: 'only the meeting', cause: 'label' });
      expect(repo.annotatorAlignments(1, 1, 1)).toEqual(
        new Map([
          [5, { value: 'partial', sentences: [], note: 'only the meeting' }],
          [6, { value: null, sentences: [], note: 'not said' }],
        ]),
      );
      expect(repo.currentNotes('news')).toEqual([
        { summaryKey: 1, scaffoldId: 1, itemId: 5, source: 'human:alice', note: 'only the meeting' },
        { summaryKey: 1, scaffoldId: 1, itemId: 6, source: 'human:alice', note: 'not said' },
      ]);
      // The analysis reads values only: the note-only event is not an alignment.
      expect(repo.currentAlignments('news').map((a) => [a.itemId, a.value])).toEqual([[5, 'partial']]);
      const plan = db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT id FROM scaffold_alignment_events WHERE summary_id = 1 AND item_id = 5 AND annotator_id = 1 ORDER BY id DESC LIMIT 1`,
        )
        .all() as Array<{ detail: string }>;
      expect(plan.map((p) => p.detail).join(' ')).toContain('scaffold_alignment_events_current');
    } finally {
      db.close();
    }
  });
});
