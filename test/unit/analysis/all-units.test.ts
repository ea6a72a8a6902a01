/**
 * Single-sentence summaries count where the length does not matter.
 *
 * - A small set computed by hand: `all_units` (p̂, ε̂, confusion, recall, specificity, their n) over
 *   every annotated summary, single-sentence ones included, while the diagnostic scope (≥ 2
 *   sentences) keeps only the long one; the intervals against an independent bootstrap over
 *   summaries (same stream); agreement takes the single-sentence units.
 * - Without single-sentence summaries, `all_units` equals the diagnostic figures, intervals included.
 * - A FRANK-XSum-like project (FRANK's XSum summaries of one sentence, FineSurE format, imported
 *   through the real importer, plus a judge): agreement and the all-units error rates are
 *   non-empty and equal a computation from the raw file, while every ≥ 2 section is empty or null.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openProjectDatabase } from '../../../db/open';
import { Repository } from '../../../db/repository';
import { AnalysisRepository, openProjectReadOnly } from '../../../db/analysisRepository';
import {
  analyzeProject,
  renderMarkdown,
  type AnalysisDataset,
  type AnalysisSummary,
  type AnalysisUnit,
  type DatasetAnalysis,
} from '../../../shared/analysis';
import { AnalysisReportSchema } from '../../../shared/analysis/schema';
import { percentileInterval } from '../../../shared/stats/bootstrap';
import { createStream } from '../../../shared/stats/prng';
import type { HumanLabel } from '../../../shared/domain';
import { runImport } from '../../../electron/core/imports/run';
import { computeReport } from '../../../electron/core/analysis/compute';
import { loadAnalysisDatasets } from '../../../electron/core/analysis/load';
import { frankSummaryId, frankXsumRecords, writeFrankXsum } from '../../helpers/frank-xsum';
import { tempDir } from '../../helpers/tmp';
import { datasetFromFixture, loadWorkedExample } from '../../helpers/worked-example';

const F: HumanLabel = 'faithful';
const U: HumanLabel = 'unfaithful';
const C: HumanLabel = 'unclear';

function unit(
  index: number,
  human: HumanLabel | null,
  hard: 0 | 1 | null,
  ratings?: Record<string, HumanLabel>,
): AnalysisUnit {
  return {
    index,
    text: `Sentence ${index}.`,
    human,
    humanStatus: human === null ? 'none' : ratings && Object.keys(ratings).length > 1 ? 'agreed' : 'single',
    ...(ratings ? { ratings } : {}),
    judges: hard === null ? {} : { J: { hard, soft: null } },
  };
}

function summary(id: string, units: AnalysisUnit[], globalLabel: 0 | 1 | null = 1): AnalysisSummary {
  return { summaryId: id, docId: `doc-${id}`, globalLabel, units, annotated: units.some((u) => u.human !== null) };
}

/**
 * By hand (unfaithful = positive; J's hard label 0 = unfaithful):
 *   a: F / J 1 → TN      b: U / J 0 → TP      c: U / J 1 → FN
 *   d: [F / J 0 → FP, F / J 1 → TN]  (the only summary with ≥ 2 sentences)
 *   e: unclear / J 0 (not usable)     f: no label / J 0 (not annotated)     g: F / no prediction
 * Annotated: a b c d e g = 6 summaries (5 of one sentence), 7 units, 6 usable (4 faithful).
 * p̂ = 4/6; J: TP 1, FP 1, TN 2, FN 1 → ε̂ = 2/5, recall = 1/2 (n 2), specificity = 2/3 (n 3).
 * Diagnostic scope: d alone → p̂ = 2/2, ε̂ = 1/2.
 */
const small: AnalysisDataset = {
  name: 'small',
  judges: ['J'],
  summaries: [
    summary('a', [unit(0, F, 1, { x: F, y: F })]),
    summary('b', [unit(0, U, 0, { x: U, y: U })]),
    summary('c', [unit(0, U, 1)]),
    summary('d', [unit(0, F, 0), unit(1, F, 1)], 0),
    summary('e', [unit(0, C, 0)]),
    summary('f', [unit(0, null, 0)]),
    summary('g', [unit(0, F, null)]),
  ],
};

