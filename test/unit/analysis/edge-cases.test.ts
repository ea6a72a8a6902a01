import { describe, expect, it } from 'vitest';
import {
  AnalysisInputError,
  analyzeDataset,
  analyzeProject,
  renderMarkdown,
  resolveHumanLabel,
} from '../../../shared/analysis';
import type { AnalysisDataset, AnalysisSummary, AnalysisUnit, JudgePrediction } from '../../../shared/analysis';
import type { HumanLabel } from '../../../shared/domain';

const LONG = 'This sentence has more than five words.';

function unit(
  index: number,
  human: HumanLabel | null,
  judges: Record<string, JudgePrediction>,
  text = LONG,
): AnalysisUnit {
  return { index, text, human, humanStatus: human === null ? 'none' : 'single', judges };
}

function hard(...values: (0 | 1 | null)[]): Record<string, JudgePrediction>[] {
  return values.map((h) => ({ j: { hard: h, soft: null } }));
}

function summary(id: string, globalLabel: 0 | 1 | null, units: AnalysisUnit[], docId = `doc-${id}`): AnalysisSummary {
  return { summaryId: id, docId, globalLabel, units, annotated: units.some((u) => u.humanStatus !== 'none') };
}

describe('resolveHumanLabel', () => {
  it('follows the rule: adjudicated, else single or unanimous, else unresolved', () => {
    expect(resolveHumanLabel({})).toEqual({ label: null, status: 'none' });
    expect(resolveHumanLabel({ ana: 'faithful' })).toEqual({ label: 'faithful', status: 'single' });
    expect(resolveHumanLabel({ ana: 'unclear', ben: 'unclear' })).toEqual({ label: 'unclear', status: 'agreed' });
    expect(resolveHumanLabel({ ana: 'faithful', ben: 'unclear' })).toEqual({ label: null, status: 'disagreement' });
    expect(resolveHumanLabel({ ana: 'faithful', ben: 'unfaithful' }, 'unfaithful')).toEqual({
      label: 'unfaithful',
      status: 'adjudicated',
    });
    expect(resolveHumanLabel({}, 'faithful')).toEqual({ label: 'faithful', status: 'adjudicated' });
    expect(
      resolveHumanLabel(
        new Map([
          ['ana', 'faithful' as const],
          ['ben', 'faithful' as const],
        ]),
        null,
      ),
    ).toEqual({ label: 'faithful', status: 'agreed' });
  });
});

