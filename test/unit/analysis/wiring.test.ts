/**
 * The judge audit wired into the product: the loader (project rows → AnalysisDataset:
 * current labels, cleared labels, phases, resolution, the adjudication hook, current judge
 * versions, order), the per-dataset computation equal to analyzeProject, and the report schema of
 * the contract (complete: parsing strips nothing). The worker thread and the analysis.* handlers
 * are in test/integration/analysis-worker.test.ts.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openProjectDatabase } from '../../../db/open';
import { Repository } from '../../../db/repository';
import { AnalysisRepository, openProjectReadOnly, type AdjudicatedLabelRow } from '../../../db/analysisRepository';
import { analyzeProject, type AnalysisDataset } from '../../../shared/analysis';
import { AnalysisReportSchema } from '../../../shared/analysis/schema';
import type { HumanLabel } from '../../../shared/domain';
import { runImport } from '../../../electron/core/imports/run';
import { computeReport, type ComputeProgress } from '../../../electron/core/analysis/compute';
import { loadAnalysisDatasets, UnknownDatasetError } from '../../../electron/core/analysis/load';
import { buildSyntheticProject } from '../../bench/analyze.bench';
import { tempDir } from '../../helpers/tmp';
import { datasetFromFixture, loadWorkedExample } from '../../helpers/worked-example';

const fixture = loadWorkedExample();
const dir = tempDir('loupe-analysis-wiring-');

const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
const upload = (name: string, rows: unknown[]) => ({ type: 'upload' as const, name, text: jsonl(rows) });

async function withProject<T>(path: string, fn: (repo: Repository) => Promise<T> | T): Promise<T> {
  const db = openProjectDatabase(Database, path, { create: true });
  try {
    return await fn(new Repository(db));
  } finally {
    db.close();
  }
}

function readDatasets(path: string, dataset: string | null = null, repoClass = AnalysisRepository): AnalysisDataset[] {
  const db = openProjectReadOnly(Database, path);
  try {
    return loadAnalysisDatasets(new repoClass(db), dataset);
  } finally {
    db.close();
  }
}

/** The worked example, imported through the real import service. */
async function importWorkedExample(path: string): Promise<void> {
  await withProject(path, async (repo) => {
    await runImport(repo, { source: upload('summaries.jsonl', fixture.summaries as unknown[]), as: 'summaries' });
    await runImport(repo, { source: upload('labels.jsonl', fixture.labels), as: 'labels' });
    await runImport(repo, { source: upload('predictions.jsonl', fixture.predictions), as: 'predictions' });
  });
}

const workedPath = join(dir, 'worked.loupe');
beforeAll(async () => {
  await importWorkedExample(workedPath);
});

