/**
 * p̂_PP's rules on hand-built inputs (shared/analysis/prediction-powered.ts, sample-design.ts):
 * each refusal the sampling records can call for, the judge that shares no unit with the sample,
 * "too few to estimate" (under 5 sampled summaries: the value, no interval), no replicates, and
 * the estimator's value on a case small enough to add up by hand. The project-level cases
 * (through the core and the database) are in prediction-powered-project.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { analyzeDataset, type AnalysisDataset, type AllUnitsJudge } from '../../../shared/analysis';
import { SAMPLING_ALGORITHM, drawSample } from '../../../shared/sampling';
import { SEEDED_NAME as NAME, seededDataset as dataset } from '../../helpers/prediction-powered';
import { percentileInterval } from '../../../shared/stats/bootstrap';
import { createStream } from '../../../shared/stats/prng';

const judge = (d: AnalysisDataset, name: string, bootstrap = 200): AllUnitsJudge =>
  analyzeDataset(d, { bootstrap, seed: 0 }).all_units.judges[name]!;

describe('p̂_PP by hand', () => {
  it('6 of 10 summaries sampled, 2 unfaithful of 12 sampled sentences, J calls all 20 faithful: 1 + 10/12 − 1 = 10/12', () => {
    const j = judge(dataset(10, 6), 'J');
    expect(j.p_pp).toMatchObject({
      n_sampled_units: 12,
      n_all_units: 20,
      judge_rate: 1,
      same_as_p_hat: false,
      too_few: false,
    });
    expect(j.p_pp!.value).toBeCloseTo(10 / 12, 12);
    expect(j.p_pp!.rectifier).toBeCloseTo(10 / 12 - 1, 12);
    expect(j.p_pp!.ci).not.toBeNull();
  });

  it('a judge with no label on a sampled sentence has nothing to correct with: refused with the reason', () => {
    const z = judge(dataset(10, 6), 'Z');
    expect(z).toMatchObject({
      p_pp: null,
      p_pp_reason: 'No sampled unit has both a usable human label and a hard label of this judge.',
    });
  });

  it('under 5 sampled summaries: the value without an interval (too few to estimate)', () => {
    const j = judge(dataset(10, 4), 'J');
    expect(j.p_pp).toMatchObject({ ci: null, too_few: true, width_ratio: null, n_sampled_summaries: 4 });
    expect(j.p_pp!.value).toBeCloseTo(1 + 6 / 8 - 1, 12);
  });

  it('no replicates: no interval, not "too few"', () => {
    expect(judge(dataset(10, 6), 'J', 0).p_pp).toMatchObject({ ci: null, too_few: false, width_ratio: null });
  });
});

describe('the two-sample bootstrap', () => {
  it('equals a plain loop over both resamples, summary by summary (the grouped pool sums are exact)', () => {
    const d = dataset(40, 12);
    const noise = createStream(5, 'loupe-test', 'judge-noise');
    for (const summary of d.summaries)
      for (const unit of summary.units)
        (unit.judges as Record<string, unknown>).J = { hard: noise.nextBernoulli(0.7) ? 1 : 0, soft: null };
    const report = analyzeDataset(d, { bootstrap: 300, seed: 2 });
    const pp = report.all_units.judges.J!.p_pp!;
    // By hand: the same streams, every replicate's p̂_PP from the expanded counts.
    const stream = (purpose: string) => createStream(2, 'loupe-analysis-v1', d.name, purpose);
    const human = stream('human-sample');
    const pool = stream('prediction-powered/pool');
    const annotated = d.summaries.filter((s) => s.annotated);
    const hw = new Int32Array(annotated.length);
    const pw = new Int32Array(d.summaries.length);
    const replicates: number[] = [];
    for (let r = 0; r < 300; r += 1) {
      human.fillResampleCounts(hw);
      pool.fillResampleCounts(pw);
      let y = 0;
      let fLab = 0;
      let nLab = 0;
      annotated.forEach((summary, i) => {
        for (const unit of summary.units) {
          y += hw[i]! * (unit.human === 'faithful' ? 1 : 0);
          fLab += hw[i]! * unit.judges.J!.hard!;
          nLab += hw[i]!;
        }
      });
      let fAll = 0;
      let nAll = 0;
      d.summaries.forEach((summary, i) => {
        for (const unit of summary.units) {
          fAll += pw[i]! * unit.judges.J!.hard!;
          nAll += pw[i]!;
        }
      });
      replicates.push(fAll / nAll + y / nLab - fLab / nLab);
    }
    expect(pp.ci).toEqual(percentileInterval(replicates).ci);
  });
});

describe('refused unless the people labeled one uniform seeded draw', () => {
  const reason = (d: AnalysisDataset) => judge(d, 'J').p_pp_reason;
  /** The annotated summaries in draw (rank) order. */
  const drawn = (d: AnalysisDataset) =>
    drawSample(
      NAME,
      d.summaries.filter((s) => s.annotated),
      100,
      0,
    ).map((s) => s.summaryId);

  it.each([
    [
      'no sampling records in the input',
      dataset(10, 6, { draws: 'none' }),
      /^The analysis input does not say how the human sample was drawn/,
    ],
    [
      'no draw at all',
      dataset(10, 6, { draws: { draws: [] } }),
      /^No sample was drawn from this dataset in this project/,
    ],
    [
      'the labels come from an imported label set',
      dataset(10, 6, { kind: 'imported' }),
      /^The human reference includes imported label sets \(alice\)/,
    ],
    ['whose labels is unknown', dataset(10, 6, { kind: null }), /annotator kinds unknown/],
  ])('%s', (_name, d, expected) => {
    expect(reason(d)).toMatch(expected);
    expect(judge(d, 'J').p_pp).toBeNull();
  });

  it("a draw by another algorithm, draws with two seeds, a sample that is not the ranking's first n, labels outside the draws", () => {
    const base = dataset(10, 6);
    const ids = drawn(base);
    const withDraws = (draws: NonNullable<AnalysisDataset['sampling']>['draws']): AnalysisDataset => ({
      ...base,
      sampling: { draws },
    });
    expect(reason(withDraws([{ batch: 1, seed: 0, algorithm: 'shuffle-v0', summaryIds: ids }]))).toBe(
      'Draw 1 used shuffle-v0, not hash-rank-v1.',
    );
    expect(
      reason(
        withDraws([
          { batch: 1, seed: 0, algorithm: SAMPLING_ALGORITHM, summaryIds: ids.slice(0, 3) },
          { batch: 2, seed: 4, algorithm: SAMPLING_ALGORITHM, summaryIds: ids.slice(3) },
        ]),
      ),
    ).toMatch(/^The sample was drawn in several draws with different seeds \(0, 4\)/);
    // The same six summaries claimed as a seed-9 draw: not that seed's first six.
    expect(reason(withDraws([{ batch: 1, seed: 9, algorithm: SAMPLING_ALGORITHM, summaryIds: ids }]))).toMatch(
      /^The draws \(6 summaries\) are not the first 6 of the seed-9 ranking of the dataset’s 10 summaries/,
    );
    // Only five of the six annotated summaries were drawn here.
    expect(
      reason(withDraws([{ batch: 1, seed: 0, algorithm: SAMPLING_ALGORITHM, summaryIds: ids.slice(0, 5) }])),
    ).toMatch(/^1 annotated summary lies outside this project’s draws/);
    // Two draws with one seed continue one ranking: accepted, and drawn-but-unlabeled summaries are counted.
    const more = drawSample(NAME, base.summaries, 8, 0).map((s) => s.summaryId);
    const continued = judge(
      withDraws([
        { batch: 1, seed: 0, algorithm: SAMPLING_ALGORITHM, summaryIds: ids },
        { batch: 2, seed: 0, algorithm: SAMPLING_ALGORITHM, summaryIds: more.slice(6) },
      ]),
      'J',
    );
    expect(continued.p_pp).toMatchObject({ n_drawn_summaries: 8, n_sampled_summaries: 6, sample_seed: 0 });
  });

  it('no annotated summary yet', () => {
    expect(reason(dataset(10, 0, { draws: { draws: [] } }))).toMatch(/^No annotated summary yet/);
  });
});