describe('all_units on a set computed by hand', () => {
  const bootstrap = 400;
  const seed = 3;
  const report = analyzeProject([small], { bootstrap, seed });
  const d = report.datasets[0]!;

  it('counts every annotated unit, single-sentence summaries included', () => {
    const all = d.all_units;
    expect([all.n_summaries, all.n_single_sentence, all.n_units]).toEqual([6, 5, 7]);
    expect(all.human).toMatchObject({
      n_annotated_summaries: 6,
      n_units: 7,
      n_usable: 6,
      n_faithful: 4,
      n_unfaithful: 2,
      n_unclear: 1,
      n_unresolved: 0,
      n_unlabeled: 0,
    });
    expect([all.p_hat.value, all.p_hat.n, all.p_hat.n_summaries]).toEqual([4 / 6, 6, 6]);
    const j = all.judges.J!;
    expect(j.confusion).toEqual({ positive_class: 'unfaithful', tp: 1, fp: 1, tn: 2, fn: 1, n: 5 });
    expect([j.epsilon_hat.value, j.epsilon_hat.n, j.epsilon_hat.n_summaries]).toEqual([2 / 5, 5, 6]);
    expect([j.recall.value, j.recall.n]).toEqual([1 / 2, 2]);
    expect([j.specificity.value, j.specificity.n]).toEqual([2 / 3, 3]);
  });

  it('keeps the diagnostic scope (≥ 2 sentences) to the one long summary', () => {
    expect([d.n_summaries, d.n_single_sentence_left_out]).toEqual([1, 6]);
    expect([d.p_hat, d.p_hat_estimate.n]).toEqual([1, 2]);
    expect([d.judges.J!.epsilon_hat.value, d.judges.J!.epsilon_hat.n]).toEqual([1 / 2, 2]);
  });

  it('has the intervals of a bootstrap over the annotated summaries (the human-sample stream)', () => {
    // Per annotated summary (a b c d e g): [usable, faithful, tp, fp, tn, fn].
    const per = [
      [1, 1, 0, 0, 1, 0],
      [1, 0, 1, 0, 0, 0],
      [1, 0, 0, 0, 0, 1],
      [2, 2, 0, 1, 1, 0],
      [0, 0, 0, 0, 0, 0],
      [1, 1, 0, 0, 0, 0],
    ];
    const rng = createStream(seed, 'loupe-analysis-v1', 'small', 'human-sample');
    const p: number[] = [];
    const eps: number[] = [];
    const recall: number[] = [];
    const spec: number[] = [];
    const counts = new Int32Array(per.length);
    for (let r = 0; r < bootstrap; r++) {
      rng.fillResampleCounts(counts);
      const s = [0, 0, 0, 0, 0, 0];
      per.forEach((row, i) => row.forEach((v, k) => (s[k]! += v * counts[i]!)));
      const [usable, faithful, tp, fp, tn, fn] = s as [number, number, number, number, number, number];
      p.push(usable > 0 ? faithful / usable : NaN);
      eps.push(tp + fp + tn + fn > 0 ? (fp + fn) / (tp + fp + tn + fn) : NaN);
      recall.push(tp + fn > 0 ? tp / (tp + fn) : NaN);
      spec.push(tn + fp > 0 ? tn / (tn + fp) : NaN);
    }
    const j = d.all_units.judges.J!;
    // p̂ rests on five summaries with a usable label (a b c d g): an interval.
    expect(d.all_units.p_hat).toMatchObject({ ci: percentileInterval(p).ci, too_few: false });
    // ε̂ on four (a b c d), recall on two (b c), specificity on two (a d): too few, the point value kept.
    expect(j.epsilon_hat).toMatchObject({ value: 2 / 5, ci: null, too_few: true, replicates_dropped: 0 });
    expect(j.recall).toMatchObject({ value: 1 / 2, ci: null, too_few: true });
    expect(j.specificity).toMatchObject({ value: 2 / 3, ci: null, too_few: true });
    void [eps, recall, spec];
  });

  it('takes single-sentence units into agreement', () => {
    // a and b are the units two annotators rated; both agree.
    expect(d.agreement.n_summaries).toBe(6);
    expect(d.agreement.humans.n_units).toBe(2);
    expect(d.agreement.humans.percent_agreement.value).toBe(1);
    expect(d.agreement.judges.J!.n_units).toBe(5);
  });

  it('passes the contract schema unchanged; the Markdown shows the table; definitions state both scopes', () => {
    expect(AnalysisReportSchema.parse(report)).toEqual(report);
    const md = renderMarkdown(report);
    expect(md).toContain('### Judge error on every annotated sentence (any summary length)');
    const row = md.split('\n').find((line) => line.startsWith('| J | 0.400'))!;
    expect(row).toBeDefined();
    expect(row).toContain('| 5 | 1 | 1 | 2 | 1 |');
    expect(row).toContain('(n = 2)');
    expect(report.definitions.scope).toMatch(/Diagnostic scope.*≥ 2 sentences.*All-units scope.*any length/s);
    expect(report.definitions.all_units).toMatch(/any length/);
  });
});