describe('loading a project for the analysis', () => {
  it('gives the worked example exactly the input its hand-checked test uses', () => {
    const [loaded, ...rest] = readDatasets(workedPath);
    expect(rest).toEqual([]);
    // The loader adds its account of the human reference: the default (both sets, unanimous,
    // revealed labels left out), nothing left out; the imported label files' annotators are imported.
    const { reference, sampling, ...units } = loaded!;
    expect(units).toEqual(datasetFromFixture(fixture));
    // And its draws (none: the labels were imported), which tell whether p̂_PP applies.
    expect(sampling).toEqual({ draws: [] });
    expect(reference).toEqual({
      set: 'both',
      rule: 'unanimous',
      includeRevealed: false,
      kinds: { ann1: 'imported', ann2: 'imported' },
      nLabelsOutside: 0,
      nAnnotatorsOutside: 0,
      nLabelsRevealed: 0,
    });
    // And so the same report (the worked-example test holds that one against the expected block),
    // but for the kinds and draws the loader knows: with them p̂_PP is refused for the imported
    // label sets, without them because nothing says how the sample was drawn.
    const fromLoader = analyzeProject([loaded!], { bootstrap: 0 });
    const fromFixture = analyzeProject([datasetFromFixture(fixture)], { bootstrap: 0 });
    expect(fromLoader.datasets[0]!.reference.annotators.map((a) => a.kind)).toEqual(['imported', 'imported']);
    expect(fromFixture.datasets[0]!.reference.annotators.map((a) => a.kind)).toEqual([null, null]);
    const reasons = (report: typeof fromLoader) =>
      Object.values(report.datasets[0]!.all_units.judges).map((j) => [j.p_pp, j.p_pp_reason]);
    const refused = (reason: RegExp) => [null, expect.stringMatching(reason)];
    expect(reasons(fromLoader)).toEqual([
      refused(/^The human reference includes imported label sets \(ann1, ann2\)/),
      refused(/imported label sets/),
    ]);
    expect(reasons(fromFixture)).toEqual([
      refused(/^The analysis input does not say how the human sample was drawn/),
      refused(/how the human sample was drawn/),
    ]);
    const withoutKinds = (report: typeof fromLoader) => ({
      ...report,
      datasets: report.datasets.map((d) => ({
        ...d,
        reference: { ...d.reference, annotators: d.reference.annotators.map((a) => ({ ...a, kind: null })) },
        all_units: {
          ...d.all_units,
          judges: Object.fromEntries(
            Object.entries(d.all_units.judges).map(([name, j]) => [name, { ...j, p_pp_reason: null }]),
          ),
        },
      })),
    });
    expect(withoutKinds(fromLoader)).toEqual(withoutKinds(fromFixture));
  });

  it('uses current labels only, per phase: cleared labels, corrections, agreement, disagreement, review labels, adjudication', async () => {
    const path = join(dir, 'rules.loupe');
    const rows = (dataset: string, ids: string[]) =>
      ids.map((id) => ({
        dataset,
        doc_id: `doc-${id}`,
        document: 'A document.',
        summary_id: id,
        summary: 'One. Two. Three. Four. Five. Six.',
        label: 1,
        sentences: ['One.', 'Two.', 'Three.', 'Four.', 'Five.', 'Six.'],
      }));
    await withProject(path, async (repo) => {
      // Imported in reverse order, the datasets too: the loader sorts.
      await runImport(repo, { source: upload('beta.jsonl', rows('beta', ['z', 'b'])), as: 'summaries' });
      await runImport(repo, { source: upload('alpha.jsonl', rows('alpha', ['y', 'x'])), as: 'summaries' });
      const unit = (dataset: string, summaryId: string, index: number) =>
        repo.unitIdsBySummary(summaryId, dataset)[0]!.unitIds[index]!;
      const ann1 = repo.ensureAnnotator('ann1').id;
      const ann2 = repo.ensureAnnotator('ann2').id;
      const rev1 = repo.ensureAnnotator('rev1').id;
      const rev2 = repo.ensureAnnotator('rev2').id;
      const label = (
        unitId: number,
        annotatorId: number,
        value: HumanLabel | null,
        phase: 'annotation' | 'review' = 'annotation',
      ) =>
        repo.recordLabel({
          unitId,
          annotatorId,
          phase,
          state: { label: value, errorType: null, note: null },
          timeSpentMs: 10,
          cause: value === null ? 'clear' : 'label',
        });
      label(unit('alpha', 'x', 0), ann1, 'faithful');
      label(unit('alpha', 'x', 0), ann1, null); // cleared: no label
      label(unit('alpha', 'x', 1), ann1, 'unfaithful');
      label(unit('alpha', 'x', 1), ann1, 'faithful'); // corrected: the latest counts
      label(unit('alpha', 'x', 2), ann1, 'unclear');
      label(unit('alpha', 'x', 2), ann2, 'unclear'); // agreed
      label(unit('alpha', 'x', 3), ann1, 'faithful');
      label(unit('alpha', 'x', 3), ann2, 'unfaithful'); // disagreement: left out
      label(unit('alpha', 'x', 4), rev1, 'unfaithful', 'review'); // review only
      label(unit('alpha', 'x', 5), ann1, 'faithful');
      label(unit('alpha', 'x', 5), rev1, 'unfaithful', 'review');
      label(unit('alpha', 'x', 5), rev2, 'faithful', 'review'); // reviewers disagree: no review label
      label(unit('alpha', 'x', 1), ann2, 'faithful');
      label(unit('alpha', 'x', 1), ann2, null); // ann2 cleared: ann1's faithful stands alone
      // Judge A: version v1, then v2 (current); judge B only on beta.
      const prediction = (
        dataset: string,
        summary_id: string,
        sentence_index: number,
        judge: string,
        hard: 0 | 1,
        config_hash: string,
      ) => ({ dataset, summary_id, sentence_index, judge, hard, soft: hard === 1 ? 0.9 : 0.1, config_hash });
      await runImport(repo, {
        source: upload(
          'v1.jsonl',
          [0, 1, 2, 3, 4, 5].map((i) => prediction('alpha', 'x', i, 'A', 0, 'v1')),
        ),
        as: 'predictions',
      });
      await runImport(repo, {
        source: upload(
          'v2.jsonl',
          [0, 1, 2].map((i) => prediction('alpha', 'x', i, 'A', 1, 'v2')),
        ),
        as: 'predictions',
      });
      await runImport(repo, {
        source: upload('b.jsonl', [prediction('beta', 'b', 0, 'B', 0, 'h')]),
        as: 'predictions',
      });
    });

    const datasets = readDatasets(path);
    expect(datasets.map((d) => d.name)).toEqual(['alpha', 'beta']);
    const [alpha, beta] = datasets as [AnalysisDataset, AnalysisDataset];
    expect(alpha.summaries.map((s) => s.summaryId)).toEqual(['x', 'y']);
    expect(beta.summaries.map((s) => s.summaryId)).toEqual(['b', 'z']);
    expect(alpha.judges).toEqual(['A']);
    expect(beta.judges).toEqual(['B']);

    const x = alpha.summaries[0]!;
    expect(x.annotated).toBe(true);
    expect(x.units.map((u) => [u.index, u.human, u.humanStatus, u.review])).toEqual([
      [0, null, 'none', null],
      [1, 'faithful', 'single', null],
      [2, 'unclear', 'agreed', null],
      [3, null, 'disagreement', null],
      [4, null, 'none', 'unfaithful'],
      [5, 'faithful', 'single', null],
    ]);
    // Only the current version of judge A: v2 on sentences 0–2, nothing on 3–5.
    expect(x.units.map((u) => u.judges)).toEqual([
      { A: { hard: 1, soft: 0.9 } },
      { A: { hard: 1, soft: 0.9 } },
      { A: { hard: 1, soft: 0.9 } },
      {},
      {},
      {},
    ]);
    expect(alpha.summaries[1]!.annotated).toBe(false);

    // One dataset, and an unknown one.
    expect(readDatasets(path, 'beta').map((d) => d.name)).toEqual(['beta']);
    expect(() => readDatasets(path, 'gamma')).toThrow(UnknownDatasetError);

    // Adjudication (the review store): a human-vs-human decision settles the disagreement
    // on sentence 3 and is not a review label; a suspicious-queue decision is one, and only that.
    await withProject(path, (repo) => {
      const unitId = repo.unitIdsBySummary('x', 'alpha')[0]!.unitIds[3]!;
      const adjudicator = repo.ensureAnnotator('adj').id;
      const decision = (label: HumanLabel, queue: 'human-human' | 'suspicious') =>
        repo.review.recordDecision({
          unitId,
          annotatorId: adjudicator,
          label,
          errorType: null,
          note: null,
          timeSpentMs: 5,
          cause: 'label',
          queue,
          judges: [],
        });
      decision('unfaithful', 'human-human');
    });
    const adjudicated = readDatasets(path, 'alpha')[0]!.summaries[0]!.units[3]!;
    expect([adjudicated.human, adjudicated.humanStatus, adjudicated.review]).toEqual([
      'unfaithful',
      'adjudicated',
      null,
    ]);
    await withProject(path, (repo) => {
      const unitId = repo.unitIdsBySummary('x', 'alpha')[0]!.unitIds[3]!;
      repo.review.recordDecision({
        unitId,
        annotatorId: repo.ensureAnnotator('rev3').id,
        label: 'faithful',
        errorType: null,
        note: null,
        timeSpentMs: 5,
        cause: 'label',
        queue: 'suspicious',
        judges: [],
      });
    });
    const reviewed = readDatasets(path, 'alpha')[0]!.summaries[0]!.units[3]!;
    expect([reviewed.human, reviewed.humanStatus, reviewed.review]).toEqual(['unfaithful', 'adjudicated', 'faithful']);

    // And any other source of adjudicated labels plugs in the same way.
    class WithAdjudication extends AnalysisRepository {
      override adjudicatedLabels(dataset: string): AdjudicatedLabelRow[] {
        const key = this.summaries(dataset).find((s) => s.summaryId === 'x')?.key;
        return key === undefined ? [] : [{ summaryKey: key, unitIndex: 3, label: 'faithful' }];
      }
    }
    const plugged = readDatasets(path, 'alpha', WithAdjudication)[0]!.summaries[0]!.units[3]!;
    expect([plugged.human, plugged.humanStatus]).toEqual(['faithful', 'adjudicated']);
  });

  it('refuses a file that is not a Loupe project, read-only', () => {
    const other = join(dir, 'plain.sqlite');
    const db = new Database(other);
    db.exec('CREATE TABLE t (x)');
    db.close();
    expect(() => openProjectReadOnly(Database, other)).toThrow(/not a Loupe project/);
    expect(() => openProjectReadOnly(Database, join(dir, 'missing.loupe'))).toThrow(/No project file/);
  });
});

