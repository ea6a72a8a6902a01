/**
 * FineSurE's fact-checking categories become the error type of the judge's sentence prediction,
 * mapped to the taxonomy, and the audit's error-type table counts them. Hand count over
 * test/fixtures/benchmarks/frank/finesure-format/fact-checking-raw-data.finesure.json (10 records,
 * every category list one per sentence): the sentences FineSurE marks as errors
 * (pred_faithfulness_labels 1) are 10, with categories "entity error" ×4, "grammatical error" ×4,
 * "predicate error" ×1, "out-of-context error" ×1 → entity 4, other 4, relation 1, not_in_source 1.
 * Migration 011 opens a populated project of the schema before it, the new columns empty.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { loadAnalysisDatasets } from '../../../electron/core/analysis/load';
import { AnalysisRepository } from '../../../db/analysisRepository';
import { SCHEMA_VERSION } from '../../../db/migrations';
import { migration011 } from '../../../db/migrations/011_error_types_merge_origins';
import { analyzeDataset, renderMarkdown } from '../../../shared/analysis';
import { DatasetAnalysisSchema } from '../../../shared/analysis/schema';
import { fineSurESentenceErrorType } from '../../../shared/accuracy/domain';
import { FRANK_JUDGE } from '../../../shared/formats/frank';
import { benchmark } from '../../helpers/benchmarks';
import { ONE_SUMMARY_SEED, openAfterMigration } from '../../helpers/schema';
import { tempDir } from '../../helpers/tmp';

const RAW = benchmark('frank', 'finesure-format', 'fact-checking-raw-data.finesure.json');

describe("FineSurE's fact-checking error categories", () => {
  it('a category list joined by ", " takes the one type its names share, else other', () => {
    expect(fineSurESentenceErrorType('entity error')).toBe('entity');
    expect(fineSurESentenceErrorType('entity error, coreference error')).toBe('entity');
    expect(fineSurESentenceErrorType('entity error, predicate error')).toBe('other');
    expect(fineSurESentenceErrorType('made-up error')).toBe('other');
    expect(fineSurESentenceErrorType('no error')).toBeNull();
  });

  it("are stored as the error type of the judge's sentence prediction and counted in the audit's error-type table", async () => {
    const dir = tempDir('loupe-error-types-');
    const core = createCore({
      Database,
      stateDir: dir,
      demoDir: dir,
      host: 'electron',
      fileDialogs: false,
      diskPaths: true,
      canSwitchProjects: false,
    });
    const project = join(dir, 'p.loupe');
    core.createProject(project);
    try {
      const result = await runImport(core.repository(), {
        source: { type: 'path', path: RAW },
        as: 'frank',
        dataset: 'frank-small',
      });
      expect(result.predictionsSkipped).toEqual([]);
    } finally {
      core.close();
    }
    const db = new Database(project);
    try {
      const stored = db
        .prepare(
          'SELECT error_type AS type, source_error_type AS source, count(*) AS n FROM judge_predictions WHERE hard = 0 GROUP BY 1, 2 ORDER BY 1, 2',
        )
        .all();
      expect(stored).toEqual([
        { type: 'entity', source: 'entity error', n: 4 },
        { type: 'not_in_source', source: 'out-of-context error', n: 1 },
        { type: 'other', source: 'grammatical error', n: 4 },
        { type: 'relation', source: 'predicate error', n: 1 },
      ]);
      // A faithful prediction has no error type.
      expect(
        db.prepare('SELECT count(*) AS n FROM judge_predictions WHERE hard = 1 AND error_type IS NOT NULL').get(),
      ).toEqual({ n: 0 });

      const [dataset] = loadAnalysisDatasets(new AnalysisRepository(db), 'frank-small');
      const analysis = DatasetAnalysisSchema.parse(analyzeDataset(dataset!, { bootstrap: 20, seed: 0 }));
      expect(analysis.error_types!.judges[FRANK_JUDGE]).toEqual({
        n_unfaithful: 10,
        counts: {
          entity: 4,
          relation: 1,
          number_or_date: 0,
          not_in_source: 1,
          attribution: 0,
          overstatement: 0,
          boilerplate: 0,
          other: 4,
          untyped: 0,
        },
      });
      const markdown = renderMarkdown({
        settings: {
          bootstrap: 20,
          seed: 0,
          cap: 25,
          simulation_points: 0,
          simulation_min_summaries: 0,
          human_label: 'unanimous',
          reference: 'both',
          include_revealed: false,
          compare_source: null,
        },
        definitions: {},
        datasets: [analysis],
      });
      expect(markdown).toContain("### Error types of the judges' unfaithful sentence predictions");
      expect(markdown).toContain(`| ${FRANK_JUDGE} | 10 | 4 | 1 | 0 | 1 | 0 | 0 | 0 | 4 | 0 |`);
    } finally {
      db.close();
    }
  });

  it('migration 011 opens a populated project of the schema before it; earlier predictions have no error type', () => {
    const path = join(tempDir('loupe-migration-011-'), 'before-011.loupe');
    const db = openAfterMigration(
      path,
      migration011,
      ONE_SUMMARY_SEED,
      `
      INSERT INTO judges (id, name, kind, created_at, updated_at) VALUES (1, 'j', 'imported', 'x', 'x');
      INSERT INTO judge_versions (id, judge_id, config_hash, config, created_at) VALUES (1, 1, 'imported', '{}', 'x');
      INSERT INTO judge_predictions (unit_id, judge_version_id, hard, source, created_at) VALUES (10, 1, 0, 'import', 'x');
    `,
    );
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(
        db.prepare('SELECT hard, error_type AS type, source_error_type AS source FROM judge_predictions').all(),
      ).toEqual([{ hard: 0, type: null, source: null }]);
      expect(() => db.prepare("UPDATE judge_predictions SET error_type = 'typo'").run()).toThrow(/CHECK/);
      for (const table of [
        'claim_label_events',
        'key_fact_label_events',
        'sentence_keyfact_events',
        'scaffold_alignment_events',
      ]) {
        const columns = (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name);
        expect(columns, table).toEqual(expect.arrayContaining(['origin_project', 'origin_event', 'merge_id']));
      }
    } finally {
      db.close();
    }
  });
});