describe('all_units without single-sentence summaries', () => {
  it('equals the diagnostic figures, intervals included', () => {
    const worked = datasetFromFixture(loadWorkedExample());
    const long = { ...worked, summaries: worked.summaries.filter((s) => s.units.length >= 2) };
    const d = analyzeProject([long], { bootstrap: 300, seed: 2 }).datasets[0]!;
    expect(d.n_single_sentence_left_out).toBe(0);
    expect(d.all_units.p_hat).toEqual(d.p_hat_estimate);
    expect(d.all_units.human).toEqual(d.human);
    for (const judge of d.judge_names) {
      const all = d.all_units.judges[judge]!;
      const diag = d.judges[judge]!;
      expect(all.epsilon_hat).toEqual(diag.epsilon_hat);
      expect(all.confusion).toEqual(diag.confusion);
      expect([all.recall.value, all.recall.n]).toEqual([diag.recall.value, diag.recall.n]);
      expect([all.specificity.value, all.specificity.n]).toEqual([diag.specificity.value, diag.specificity.n]);
    }
  });
});

// ───────────────────────── a FRANK-XSum-like project ─────────────────────────

// FRANK's XSum part with one sentence per summary (FRANK-XSum is 64 of these 65 in the sample).
const xsum = frankXsumRecords();