describe('ε₀ inside a dataset and the verdict', () => {
  // Four two-sentence summaries, each (F, U) by the human: p̂ = ½, all lengths 2 →
  // ε₀ = (3 − √6)/2 ≈ 0.27526 (derived in stats-epsilon0.test.ts).
  const build = (errors: number, copies = 1): AnalysisDataset => {
    let made = 0;
    const flip = (v: 0 | 1): 0 | 1 => (made++ < errors * copies ? ((1 - v) as 0 | 1) : v);
    return {
      name: 'pairs',
      judges: ['j'],
      summaries: Array.from({ length: 4 * copies }, (_, g) => g).map((g) =>
        summary(`s${g}`, g % 2 === 0 ? 1 : 0, [
          unit(0, 'faithful', { j: { hard: flip(1), soft: null } }),
          unit(1, 'unfaithful', { j: { hard: flip(0), soft: null } }),
        ]),
      ),
    };
  };

  it('a root, and ε̂ compared strictly', () => {
    const two = analyzeDataset(build(2), { bootstrap: 0, seed: 0, cap: 25 }); // ε̂ = 2/8
    expect(two.epsilon0_status).toBe('root');
    expect(two.epsilon0).toBeCloseTo((3 - Math.sqrt(6)) / 2, 13);
    expect(two.judges.j!.epsilon_hat.value).toBe(0.25);
    expect(two.judges.j!.averaging_bias.below_threshold).toBe(true);
    expect(two.judges.j!.averaging_bias.threshold).toBe(two.epsilon0);
    const three = analyzeDataset(build(3), { bootstrap: 0, seed: 0, cap: 25 }); // ε̂ = 3/8 > ε₀
    expect(three.judges.j!.averaging_bias.below_threshold).toBe(false);
    expect(three.judges.j!.averaging_bias.holds).toBe(false);
  });

  it("the verdict at the upper end of ε̂'s interval", () => {
    // Twice the four summaries (the same p̂, lengths, ε̂ and ε₀): eight resampling units, an interval.
    const result = analyzeDataset(build(2, 2), { bootstrap: 500, seed: 0, cap: 25 });
    const { epsilon_hat: epsilonHat, averaging_bias: bias } = result.judges.j!;
    expect(epsilonHat.value).toBe(0.25);
    expect(epsilonHat.ci).not.toBeNull();
    expect(bias.below_threshold_at_upper_ci).toBe(epsilonHat.ci![1] < result.epsilon0!);
    // Four summaries are too few for an interval: no verdict at its upper end.
    const four = analyzeDataset(build(2), { bootstrap: 500, seed: 0, cap: 25 }).judges.j!;
    expect(four.epsilon_hat).toMatchObject({ value: 0.25, ci: null, too_few: true });
    expect(four.averaging_bias.below_threshold_at_upper_ci).toBeNull();
  });

  it('undefined without usable human labels, or with p̂ = 1', () => {
    const unlabeled: AnalysisDataset = {
      name: 'unlabeled',
      judges: ['j'],
      summaries: [
        summary('a', 1, [unit(0, null, { j: { hard: 1, soft: 0.9 } }), unit(1, null, { j: { hard: 0, soft: 0.2 } })]),
      ],
    };
    const result = analyzeDataset(unlabeled, { bootstrap: 20, seed: 0, cap: 25 });
    expect(result).toMatchObject({ p_hat: null, epsilon0: null, epsilon0_status: 'undefined', hidden_bias: null });
    expect(result.judges.j!.epsilon_hat).toMatchObject({
      value: null,
      ci: null,
      n: 0,
      replicates_dropped: 0,
      too_few: true,
    });
    expect(result.judges.j!.averaging_bias).toMatchObject({ below_threshold: null, holds: null });
    expect(result.judges.j!.calibration).toBeNull();
    expect(result.judges.j!.recall).toEqual({ value: null, n: 0 });
    const allFaithful: AnalysisDataset = {
      name: 'all-faithful',
      judges: ['j'],
      summaries: [
        summary('a', 1, [
          unit(0, 'faithful', { j: { hard: 1, soft: null } }),
          unit(1, 'faithful', { j: { hard: 1, soft: null } }),
        ]),
      ],
    };
    expect(analyzeDataset(allFaithful, { bootstrap: 0, seed: 0, cap: 25 })).toMatchObject({
      p_hat: 1,
      epsilon0_status: 'undefined',
      epsilon0: null,
    });
  });
});

describe('undefined correlations', () => {
  it('a constant global label makes all four undefined in every replicate', () => {
    const constant: AnalysisDataset = {
      name: 'constant',
      judges: ['j'],
      summaries: [0, 1, 2, 3, 4, 5].map((g) =>
        summary(
          `s${g}`,
          1,
          hard(1, g % 3 === 0 ? 0 : 1).map((j, i) => unit(i, null, j)),
        ),
      ),
    };
    const result = analyzeDataset(constant, { bootstrap: 30, seed: 0, cap: 25 });
    const min = result.judges.j!.correlations.hard.min;
    for (const statistic of [min.pearson, min.spearman, min.kendall, min.roc_auc]) {
      expect(statistic).toEqual({ value: null, ci: null, n: 6, replicates_dropped: 30, too_few: false });
    }
    expect(result.judges.j!.correlations.soft).toBeNull();
    expect(result.judges.j!.averaging_bias.mean_ge_min).toBeNull();
  });

  it('equal mean and min correlations count as mean ≥ min', () => {
    // Every summary is all-faithful or all-unfaithful for the judge: mean = min = max per summary.
    const homogeneous: AnalysisDataset = {
      name: 'homogeneous',
      judges: ['j'],
      summaries: [0, 1, 2, 3, 4].map((g) =>
        summary(
          `s${g}`,
          g < 3 ? 1 : 0,
          hard(...((g === 1 || g === 3 ? [0, 0, 0] : [1, 1, 1]) as (0 | 1)[])).map((j, i) => unit(i, null, j)),
        ),
      ),
    };
    const result = analyzeDataset(homogeneous, { bootstrap: 0, seed: 0, cap: 25 });
    const hardCells = result.judges.j!.correlations.hard;
    expect(hardCells.mean.pearson.value).toBeCloseTo(hardCells.min.pearson.value!, 14);
    expect(result.judges.j!.averaging_bias.mean_ge_min).toBe(true);
  });
});