describe('computing the report', () => {
  const syntheticPath = join(dir, 'synthetic.loupe');
  let datasets: AnalysisDataset[];
  beforeAll(async () => {
    await buildSyntheticProject(syntheticPath, { summaries: 300, annotated: 40, judges: 3, dataset: 'synthetic' });
    await withProject(syntheticPath, async (repo) => {
      await runImport(repo, { source: upload('summaries.jsonl', fixture.summaries as unknown[]), as: 'summaries' });
    });
    datasets = readDatasets(syntheticPath);
  }, 60_000);

  it('equals analyzeProject, dataset by dataset, with progress', () => {
    const progress: ComputeProgress[] = [];
    const settings = { bootstrap: 40, seed: 3, cap: 5 };
    const { report, markdown } = computeReport(datasets, settings, (p) => progress.push(p));
    expect(report).toEqual(analyzeProject(datasets, settings));
    expect(markdown).toContain('# Loupe analysis');
    expect(progress).toEqual([
      { phase: 'analysing synthetic', done: 1, total: 4 },
      { phase: 'analysing worked-example', done: 2, total: 4 },
      { phase: 'rendering', done: 3, total: 4 },
    ]);
  });

  it("the contract's report schema names every field: parsing changes nothing", () => {
    const full = analyzeProject(datasets, { bootstrap: 60, seed: 0, cap: 25 });
    const dataset = full.datasets[0]!;
    // The synthetic set exercises intervals, soft labels, calibration and the hidden-bias curve.
    expect(dataset.p_hat_estimate.ci).not.toBeNull();
    expect(dataset.judges['judge-1']!.calibration).not.toBeNull();
    expect(dataset.hidden_bias).not.toBeNull();
    expect(AnalysisReportSchema.parse(full)).toEqual(full);
    const empty = analyzeProject([{ name: 'empty', summaries: [], judges: [] }], { bootstrap: 10 });
    expect(AnalysisReportSchema.parse(empty)).toEqual(empty);
    // And it rejects what the types do not allow.
    const broken = structuredClone(full) as unknown as { datasets: Array<{ p_hat: unknown }> };
    broken.datasets[0]!.p_hat = 'high';
    expect(AnalysisReportSchema.safeParse(broken).success).toBe(false);
  });
});
