/**
 * Seed 000, App. B.4 end to end: the two summaries, their scaffold and alignments
 * imported as `--as scaffold` and `--as scaffold-alignments` (detected by content), then the
 * analysis `loupe analyze --json` prints (load → computeReport → the report schema) and its
 * Markdown. FPS 2/4·(1 − 1/3) ≈ 0.33 for Internal-S and 3/4·(1 − 2/3) = 0.25 for GPT-4o; EPS 4/9
 * for Internal-S — for the judge and for the people alike. After a person's scaffold edit, the
 * analysis still scores the alignments on the version they were given on.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { AnalysisRepository } from '../../../db/analysisRepository';
import { loadAnalysisDatasets } from '../../../electron/core/analysis/load';
import { computeReport } from '../../../electron/core/analysis/compute';
import { AnalysisReportSchema } from '../../../shared/analysis/schema';
import { B4_DATASET, b4Project } from '../../helpers/scaffold-b4';

const settings = {
  bootstrap: 200,
  seed: 0,
  cap: 20,
  humanLabel: 'majority' as const,
  reference: 'both' as const,
  includeRevealed: false,
  compareSource: null,
};

function analyze(path: string, compareSource: string | null = null) {
  const db = new Database(path, { readonly: true });
  try {
    const datasets = loadAnalysisDatasets(new AnalysisRepository(db), B4_DATASET, {
      set: 'both',
      rule: 'majority',
      includeRevealed: false,
    });
    const { report, markdown } = computeReport(datasets, { ...settings, compareSource });
    // What --json prints goes through the contract's schema (the hosts parse every analysis output with it).
    const parsed = AnalysisReportSchema.parse(JSON.parse(JSON.stringify(report)));
    return { report: parsed, markdown };
  } finally {
    db.close();
  }
}

describe('App. B.4 through the scaffold import kinds and analyze --json', () => {
  it('FPS ≈ 0.33 (Internal-S) and 0.25 (GPT-4o), EPS 4/9 (Internal-S), from the judge and from people', async () => {
    const { core, path } = await b4Project();
    const { report, markdown } = analyze(path);
    const scaffold = report.datasets[0]!.scaffold!;
    expect(Object.keys(scaffold.sources)).toEqual(['human', 'gpt-4.1']);
    for (const source of ['human', 'gpt-4.1']) {
      const rows = new Map(scaffold.sources[source]!.per_summary.map((r) => [r.system, r]));
      const small = rows.get('Internal-S')!;
      const large = rows.get('GPT-4o')!;
      expect(small.fps).toBeCloseTo((2 / 4) * (1 - 1 / 3), 12);
      expect(small.fps!.toFixed(2)).toBe('0.33');
      expect(large.fps).toBeCloseTo((3 / 4) * (1 - 2 / 3), 12);
      expect(small.eps).toBeCloseTo(4 / 9, 12);
      expect(small).toMatchObject({
        summary_id: 'camera-internal-s',
        doc_id: 'camera',
        scaffold_version: 1,
        n_aligners: 1,
        main_fc: 0.5,
        fact_focus: 1,
      });
      expect(small.supp_fc).toBeCloseTo(1 / 3, 12);
      // GPT-4o covers more facts (FC 5/7 > 3/7) yet scores lower FPS: the metric rewards hierarchy.
      expect(large.fc! > small.fc!).toBe(true);
      expect(large.eps).toBeCloseTo(6 / 9, 12); // desk2 misrepresented does not count
      // The source links sentences (Internal-S's), none of GPT-4o's: 0.0, not undefined.
      expect(large.fact_focus).toBe(0);
      // QPS: Internal-S answers both main and one of two supporting questions → 1·(1 − 1/2).
      expect(small.qps).toBe(0.5);
      expect(large.qps).toBe(0);
      expect(scaffold.sources[source]!.by_system['Internal-S']!.fps!.value).toBeCloseTo(1 / 3, 12);
    }
    // One document: too few to compare by default; the people's comparison on request has a
    // difference without an interval and no ranking.
    expect(scaffold.comparison).toBeNull();
    expect(scaffold.comparison_sources).toEqual([
      { source: 'human', n_documents: 1 },
      { source: 'gpt-4.1', n_documents: 1 },
    ]);
    expect(scaffold.comparison_note).toContain('gpt-4.1 (1 paired document)');
    const byPeople = analyze(path, 'people').report.datasets[0]!.scaffold!.comparison!;
    expect(byPeople.source).toBe('human');
    const fps = byPeople.metrics.fps!;
    expect(fps.differences).toEqual([
      expect.objectContaining({ a: 'GPT-4o', b: 'Internal-S', n: 1, ci: null, too_few: true }),
    ]);
    expect(fps.differences[0]!.value).toBeCloseTo(0.25 - 1 / 3, 12);
    expect(fps.ranks).toBeNull();
    expect(fps.saturated).toBeNull();
    expect(report.definitions.scaffold).toContain('(M_s/M_c)·(1 − S_s/S_c)');
    expect(markdown).toContain('### Semantic Scaffold (FPS, QPS, EPS)');
    expect(markdown).toMatch(/\| gpt-4\.1 \| Internal-S \| 1 \| .*0\.333 \(n = 1, too few for an interval\)/);
    core.close();
  });

  it('after a scaffold edit the analysis keeps scoring the alignments on version 1', async () => {
    const { core, repo, path } = await b4Project();
    const v1 = repo.scaffold.currentScaffold(repo.corpus.documentKey(B4_DATASET, 'camera')!)!;
    const content = repo.scaffold.content(v1.id);
    // Retier every supporting fact to main on version 2: were the old alignments rescored on it, FPS would be null (S_c = 0).
    repo.scaffold.editScaffold(v1.id, {
      content: { ...content, facts: content.facts.map((f) => ({ ...f, tier: 'main' as const })) },
      editorId: repo.ensureAnnotator('ana', 'person').id,
      note: null,
    });
    const rows = analyze(path).report.datasets[0]!.scaffold!.sources['gpt-4.1']!.per_summary;
    expect(rows.every((r) => r.scaffold_version === 1)).toBe(true);
    expect(rows.find((r) => r.system === 'Internal-S')!.fps).toBeCloseTo(1 / 3, 12);
    core.close();
  });

  it('a dataset without a scaffold has no scaffold block', async () => {
    const { core, path, run } = await b4Project();
    await run('other.jsonl', [
      {
        type: 'summary',
        dataset: 'other',
        doc_id: 'x',
        document: 'A document.',
        summary_id: 'x1',
        summary: 'A summary.',
      },
    ]);
    const db = new Database(path, { readonly: true });
    const [other] = loadAnalysisDatasets(new AnalysisRepository(db), 'other', {
      set: 'both',
      rule: 'majority',
      includeRevealed: false,
    });
    db.close();
    expect(other!.scaffold).toBeUndefined();
    expect(computeReport([other!], settings).report.datasets[0]!.scaffold).toBeUndefined();
    core.close();
  });
});