describe('suspicious examples', () => {
  const flagged = (...perJudge: [0 | 1 | null, 0 | 1 | null][]) =>
    perJudge.map(([a, b], i) => unit(i, null, { a: { hard: a, soft: null }, b: { hard: b, soft: null } }));

  it('pool, fragment filter, code-unit sort, cap; a missing prediction is not a flag', () => {
    const summaries: AnalysisSummary[] = [
      summary('x2', 1, flagged([0, 0], [1, 1]), 'a'), // suspicious, flagged [0]
      summary('x1', 1, flagged([1, 1], [0, 0]), 'B'), // suspicious, flagged [1]; 'B' < 'a' in code units
      summary('x3', 1, flagged([0, 1], [1, 0]), '9'), // every judge flags something, no common sentence
      summary(
        'x4',
        1,
        [
          unit(0, null, { a: { hard: 0, soft: null }, b: { hard: 0, soft: null } }, 'Too short here.'),
          ...flagged([1, 1]).map((u) => ({ ...u, index: 1 })),
        ],
        '10',
      ),
      summary('x5', 1, flagged([0, null], [1, 1]), '0'), // b has no prediction on the flagged sentence
      summary('x6', 0, flagged([0, 0], [0, 0]), '00'), // global label unfaithful
      summary('x7', 1, flagged([0, 0], [1, 1]), 'a'), // same doc as x2: then by summary id
      summary('x8', null, flagged([0, 0], [1, 1]), 'c'), // no global label
      summary('x9', 1, flagged([0, 0]), 'd'), // one sentence: not analysed
    ];
    const dataset: AnalysisDataset = { name: 'suspicious', judges: ['a', 'b'], summaries };
    const result = analyzeDataset(dataset, { bootstrap: 0, seed: 0, cap: 2 });
    // Pool: x1, x2, x3, x4, x7 (x5: b flags nothing; x6, x8, x9 out).
    expect(result.suspicious.pool).toBe(5);
    // Faithful-labeled analysed summaries: x1, x2, x3, x4, x5, x7.
    expect(result.suspicious.share_of_faithful).toEqual({ value: 5 / 6, n: 6 });
    // x3 has no sentence flagged by both; x4's only common flag is a 3-word fragment.
    expect(result.suspicious.after_fragment_filter).toBe(3);
    // Sorted by doc_id then summary_id in code-unit order: B/x1, a/x2, a/x7; capped at 2.
    expect(result.suspicious.listed.map((e) => [e.doc_id, e.summary_id, e.flagged_sentences])).toEqual([
      ['B', 'x1', [1]],
      ['a', 'x2', [0]],
    ]);
    expect(result.suspicious.review).toMatchObject({
      pool: 5,
      reviewed_summaries: 0,
      not_reviewed: 2,
      pct_unfaithful: { value: null, n: 0 },
    });
  });

  it('no judges: nothing is suspicious', () => {
    const result = analyzeDataset(
      { name: 'none', judges: [], summaries: [summary('s', 1, [unit(0, null, {}), unit(1, null, {})])] },
      { bootstrap: 0, seed: 0, cap: 25 },
    );
    expect(result.suspicious.pool).toBe(0);
    expect(result.judges).toEqual({});
    expect(result.composition.judges.all).toMatchObject({
      n: 0,
      all_faithful: null,
      mixed: null,
      all_unfaithful: null,
    });
  });

  it('review-phase labels never enter p̂ or the human composition', () => {
    const withReview: AnalysisDataset = {
      name: 'review',
      judges: ['a', 'b'],
      summaries: [
        summary(
          'r',
          1,
          flagged([0, 0], [1, 1]).map((u, i) => ({ ...u, review: i === 0 ? ('unfaithful' as const) : null })),
        ),
        summary('h', 0, [
          unit(0, 'faithful', { a: { hard: 1, soft: null } }),
          unit(1, 'faithful', { a: { hard: 1, soft: null } }),
        ]),
      ],
    };
    const result = analyzeDataset(withReview, { bootstrap: 0, seed: 0, cap: 25 });
    expect(result.p_hat).toBe(1);
    expect(result.human.n_annotated_summaries).toBe(1);
    expect(result.composition.human).toMatchObject({ n: 1, all_faithful: 1 });
    expect(result.suspicious.review).toMatchObject({
      unfaithful: 1,
      reviewed_summaries: 1,
      pct_unfaithful: { value: 1, n: 1 },
    });
  });
});

