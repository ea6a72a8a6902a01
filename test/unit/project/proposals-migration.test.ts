/**
 * Migration 010 (proposals): a populated schema-9 project opens at schema 10 with its sets
 * unchanged and no proposal; a proposal row names a person, a document (and a summary exactly for
 * claims), is pending until decided, and an accepted one names the version it created.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../db/migrations';
import { migration010 } from '../../../db/migrations/010_proposals';
import { ProposalRepository } from '../../../db/proposalRepository';
import { tempDir } from '../../helpers/tmp';
import { ONE_SUMMARY_SEED, openAfterMigration } from '../../helpers/schema';

const dir = tempDir('loupe-proposals-migration-');

describe('migration 010 (proposals)', () => {
  it('migrates a populated schema-9 project; the proposal table keeps its rules', () => {
    expect(MIGRATIONS.indexOf(migration010)).toBe(9);
    const path = join(dir, 'schema9.loupe');
    const db = openAfterMigration(
      path,
      migration010,
      ONE_SUMMARY_SEED,
      `
      INSERT INTO key_fact_sets (id, document_id, version, source, extractor, extractor_version, created_at) VALUES (1, 1, 1, 'model', 'm', '1', 'x');
      INSERT INTO key_facts (id, set_id, idx, text) VALUES (1, 1, 0, 'The council met.');
    `,
    );
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT text FROM key_facts').all()).toEqual([{ text: 'The council met.' }]);
      expect(db.prepare('SELECT count(*) AS n FROM proposals').get()).toEqual({ n: 0 });

      const proposals = new ProposalRepository(db);
      const id = proposals.insert({
        kind: 'keyfacts',
        documentKey: 1,
        summaryKey: null,
        baseVersion: 1,
        authorId: 1,
        content: '{"facts":[{"text":"The council met on Monday.","from":[]}]}',
        note: null,
      });
      expect(proposals.get(id)).toMatchObject({
        kind: 'keyfacts',
        author: 'alice',
        docId: 'd1',
        dataset: 'news',
        baseVersion: 1,
        status: 'pending',
        decidedAt: null,
        resultVersion: null,
      });
      expect(proposals.decide(id, { status: 'accepted', resultVersion: 2 })).toBe(true);
      expect(proposals.decide(id, { status: 'declined', note: null })).toBe(false);
      expect(proposals.get(id)).toMatchObject({ status: 'accepted', resultVersion: 2 });

      const insert = (sql: string) => () =>
        db.exec(
          `INSERT INTO proposals (kind, document_id, summary_id, base_version, author_id, content, status, created_at, decided_at, result_version) VALUES ${sql}`,
        );
      // Claims name their summary; key facts and scaffolds do not.
      expect(insert(`('claims', 1, NULL, 1, 1, '{}', 'pending', 'x', NULL, NULL)`)).toThrow(/CHECK/);
      expect(insert(`('scaffold', 1, 1, 1, 1, '{}', 'pending', 'x', NULL, NULL)`)).toThrow(/CHECK/);
      // A decided proposal says when; an accepted one its version.
      expect(insert(`('keyfacts', 1, NULL, 1, 1, '{}', 'declined', 'x', NULL, NULL)`)).toThrow(/CHECK/);
      expect(insert(`('keyfacts', 1, NULL, 1, 1, '{}', 'accepted', 'x', 'y', NULL)`)).toThrow(/CHECK/);
      expect(insert(`('keyfacts', 1, NULL, 1, 99, '{}', 'pending', 'x', NULL, NULL)`)).toThrow(/FOREIGN KEY/);
      insert(`('claims', 1, 1, NULL, 1, '{}', 'pending', 'x', NULL, NULL)`)();
    } finally {
      db.close();
    }
  });
});
