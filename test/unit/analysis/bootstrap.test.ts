/**
 * The bootstrap of the analysis, re-derived the straightforward way: the same documented resample
 * streams, each resample expanded into a plain list of summaries, every statistic computed on it
 * by the reference (SciPy-checked) implementations, intervals by a plain type-7 quantile.
 * Also: determinism, seeds, and independence of the streams.
 */
import { describe, expect, it } from 'vitest';
import { analyzeDataset, analyzeProject } from '../../../shared/analysis';
import type { AnalysisDataset, AnalysisSummary, Estimate, JudgePrediction } from '../../../shared/analysis';
import { AGGREGATORS } from '../../../shared/analysis/types';
import { kendallTauB, pearson, rocAuc, spearman } from '../../../shared/stats/correlation';
import { createStream, replicateStream, type Xoshiro128StarStar } from '../../../shared/stats/prng';
import { roganGladen } from '../../../shared/stats/prevalence';

const JUDGES = ['j1', 'j2'];

function randomDataset(seed: number, size: number): AnalysisDataset {
  const rng = createStream(seed, 'bootstrap-test-data');
  const summaries: AnalysisSummary[] = Array.from({ length: size }, (_, s) => {
    const length = 1 + rng.nextInt(4); // some single-sentence summaries (left out)
    const annotated = rng.nextFloat() < 0.4;
    const faithfulSummary = rng.nextFloat() < 0.5;
    return {
      summaryId: `s${s}`,
      docId: `d${rng.nextInt(10)}`,
      globalLabel: rng.nextFloat() < 0.05 ? null : faithfulSummary ? 1 : 0,
      annotated,
      units: Array.from({ length }, (_, index) => {
        const truth = rng.nextFloat() < (faithfulSummary ? 0.9 : 0.5) ? 1 : 0;
        const judges: Record<string, JudgePrediction> = {};
        for (const judge of JUDGES) {
          if (rng.nextFloat() < 0.03) continue;
          const hard = (rng.nextFloat() < 0.2 ? 1 - truth : truth) as 0 | 1;
          judges[judge] = {
            hard,
            soft: rng.nextFloat() < 0.05 ? null : Math.round((hard * 0.6 + rng.nextFloat() * 0.4) * 16) / 16,
          };
        }
        const unclear = rng.nextFloat() < 0.1;
        return {
          index,
          text: 'A sentence of enough words here.',
          human: annotated ? (unclear ? 'unclear' : truth ? 'faithful' : 'unfaithful') : null,
          humanStatus: annotated ? ('single' as const) : ('none' as const),
          judges,
        };
      }),
    };
  });
  return { name: `random-${seed}`, summaries, judges: JUDGES };
}

/** numpy.quantile(x, q, method='linear'), written out plainly. */
function quantile7(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const h = (sorted.length - 1) * q;
  const lower = Math.floor(h);
  return lower + 1 < sorted.length
    ? sorted[lower]! + (h - lower) * (sorted[lower + 1]! - sorted[lower]!)
    : sorted[lower]!;
}

function referenceInterval(replicates: (number | null)[]): { ci: [number, number] | null; dropped: number } {
  const defined = replicates.filter((v): v is number => v !== null && !Number.isNaN(v));
  return {
    ci: defined.length === 0 ? null : [quantile7(defined, 0.025), quantile7(defined, 0.975)],
    dropped: replicates.length - defined.length,
  };
}

function resample(rng: Xoshiro128StarStar, n: number): Int32Array {
  const counts = new Int32Array(n);
  rng.fillResampleCounts(counts);
  return counts;
}

function expectInterval(estimate: Estimate, reference: { ci: [number, number] | null; dropped: number }): void {
  expect(estimate.replicates_dropped).toBe(reference.dropped);
  if (reference.ci === null) expect(estimate.ci).toBeNull();
  else {
    expect(estimate.ci![0]).toBeCloseTo(reference.ci[0], 11);
    expect(estimate.ci![1]).toBeCloseTo(reference.ci[1], 11);
  }
}

const B = 150;
const SEED = 7;
const dataset = randomDataset(3, 60);
const result = analyzeDataset(dataset, { bootstrap: B, seed: SEED, cap: 25 });
const analysed = dataset.summaries.filter((s) => s.units.length >= 2);
const annotated = analysed.filter((s) => s.annotated);
const population = analysed.filter((s) => s.globalLabel !== null);

