/**
 * The worked example (test/fixtures/analysis/worked-example.json), small enough to compute by hand.
 *
 * Data (hard label / soft label per judge; human label of the annotation phase):
 *   a (doc d1, global 1)  s0 F        J1 1/.875  J2 1/.75
 *                         s1 U        J1 0/.25   J2 0/.375   (review phase: U)
 *                         s2 unclear  J1 0/.375  J2 0/.125   ("It passed." — 2 word tokens)
 *   b (doc d2, global 1)  s0 F        J1 1/.75   J2 0/.4375
 *                         s1 F vs U (ann1 vs ann2: unresolved)  J1 1/.625  J2 0/.375
 *   c (doc d3, global 0)  s0 U        J1 0/.125  J2 0/.25
 *                         s1 F        J1 1/.875  J2 0/.375
 *                         s2 U (ann1 and ann2 agree)  J1 1/.625  J2 0/.25
 *   d (doc d4, global 0)  not annotated; s0 J1 1/.875 J2 1/.75; s1 J1 0/.25, J2 no prediction
 *   e (doc d5, global 1)  one sentence (F; J1 1/.875, J2 1/.875): left out of every analysis
 */
import { describe, expect, it } from 'vitest';
import { analyzeDataset, analyzeProject, renderMarkdown } from '../../../shared/analysis';
import { datasetFromFixture, loadWorkedExample } from '../../helpers/worked-example';

type Statistics4 = [number | null, number | null, number | null, number | null];
interface ExpectedJudge {
  epsilon_hat: number;
  confusion: { tp: number; fp: number; tn: number; fn: number };
  recall: number;
  specificity: number;
  hard: Record<'min' | 'mean' | 'max', Statistics4> & { n: number; n_left_out: number };
  soft: Record<'min' | 'mean' | 'max', Statistics4> & { n: number; n_left_out: number };
  averaging_bias: {
    mean_ge_min: boolean | null;
    below_threshold: boolean | null;
    holds: boolean | null;
    threshold: number | null;
  };
  brier: number;
  ece: number;
  corrected_unfaithful_rate: number;
}

type Expected = {
  n_summaries: number;
  n_sentences: number;
  p_hat: number;
  epsilon0_status: string;
  judges: Record<string, ExpectedJudge>;
  composition: Record<'human' | 'judges_all' | 'judges_annotated', [number, number, number, number]>;
  suspicious: { pool: number; after_fragment_filter: number; listed: unknown[] };
  epsilon_bar: number;
};

const fixture = loadWorkedExample<Expected>();

const dataset = datasetFromFixture(fixture);
const result = analyzeDataset(dataset, fixture.settings);
const j1 = result.judges.J1!;
const j2 = result.judges.J2!;

