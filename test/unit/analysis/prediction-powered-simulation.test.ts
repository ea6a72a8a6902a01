/**
 * p̂_PP on synthetic data with a known p (PROTOCOL "Prediction-powered estimates"): 400 seeded
 * trials, each a fresh dataset of 300 summaries (1 to 6 sentences) whose sentences are faithful
 * with probability p = 0.8, a judge that flips each sentence's label with probability 0.05, and
 * people's labels on a seeded hash-rank draw of 40 summaries. The two-sample bootstrap interval
 * of p̂_PP (the code analyzeDataset runs, 1,000 replicates) must cover p in at least 93% of the
 * trials and be narrower than p̂'s on the same sample. Deterministic: every number comes from
 * seeded streams.
 */
import { describe, expect, it } from 'vitest';
import { allUnitsWithPredictionPowered } from '../../../shared/analysis/prediction-powered';
import { referenceReport } from '../../../shared/analysis/reference';
import type { AnalysisDataset, AnalysisSummary } from '../../../shared/analysis';
import { createStream } from '../../../shared/stats/prng';
import { SAMPLING_ALGORITHM, drawSample } from '../../../shared/sampling';

const P = 0.8;
const JUDGE_ERROR = 0.05;
const SUMMARIES = 300;
const SAMPLE = 40;
const TRIALS = 400;
const REPLICATES = 1000;

/** One trial's dataset: the truth of every sentence, a judge of known error, people on a seeded draw. */
function trialDataset(trial: number): { dataset: AnalysisDataset; sampled: string[] } {
  const rng = createStream(trial, 'loupe-test', 'prediction-powered-simulation');
  const ids = Array.from({ length: SUMMARIES }, (_, g) => ({ summaryId: `s${String(g).padStart(3, '0')}` }));
  const sampled = drawSample('sim', ids, SAMPLE, trial).map((s) => s.summaryId);
  const inSample = new Set(sampled);
  const summaries: AnalysisSummary[] = ids.map(({ summaryId }, g) => {
    const annotated = inSample.has(summaryId);
    const units = Array.from({ length: 1 + (g % 6) }, (_, index) => {
      const faithful = rng.nextBernoulli(P);
      const judge = rng.nextBernoulli(JUDGE_ERROR) ? !faithful : faithful;
      const label = faithful ? ('faithful' as const) : ('unfaithful' as const);
      return {
        index,
        text: `Sentence ${index}.`,
        human: annotated ? label : null,
        humanStatus: annotated ? ('single' as const) : ('none' as const),
        ...(annotated ? { ratings: { ann: label } } : {}),
        judges: { J: { hard: judge ? (1 as const) : (0 as const), soft: null } },
      };
    });
    return { summaryId, docId: `d${g}`, globalLabel: null, annotated, units };
  });
  const dataset: AnalysisDataset = {
    name: 'sim',
    judges: ['J'],
    summaries,
    reference: {
      set: 'people',
      rule: 'unanimous',
      includeRevealed: false,
      kinds: { ann: 'person' },
      nLabelsOutside: 0,
      nAnnotatorsOutside: 0,
      nLabelsRevealed: 0,
    },
    sampling: { draws: [{ batch: 1, seed: trial, algorithm: SAMPLING_ALGORITHM, summaryIds: sampled }] },
  };
  return { dataset, sampled };
}

describe('p̂_PP with a judge of 5% error: coverage and width over 400 seeded samples', () => {
  it('covers p in ≥ 93% of samples and is narrower than p̂', () => {
    let coveredPp = 0;
    let coveredPHat = 0;
    let narrower = 0;
    let widthPp = 0;
    let widthPHat = 0;
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const { dataset } = trialDataset(trial);
      const reference = referenceReport(dataset, { set: 'people', rule: 'unanimous', includeRevealed: false });
      const allUnits = allUnitsWithPredictionPowered(dataset, reference, REPLICATES, (purpose) =>
        createStream(trial, 'loupe-analysis-v1', dataset.name, purpose),
      );
      const pp = allUnits.judges.J!.p_pp!;
      const pHat = allUnits.p_hat.ci!;
      expect(pp.same_as_p_hat).toBe(false);
      const ci = pp.ci!;
      if (ci[0] <= P && P <= ci[1]) coveredPp += 1;
      if (pHat[0] <= P && P <= pHat[1]) coveredPHat += 1;
      if (pp.width_ratio! < 1) narrower += 1;
      widthPp += ci[1] - ci[0];
      widthPHat += pHat[1] - pHat[0];
    }
    const figures = {
      coverage_pp: coveredPp / TRIALS,
      coverage_p_hat: coveredPHat / TRIALS,
      mean_width_pp: widthPp / TRIALS,
      mean_width_p_hat: widthPHat / TRIALS,
      narrower_share: narrower / TRIALS,
    };
    process.stdout.write(`prediction-powered simulation: ${JSON.stringify(figures)}\n`);
    expect(figures.coverage_pp).toBeGreaterThanOrEqual(0.93);
    expect(figures.mean_width_pp).toBeLessThan(figures.mean_width_p_hat);
    expect(figures.narrower_share).toBeGreaterThanOrEqual(0.95);
  });
});