describe('bootstrap intervals equal a straightforward re-computation', () => {
  it('correlations and mean − min differences (paired: one resample for all cells)', () => {
    // Each replicate has its own stream (seed, purpose, replicate index), so threads can split them.
    const streams = { seed: SEED, parts: ['loupe-analysis-v1', dataset.name, 'correlations'] };
    const statistics = [pearson, spearman, kendallTauB, (x: number[], y: number[]) => rocAuc(x, y)];
    type Key = string;
    const replicates = new Map<Key, (number | null)[]>();
    const aggregateOf = (
      summary: AnalysisSummary,
      judge: string,
      kind: 'hard' | 'soft',
      aggregator: string,
    ): number | null => {
      const values = summary.units.map((u) => u.judges[judge]?.[kind] ?? null);
      if (values.some((v) => v === null)) return null;
      const v = values as number[];
      return aggregator === 'min'
        ? Math.min(...v)
        : aggregator === 'max'
          ? Math.max(...v)
          : v.reduce((a, b) => a + b, 0) / v.length;
    };
    for (let r = 0; r < B; r += 1) {
      const counts = resample(replicateStream(streams, r), population.length);
      for (const judge of JUDGES) {
        for (const kind of ['hard', 'soft'] as const) {
          const perAggregator = new Map<string, (number | null)[]>();
          for (const aggregator of AGGREGATORS) {
            const x: number[] = [];
            const y: number[] = [];
            population.forEach((summary, i) => {
              const value = aggregateOf(summary, judge, kind, aggregator);
              if (value === null) return;
              for (let c = 0; c < counts[i]!; c += 1) {
                x.push(value);
                y.push(summary.globalLabel!);
              }
            });
            const values = statistics.map((statistic) => statistic(x, y));
            perAggregator.set(aggregator, values);
            values.forEach((value, s) => {
              const key = `${judge}/${kind}/${aggregator}/${s}`;
              replicates.set(key, [...(replicates.get(key) ?? []), value]);
            });
          }
          const mean = perAggregator.get('mean')!;
          const min = perAggregator.get('min')!;
          mean.forEach((value, s) => {
            const key = `${judge}/${kind}/diff/${s}`;
            const difference = value === null || min[s] === null ? null : value - min[s]!;
            replicates.set(key, [...(replicates.get(key) ?? []), difference]);
          });
        }
      }
    }
    const names = ['pearson', 'spearman', 'kendall', 'roc_auc'] as const;
    for (const judge of JUDGES) {
      for (const kind of ['hard', 'soft'] as const) {
        const cells = result.judges[judge]!.correlations[kind]!;
        for (const aggregator of AGGREGATORS) {
          names.forEach((name, s) =>
            expectInterval(
              cells[aggregator][name],
              referenceInterval(replicates.get(`${judge}/${kind}/${aggregator}/${s}`)!),
            ),
          );
        }
        names.forEach((name, s) =>
          expectInterval(cells.mean_minus_min[name], referenceInterval(replicates.get(`${judge}/${kind}/diff/${s}`)!)),
        );
      }
    }
  });

  it('p̂, ε̂, Brier and the corrected rate (human sample and judged pool resampled independently)', () => {
    const humanRng = createStream(SEED, 'loupe-analysis-v1', dataset.name, 'human-sample');
    const poolRng = createStream(SEED, 'loupe-analysis-v1', dataset.name, 'judged-pool');
    const pHat: (number | null)[] = [];
    const epsilon = new Map<string, (number | null)[]>(JUDGES.map((j) => [j, []]));
    const brier = new Map<string, (number | null)[]>(JUDGES.map((j) => [j, []]));
    const corrected = new Map<string, (number | null)[]>(JUDGES.map((j) => [j, []]));
    for (let r = 0; r < B; r += 1) {
      const humanCounts = resample(humanRng, annotated.length);
      const poolCounts = resample(poolRng, analysed.length);
      // Expanded human sample: units of every drawn summary, repeated.
      const units = annotated.flatMap((summary, i) =>
        Array.from({ length: humanCounts[i]! }, () => summary.units).flat(),
      );
      const usable = units.filter((u) => u.human === 'faithful' || u.human === 'unfaithful');
      pHat.push(usable.length === 0 ? null : usable.filter((u) => u.human === 'faithful').length / usable.length);
      const poolUnits = analysed.flatMap((summary, i) =>
        Array.from({ length: poolCounts[i]! }, () => summary.units).flat(),
      );
      for (const judge of JUDGES) {
        const compared = usable.filter((u) => (u.judges[judge]?.hard ?? null) !== null);
        const truth = (u: (typeof usable)[number]) => (u.human === 'faithful' ? 1 : 0);
        epsilon
          .get(judge)!
          .push(
            compared.length === 0
              ? null
              : compared.filter((u) => u.judges[judge]!.hard !== truth(u)).length / compared.length,
          );
        const soft = usable.filter((u) => (u.judges[judge]?.soft ?? null) !== null);
        brier
          .get(judge)!
          .push(
            soft.length === 0
              ? null
              : soft.reduce((sum, u) => sum + (u.judges[judge]!.soft! - truth(u)) ** 2, 0) / soft.length,
          );
        const humanUnfaithful = compared.filter((u) => truth(u) === 0);
        const humanFaithful = compared.filter((u) => truth(u) === 1);
        const se =
          humanUnfaithful.length === 0
            ? null
            : humanUnfaithful.filter((u) => u.judges[judge]!.hard === 0).length / humanUnfaithful.length;
        const sp =
          humanFaithful.length === 0
            ? null
            : humanFaithful.filter((u) => u.judges[judge]!.hard === 1).length / humanFaithful.length;
        const judged = poolUnits.filter((u) => (u.judges[judge]?.hard ?? null) !== null);
        const q = judged.length === 0 ? null : judged.filter((u) => u.judges[judge]!.hard === 0).length / judged.length;
        corrected.get(judge)!.push(roganGladen(q, se, sp));
      }
    }
    expectInterval(result.p_hat_estimate, referenceInterval(pHat));
    for (const judge of JUDGES) {
      const report = result.judges[judge]!;
      expectInterval(report.epsilon_hat, referenceInterval(epsilon.get(judge)!));
      expectInterval(report.calibration!.brier, referenceInterval(brier.get(judge)!));
      expectInterval(report.corrected_unfaithful_rate, referenceInterval(corrected.get(judge)!));
    }
  });
});