describe('worked example: counts and the human sample', () => {
  it('scope', () => {
    // e has one sentence: left out. a, b, c, d: 3 + 2 + 3 + 2 = 10 sentences.
    expect(result).toMatchObject({
      n_summaries: 4,
      n_sentences: 10,
      n_summaries_total: 5,
      n_single_sentence_left_out: 1,
      n_without_global_label: 0,
    });
    // Annotated: a, b, c (8 units). Usable: a0 F, a1 U, b0 F, c0 U, c1 F, c2 U = 6 (3 F, 3 U);
    // a2 unclear; b1 unresolved (ann1 F, ann2 U). The review label on a1 does not count.
    expect(result.human).toEqual({
      n_annotated_summaries: 3,
      n_units: 8,
      n_usable: 6,
      n_faithful: 3,
      n_unfaithful: 3,
      n_unclear: 1,
      n_unresolved: 1,
      n_unlabeled: 0,
    });
  });

  it('p̂ = 3/6', () => {
    expect(result.p_hat).toBe(0.5);
    expect(result.p_hat_estimate).toEqual({
      value: 0.5,
      ci: null,
      n: 6,
      replicates_dropped: 0,
      too_few: true,
      n_summaries: 3,
    });
  });

  it('ε̂, confusion (unfaithful = positive), recall and specificity', () => {
    // J1 vs human: a0 1/F TN, a1 0/U TP, b0 1/F TN, c0 0/U TP, c1 1/F TN, c2 1/U FN → 1 error in 6.
    expect(j1.epsilon_hat).toEqual({
      value: 1 / 6,
      ci: null,
      n: 6,
      replicates_dropped: 0,
      too_few: true,
      n_summaries: 3,
    });
    expect(j1.confusion).toEqual({ positive_class: 'unfaithful', tp: 2, fp: 0, tn: 3, fn: 1, n: 6 });
    expect(j1.recall).toEqual({ value: 2 / 3, n: 3 });
    expect(j1.specificity).toEqual({ value: 1, n: 3 });
    // J2: a0 1/F TN, a1 0/U TP, b0 0/F FP, c0 0/U TP, c1 0/F FP, c2 0/U TP → 2 errors in 6.
    expect(j2.epsilon_hat.value).toBe(2 / 6);
    expect(j2.confusion).toEqual({ positive_class: 'unfaithful', tp: 3, fp: 2, tn: 1, fn: 0, n: 6 });
    expect(j2.recall).toEqual({ value: 1, n: 3 });
    expect(j2.specificity).toEqual({ value: 1 / 3, n: 3 });
  });

  it('ε₀: p̂ = ½ with lengths {3, 2, 3, 2} has no root (unconditional)', () => {
    // Reference: the NumPy transcription of App. A.4 (test/unit/stats/epsilon0.test.ts): the gap
    // stays ≥ 0.0038 on the whole grid. (With all lengths 2 it would be (3 − √6)/2; see analysis-edge-cases.)
    expect(result).toMatchObject({
      epsilon0: null,
      epsilon0_status: 'unconditional',
      epsilon0_reason: null,
      epsilon0_n_summaries: 4,
    });
  });
});