describe('a FRANK-XSum-like project (one sentence per summary)', () => {
  const dir = tempDir('loupe-all-units-');
  const path = join(dir, 'xsum.loupe');
  let d: DatasetAnalysis;
  let summaryIds: string[];
  /** The judge's hard label of the g-th summary in import order (deterministic, both values). */
  const judgeHard = (g: number): 0 | 1 => (g % 3 === 0 ? 0 : 1);

  beforeAll(async () => {
    const file = writeFrankXsum(dir, xsum);
    const db = openProjectDatabase(Database, path, { create: true });
    try {
      const repo = new Repository(db);
      await runImport(repo, { source: { type: 'path', path: file } });
      const ro = openProjectReadOnly(Database, path);
      try {
        summaryIds = loadAnalysisDatasets(new AnalysisRepository(ro), null)[0]!.summaries.map((s) => s.summaryId);
      } finally {
        ro.close();
      }
      expect(summaryIds).toHaveLength(xsum.length);
      const predictions = summaryIds.map((summary_id, g) => ({
        dataset: 'frank',
        summary_id,
        sentence_index: 0,
        judge: 'judge-x',
        hard: judgeHard(g),
        soft: null,
      }));
      await runImport(repo, {
        source: {
          type: 'upload',
          name: 'predictions.jsonl',
          text: `${predictions.map((p) => JSON.stringify(p)).join('\n')}\n`,
        },
        as: 'predictions',
      });
    } finally {
      db.close();
    }
    const ro = openProjectReadOnly(Database, path);
    try {
      d = computeReport(loadAnalysisDatasets(new AnalysisRepository(ro), null), { bootstrap: 200, seed: 0, cap: 25 })
        .report.datasets[0]!;
    } finally {
      ro.close();
    }
  }, 60_000);

  it("imports 64 summaries of one sentence, each labelled by FRANK's three annotators", () => {
    expect(xsum).toHaveLength(64);
    expect([d.n_summaries_total, d.n_single_sentence_left_out]).toEqual([64, 64]);
    expect(d.reference.annotators.map((a) => [a.name, a.kind, a.n_labels])).toEqual([
      ['frank-0', 'imported', 64],
      ['frank-1', 'imported', 64],
      ['frank-2', 'imported', 64],
    ]);
  });

  it('gives agreement on every unit: 64 units with three ratings, Fleiss κ and α defined', () => {
    const a = d.agreement;
    expect(a.n_summaries).toBe(64);
    expect(a.humans.n_units).toBe(64);
    expect(a.humans.ratings_per_unit).toEqual({ '3': 64 });
    expect(a.humans.fleiss_kappa.value).not.toBeNull();
    expect(a.humans.krippendorff_alpha.value).not.toBeNull();
    expect(a.humans.pairs).toHaveLength(3);
    expect(a.judges['judge-x']!.n_units).toBeGreaterThan(0);
  });

  it('gives the all-units error rates of the raw file: unanimous FRANK labels against the judge', () => {
    // By hand from the FineSurE file: factuality_labels 1 = has an error (unfaithful); the
    // default rule keeps the units all three annotators agree on.
    const bySummaryId = new Map(summaryIds.map((id, g) => [id, g]));
    let usable = 0;
    let faithful = 0;
    const cm = { tp: 0, fp: 0, tn: 0, fn: 0 };
    let unresolved = 0;
    for (const loaded of summaryIds) {
      const g = bySummaryId.get(loaded)!;
      const record = xsum.find((r) => frankSummaryId(r) === loaded)!; // the importer's summary id
      const votes = Object.values(record.raw_annotations).map((a) => a.factuality_labels[0]!);
      if (!votes.every((v) => v === votes[0])) {
        unresolved += 1;
        continue;
      }
      const truth = votes[0] === 1 ? 0 : 1; // 1 = faithful
      usable += 1;
      faithful += truth;
      const hard = judgeHard(g);
      if (hard === 0) cm[truth === 0 ? 'tp' : 'fp'] += 1;
      else cm[truth === 0 ? 'fn' : 'tn'] += 1;
    }
    const all = d.all_units;
    expect([all.n_summaries, all.n_single_sentence, all.n_units]).toEqual([64, 64, 64]);
    expect(all.human.n_unresolved).toBe(unresolved);
    expect(unresolved).toBeGreaterThan(0);
    expect([all.p_hat.value, all.p_hat.n]).toEqual([faithful / usable, usable]);
    expect(all.p_hat.ci).not.toBeNull();
    const j = all.judges['judge-x']!;
    expect(j.confusion).toEqual({ positive_class: 'unfaithful', ...cm, n: usable });
    expect(j.epsilon_hat.value).toBeCloseTo((cm.fp + cm.fn) / usable, 15);
    expect([j.recall.value, j.recall.n]).toEqual([cm.tp / (cm.tp + cm.fn), cm.tp + cm.fn]);
    expect([j.specificity.value, j.specificity.n]).toEqual([cm.tn / (cm.tn + cm.fp), cm.tn + cm.fp]);
    expect(j.epsilon_hat.ci).not.toBeNull();
  });

  it('leaves every section of the diagnostic scope (≥ 2 sentences) empty or null', () => {
    expect([d.n_summaries, d.n_sentences]).toEqual([0, 0]);
    expect(d.human.n_annotated_summaries).toBe(0);
    expect([d.p_hat, d.p_hat_estimate.n]).toEqual([null, 0]);
    expect(d.epsilon0_status).toBe('undefined');
    expect(d.epsilon0).toBeNull();
    const j = d.judges['judge-x']!;
    expect([j.epsilon_hat.value, j.epsilon_hat.n]).toEqual([null, 0]);
    expect(j.correlations.hard.min.n).toBe(0);
    expect(j.correlations.hard.mean.pearson.value).toBeNull();
    expect(j.averaging_bias.holds).toBeNull();
    expect([d.composition.human.n, d.composition.judges.all.n]).toEqual([0, 0]);
    expect(d.hidden_bias).toBeNull();
    expect([d.suspicious.pool, d.suspicious.listed.length, d.review.pool]).toEqual([0, 0, 0]);
  });
});