describe('determinism', () => {
  it('the same seed gives the identical report; another seed moves the intervals only', () => {
    const again = analyzeDataset(randomDataset(3, 60), { bootstrap: B, seed: SEED, cap: 25 });
    expect(JSON.stringify(again)).toBe(JSON.stringify(result));
    const other = analyzeDataset(dataset, { bootstrap: B, seed: SEED + 1, cap: 25 });
    const hard = (r: typeof result) => r.judges.j1!.correlations.hard.mean.pearson;
    expect(hard(other).value).toBe(hard(result).value);
    expect(hard(other).ci).not.toEqual(hard(result).ci);
    expect(other.judges.j1!.epsilon_hat.ci).not.toEqual(result.judges.j1!.epsilon_hat.ci);
    expect(other.hidden_bias!.points).not.toEqual(result.hidden_bias!.points);
  });

  it('a dataset gives the same numbers alone or in a project, in any position', () => {
    const second = randomDataset(4, 40);
    const project = analyzeProject([second, dataset], { bootstrap: B, seed: SEED, cap: 25 });
    expect(project.datasets[1]).toEqual(result);
    expect(project.datasets[0]).toEqual(analyzeDataset(second, { bootstrap: B, seed: SEED, cap: 25 }));
  });

  it('adding human labels does not move the correlation intervals (independent streams)', () => {
    const moreLabels: AnalysisDataset = {
      ...dataset,
      summaries: dataset.summaries.map((s, i) =>
        i % 7 === 0
          ? {
              ...s,
              annotated: true,
              units: s.units.map((u) => ({ ...u, human: 'faithful' as const, humanStatus: 'single' as const })),
            }
          : s,
      ),
    };
    const changed = analyzeDataset(moreLabels, { bootstrap: B, seed: SEED, cap: 25 });
    expect(changed.judges.j1!.correlations).toEqual(result.judges.j1!.correlations);
    expect(changed.p_hat).not.toBe(result.p_hat);
  });

  it('bootstrap 0: no intervals, nothing dropped', () => {
    const none = analyzeDataset(dataset, { bootstrap: 0, seed: SEED, cap: 25 });
    expect(none.judges.j1!.correlations.hard.min.pearson).toEqual({
      ...result.judges.j1!.correlations.hard.min.pearson,
      ci: null,
      replicates_dropped: 0,
    });
    expect(none.judges.j1!.epsilon_hat.ci).toBeNull();
  });
});