describe('worked example: correlations with the global label (Y = a 1, b 1, c 0, d 0)', () => {
  // Every value below was derived by hand and checked with SciPy 1.17.1 (pearsonr, spearmanr,
  // kendalltau; AUC = mannwhitneyu(pos, neg).statistic / (n₊n₋)).
  const close = (value: number | null, expected: number | null) =>
    expected === null ? expect(value).toBeNull() : expect(value).toBeCloseTo(expected, 12);
  const check = (
    cell: {
      pearson: { value: number | null };
      spearman: { value: number | null };
      kendall: { value: number | null };
      roc_auc: { value: number | null };
    },
    expected: (number | null)[],
  ) => {
    close(cell.pearson.value, expected[0]!);
    close(cell.spearman.value, expected[1]!);
    close(cell.kendall.value, expected[2]!);
    close(cell.roc_auc.value, expected[3]!);
  };

  it('J1 hard (all four summaries)', () => {
    const hard = j1.correlations.hard;
    expect(hard.min).toMatchObject({ n: 4, n_left_out: 0, n_faithful: 2, n_unfaithful: 2 });
    // min = (0, 1, 0, 0): phi = (E[xy] − E[x]E[y]) / √(Var x Var y) = (¼ − ⅛)/√(3/16 · ¼) = 1/√3 for all three;
    // AUC: b beats c and d, a ties c and d → (1 + 1 + ½ + ½)/4 = 0.75.
    check(hard.min, [1 / Math.sqrt(3), 1 / Math.sqrt(3), 1 / Math.sqrt(3), 0.75]);
    // mean = (1/3, 1, 2/3, 1/2) = (4, 12, 8, 6)/12, mean 7.5/12: deviations (−3.5, 4.5, 0.5, −1.5)/12,
    // Σd(y − ȳ) = ½(−3.5 + 4.5 − 0.5 + 1.5)/12 = 1/12, Σd² = 35/144, Σ(y − ȳ)² = 1 → r = 1/√35.
    // Ranks (1, 4, 3, 2): Σd(y − ȳ) = ½(−1.5 + 1.5 − 0.5 + 0.5) = 0 → ρ = 0. Pairs across classes:
    // b > c, b > d concordant; a < c, a < d discordant → τ-b = 0, AUC = 2/4.
    check(hard.mean, [1 / Math.sqrt(35), 0, 0, 0.5]);
    // max = (1, 1, 1, 1): constant → undefined correlations, AUC ½.
    check(hard.max, [null, null, null, 0.5]);
  });

  it('J2 hard: d is left out (no prediction for its second sentence)', () => {
    const hard = j2.correlations.hard;
    expect(hard.min).toMatchObject({ n: 3, n_left_out: 1, n_faithful: 2, n_unfaithful: 1 });
    // min = (0, 0, 0): constant.
    check(hard.min, [null, null, null, 0.5]);
    // mean = (1/3, 0, 0) vs (1, 1, 0): d = (2, −1, −1)/9, e = (1, 1, −2)/3: Σde = 3/27, Σd² = 6/81, Σe² = 6/9
    // → r = (1/9)/√(4/81) = ½. Ranks (3, 1.5, 1.5) vs (2.5, 2.5, 1): ρ = 0.75/1.5 = ½. τ-b: one
    // concordant pair (a, c), n0 = 3, one x tie (b, c), one y tie (a, b) → 1/√(2·2) = ½.
    // AUC: a beats c (1), b ties c (½) → 1.5/2.
    check(hard.mean, [0.5, 0.5, 0.5, 0.75]);
    // max = (1, 0, 0): the same ordering as mean → the same values.
    check(hard.max, [0.5, 0.5, 0.5, 0.75]);
  });

  it('J1 soft', () => {
    const soft = j1.correlations.soft!;
    // min = (.25, .625, .125, .25), mean .3125: d = (−.0625, .3125, −.1875, −.0625), Σd(y − ȳ) = .25,
    // Σd² = .140625 → r = .25/.375 = 2/3. Ranks (2.5, 4, 1, 2.5): Σd(y − ȳ) = 1.5, Σd² = 4.5 → 1/√2.
    // τ-b: 3 concordant ((a,c), (b,c), (b,d)), n1 = 1 (a, d), n2 = 2 → 3/√(5·4) = 3/√20.
    // AUC: a > c, a = d, b > c, b > d → 3.5/4.
    check(soft.min, [2 / 3, 1 / Math.SQRT2, 3 / Math.sqrt(20), 0.875]);
    // mean = (1/2, 11/16, 13/24, 9/16) = (24, 33, 26, 27)/48: d = (−3.5, 5.5, −1.5, −.5)/48,
    // Σd(y − ȳ) = 2/48, Σd² = 45/2304 → r = 2/√45. Ranks (1, 4, 2, 3) → ρ = 0; τ = 0; AUC ½.
    check(soft.mean, [2 / Math.sqrt(45), 0, 0, 0.5]);
    // max = (.875, .75, .875, .875): two values → all three equal phi = −1/√3; AUC: a ties c and d,
    // b loses to both → 1/4.
    check(soft.max, [-1 / Math.sqrt(3), -1 / Math.sqrt(3), -1 / Math.sqrt(3), 0.25]);
  });

  it('J2 soft (d left out)', () => {
    const soft = j2.correlations.soft!;
    expect(soft.min).toMatchObject({ n: 3, n_left_out: 1 });
    // min = (.125, .375, .25): d = (−.125, .125, 0), e = (1, 1, −2)/3 → Σde = 0 → r = 0, ρ = 0, τ = 0;
    // AUC: a < c, b > c → ½.
    check(soft.min, [0, 0, 0, 0.5]);
    // mean = (5/12, 13/32, 7/24) and max = (.75, .4375, .375): both order a > b > c.
    // Ranks (3, 2, 1) vs (2.5, 2.5, 1): ρ = 1.5/√(2·1.5) = √3/2; τ-b = 2/√(3·2); AUC = 1.
    // Pearson (SciPy): mean 0.9971764649527379, max 0.6286185570937123.
    check(soft.mean, [0.9971764649527379, Math.sqrt(3) / 2, 2 / Math.sqrt(6), 1]);
    check(soft.max, [0.6286185570937123, Math.sqrt(3) / 2, 2 / Math.sqrt(6), 1]);
  });

  it('mean − min differences', () => {
    expect(j1.correlations.hard.mean_minus_min.pearson.value).toBeCloseTo(1 / Math.sqrt(35) - 1 / Math.sqrt(3), 12);
    expect(j1.correlations.hard.mean_minus_min.roc_auc.value).toBeCloseTo(0.5 - 0.75, 12);
    // min undefined → the difference is undefined.
    expect(j2.correlations.hard.mean_minus_min.pearson.value).toBeNull();
  });

  it('averaging-bias verdict', () => {
    // J1: mean (0.169) < min (0.577) → no. ε₀ unconditional → threshold ½, 1/6 < ½. No interval (bootstrap 0).
    expect(j1.averaging_bias).toEqual({
      mean_ge_min: false,
      below_threshold: true,
      below_threshold_at_upper_ci: null,
      holds: false,
      holds_at_upper_ci: false,
      threshold: 0.5,
    });
    // J2: min is undefined → the first condition cannot be judged.
    expect(j2.averaging_bias).toEqual({
      mean_ge_min: null,
      below_threshold: true,
      below_threshold_at_upper_ci: null,
      holds: null,
      holds_at_upper_ci: null,
      threshold: 0.5,
    });
  });
});