describe('input and settings', () => {
  const valid: AnalysisDataset = {
    name: 'v',
    judges: ['j'],
    summaries: [summary('s', 1, [unit(0, 'faithful', { j: { hard: 1, soft: 0.5 } }), unit(1, null, {})])],
  };

  it('refuses inconsistent input with every problem listed', () => {
    const bad: AnalysisDataset = {
      name: 'bad',
      judges: ['j', 'j'],
      summaries: [
        summary('s', 1, [
          { ...unit(0, 'faithful', { j: { hard: 1, soft: 1.5 } }), humanStatus: 'none' },
          unit(1, null, { j: { hard: 2 as 0, soft: null } }),
        ]),
        summary('s', 1, []),
      ],
    };
    try {
      analyzeDataset(bad, { bootstrap: 0, seed: 0, cap: 25 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AnalysisInputError);
      const problems = (error as AnalysisInputError).problems.join('\n');
      expect(problems).toMatch(/judge names repeat/);
      expect(problems).toMatch(/soft must be in \[0, 1\]/);
      expect(problems).toMatch(/does not fit status none/);
      expect(problems).toMatch(/hard must be 0, 1 or null/);
      expect(problems).toMatch(/summary id repeats/);
    }
  });

  it('checks settings and fills defaults', () => {
    expect(() => analyzeDataset(valid, { bootstrap: -1, seed: 0, cap: 25 })).toThrow(AnalysisInputError);
    expect(() => analyzeDataset(valid, { bootstrap: 10, seed: 0.5, cap: 25 })).toThrow(AnalysisInputError);
    expect(() => analyzeDataset(valid, { bootstrap: 10, seed: 0, cap: -1 })).toThrow(AnalysisInputError);
    expect(analyzeProject([valid], { bootstrap: 10 }).settings).toEqual({
      bootstrap: 10,
      seed: 0,
      cap: 25,
      simulation_points: 21,
      simulation_min_summaries: 20_000,
      human_label: 'unanimous',
      reference: 'both',
      include_revealed: false,
      compare_source: null,
    });
    expect(() => analyzeDataset(valid, { humanLabel: 'mode' as 'majority' })).toThrow(
      /humanLabel must be one of unanimous, majority/,
    );
    expect(() => analyzeDataset(valid, { reference: 'all' as 'both' })).toThrow(
      /reference must be one of people, imported, both/,
    );
    expect(analyzeProject([valid]).settings.bootstrap).toBe(2000);
    expect(() => analyzeProject([valid, valid], { bootstrap: 0 })).toThrow(/dataset names repeat/);
  });

  it('judge names that look like Object members are plain keys', () => {
    const odd: AnalysisDataset = {
      name: 'odd',
      judges: ['__proto__', 'constructor'],
      summaries: [0, 1, 2].map((g) =>
        summary(
          `s${g}`,
          g === 0 ? 1 : 0,
          [0, 1].map((i) =>
            unit(i, 'faithful', {
              ['__proto__']: { hard: 1, soft: null },
              constructor: { hard: ((g + i) % 2 === 0 ? 1 : 0) as 0 | 1, soft: null },
            }),
          ),
        ),
      ),
    };
    // A computed ["__proto__"] key (like JSON.parse) makes an own property, not a prototype.
    expect(Object.hasOwn(odd.summaries[0]!.units[0]!.judges, '__proto__')).toBe(true);
    const result = analyzeDataset(odd, { bootstrap: 0, seed: 0, cap: 25 });
    expect(Object.keys(result.judges)).toEqual(['__proto__', 'constructor']);
    expect(result.judges['__proto__']!.epsilon_hat.value).toBe(0);
    const constructorName: string = 'constructor';
    expect(result.judges[constructorName]!.epsilon_hat.n).toBe(6);
    expect(JSON.parse(JSON.stringify(result)).judges.constructor.epsilon_hat.n).toBe(6);
  });

  it('an empty dataset', () => {
    const result = analyzeDataset({ name: 'empty', judges: ['j'], summaries: [] }, { bootstrap: 10, seed: 0, cap: 25 });
    expect(result).toMatchObject({ n_summaries: 0, p_hat: null, epsilon0_status: 'undefined', hidden_bias: null });
    expect(result.judges.j!.correlations.hard.min.pearson).toEqual({
      value: null,
      ci: null,
      n: 0,
      replicates_dropped: 0,
      too_few: true,
    });
    expect(
      renderMarkdown(analyzeProject([{ name: 'empty', judges: ['j'], summaries: [] }], { bootstrap: 10 })),
    ).toContain('## empty');
  });
});