describe('worked example: composition, suspicious, disagreements', () => {
  it('composition', () => {
    // Humans, usable labels: a (F, U) mixed, b (F) all faithful, c (U, F, U) mixed.
    expect(result.composition.human).toEqual({
      all_faithful: 1 / 3,
      mixed: 2 / 3,
      all_unfaithful: 0,
      n: 3,
      counts: { all_faithful: 1, mixed: 2, all_unfaithful: 0 },
    });
    // Judge majority (tie → unfaithful): a (1, 0, 0) mixed; b (tie 1/0 → 0, tie → 0) all unfaithful;
    // c (0, tie → 0, tie → 0) all unfaithful; d (1, J1 alone 0) mixed.
    expect(result.composition.judges.all).toEqual({
      all_faithful: 0,
      mixed: 0.5,
      all_unfaithful: 0.5,
      n: 4,
      counts: { all_faithful: 0, mixed: 2, all_unfaithful: 2 },
    });
    expect(result.composition.judges.annotated).toEqual({
      all_faithful: 0,
      mixed: 1 / 3,
      all_unfaithful: 2 / 3,
      n: 3,
      counts: { all_faithful: 0, mixed: 1, all_unfaithful: 2 },
    });
  });

  it('suspicious pool and review list', () => {
    // Global 1: a, b. a: both judges flag s1 and s2 → suspicious; b: J1 flags nothing → not.
    // Flagged by all in a: s1 (8 word tokens) and s2 ("It passed.", 2 tokens → fragment, removed).
    expect(result.suspicious).toEqual({
      pool: 1,
      share_of_faithful: { value: 0.5, n: 2 },
      after_fragment_filter: 1,
      cap: 25,
      listed: [{ summary_id: 'a', doc_id: 'd1', flagged_sentences: [1], review_labels: ['unfaithful'] }],
      review: {
        pool: 1,
        reviewed_summaries: 1,
        flagged_sentences: 1,
        unfaithful: 1,
        faithful: 0,
        unclear: 0,
        not_reviewed: 0,
        pct_unfaithful: { value: 1, n: 1 },
      },
    });
  });

  it('disagreement lists', () => {
    expect(result.disagreements.human_vs_judge.J1).toEqual([
      { summary_id: 'c', doc_id: 'd3', sentence: 2, human: 'unfaithful', judge: 1 },
    ]);
    expect(result.disagreements.human_vs_judge.J2).toEqual([
      { summary_id: 'b', doc_id: 'd2', sentence: 0, human: 'faithful', judge: 0 },
      { summary_id: 'c', doc_id: 'd3', sentence: 1, human: 'faithful', judge: 0 },
    ]);
    // Split (annotated summaries): b0, b1, c1, c2 (J1 says 1, J2 says 0). d1 has J1 only: no split.
    expect(result.disagreements.judges_split.map((s) => `${s.summary_id}${s.sentence}`)).toEqual([
      'b0',
      'b1',
      'c1',
      'c2',
    ]);
    expect(result.disagreements.judges_split[1]).toEqual({
      summary_id: 'b',
      doc_id: 'd2',
      sentence: 1,
      human: null,
      faithful_judges: ['J1'],
      unfaithful_judges: ['J2'],
    });
    expect(result.disagreements.n_judges_split_all).toBe(4);
  });
});

describe('worked example: calibration, corrected rate, hidden bias', () => {
  it('calibration of soft labels', () => {
    // J1 on usable units (p, o): (.875,1) (.25,0) (.75,1) (.125,0) (.875,1) (.625,0).
    // Brier = (.015625 + .0625 + .0625 + .015625 + .015625 + .390625)/6 = .5625/6 = 0.09375.
    // ECE: bin 8 {.875, .875} |.875 − 1| = .125 (×2); bin 2 .25; bin 7 .25; bin 1 .125; bin 6 .625
    // → (0.25 + 0.25 + 0.25 + 0.125 + 0.625)/6 = 1.5/6 = 0.25.
    expect(j1.calibration!.brier).toEqual({ value: 0.09375, ci: null, n: 6, replicates_dropped: 0, too_few: true });
    expect(j1.calibration!.ece.value).toBeCloseTo(0.25, 14);
    expect(j1.calibration!.bins[8]).toEqual({
      lower: 0.8,
      upper: 0.9,
      mean_predicted: 0.875,
      observed_frequency: 1,
      count: 2,
    });
    // J2: (.75,1) (.375,0) (.4375,1) (.25,0) (.375,1) (.25,0): Brier = 1.03515625/6;
    // ECE: bin 7 .25; bin 3 {.375,.375} obs .5 → .125 ×2; bin 4 .5625; bin 2 {.25,.25} obs 0 → .25 ×2 → 1.5625/6.
    expect(j2.calibration!.brier.value).toBeCloseTo(1.03515625 / 6, 14);
    expect(j2.calibration!.ece.value).toBeCloseTo(1.5625 / 6, 14);
  });

  it('Rogan–Gladen corrected rate of unfaithful sentences', () => {
    // J1 on all analysed sentences: 10 judged, 4 called unfaithful → q = 0.4; Se = 2/3, Sp = 1 →
    // (0.4 + 1 − 1)/(2/3 + 1 − 1) = 0.6.
    expect(j1.corrected_unfaithful_rate.observed).toEqual({ value: 0.4, n: 10 });
    expect(j1.corrected_unfaithful_rate.value).toBeCloseTo(0.6, 14);
    // J2: 9 judged (d1 missing), 7 unfaithful → q = 7/9; Se = 1, Sp = 1/3 → (7/9 − 2/3)/(1/3) = 1/3.
    expect(j2.corrected_unfaithful_rate.observed).toEqual({ value: 7 / 9, n: 9 });
    expect(j2.corrected_unfaithful_rate.value).toBeCloseTo(1 / 3, 14);
    expect(j2.corrected_unfaithful_rate).toMatchObject({ n: 9, n_human_summaries: 3, n_pool_summaries: 4 });
  });

  it('hidden-bias simulation inputs', () => {
    // ε̄ = (1/6 + 2/6)/2 = 1/4; lengths {3, 2, 3, 2} repeated to 20,000 summaries.
    const hidden = result.hidden_bias!;
    expect(hidden.p_hat).toBe(0.5);
    expect(hidden.epsilon_bar).toBeCloseTo(0.25, 15);
    expect(hidden.n_judges_averaged).toBe(2);
    expect(hidden.n_simulated_summaries).toBe(20_000);
    expect(hidden.points.map((p) => p.y)).toEqual(Array.from({ length: 21 }, (_, i) => i / 20));
    // y = 0: labels follow the min rule, so a perfect judge's min equals the label: ρ(Y, min) = 1.
    expect(hidden.points[0]!.perfect.rho_min).toBeCloseTo(1, 12);
  });

  it('the same numbers through analyzeProject, and a readable report', () => {
    const report = analyzeProject([dataset], fixture.settings);
    expect(report.datasets[0]).toEqual(result);
    const markdown = renderMarkdown(report);
    expect(markdown).toContain('## worked-example');
    // Table 2 layout: J1 hard min 0.58 is higher than mean 0.17 → bold.
    expect(markdown).toContain(
      '| J1 | **0.58 (n = 4, too few for an interval)** | 0.17 (n = 4, too few for an interval) |',
    );
    expect(markdown).toContain('| d1 | a | 1 | unfaithful |');
  });
});

describe('worked example: the expected block of the fixture (for end-to-end runs) agrees with the analysis', () => {
  const expected = fixture.expected;
  const close = (value: number | null, want: number | null) =>
    want === null ? expect(value).toBeNull() : expect(value).toBeCloseTo(want, 12);

  it('every listed figure', () => {
    expect(result.n_summaries).toBe(expected.n_summaries);
    expect(result.n_sentences).toBe(expected.n_sentences);
    expect(result.p_hat).toBe(expected.p_hat);
    expect(result.epsilon0_status).toBe(expected.epsilon0_status);
    for (const [judge, want] of Object.entries(expected.judges)) {
      const got = result.judges[judge]!;
      close(got.epsilon_hat.value, want.epsilon_hat);
      expect(got.confusion).toMatchObject(want.confusion);
      close(got.recall.value, want.recall);
      close(got.specificity.value, want.specificity);
      for (const kind of ['hard', 'soft'] as const) {
        const cells = got.correlations[kind]!;
        expect(cells.min).toMatchObject({ n: want[kind].n, n_left_out: want[kind].n_left_out });
        for (const aggregator of ['min', 'mean', 'max'] as const) {
          const c = cells[aggregator];
          [c.pearson, c.spearman, c.kendall, c.roc_auc].forEach((estimate, s) =>
            close(estimate.value, want[kind][aggregator][s]!),
          );
        }
      }
      expect(got.averaging_bias).toMatchObject(want.averaging_bias);
      close(got.calibration!.brier.value, want.brier);
      close(got.calibration!.ece.value, want.ece);
      close(got.corrected_unfaithful_rate.value, want.corrected_unfaithful_rate);
    }
    const composition = (c: {
      all_faithful: number | null;
      mixed: number | null;
      all_unfaithful: number | null;
      n: number;
    }) => [c.all_faithful, c.mixed, c.all_unfaithful, c.n];
    composition(result.composition.human).forEach((v, i) => close(v, expected.composition.human[i]!));
    composition(result.composition.judges.all).forEach((v, i) => close(v, expected.composition.judges_all[i]!));
    composition(result.composition.judges.annotated).forEach((v, i) =>
      close(v, expected.composition.judges_annotated[i]!),
    );
    expect(result.suspicious).toMatchObject(expected.suspicious);
    close(result.hidden_bias!.epsilon_bar, expected.epsilon_bar);
  });
});
