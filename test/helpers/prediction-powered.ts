/**
 * Inputs for the p̂_PP and planning tests: a hand-built dataset whose people labeled a seed-0
 * hash-rank draw, and an all-units block with chosen intervals (the planner's input).
 */
import type {
  AllUnitsReport,
  AnalysisDataset,
  AnalysisSummary,
  Estimate,
  Interval,
  PredictionPowered,
} from '../../shared/analysis/types';
import type { HumanLabel } from '../../shared/domain';
import { SAMPLING_ALGORITHM, drawSample } from '../../shared/sampling';

export const SEEDED_NAME = 'hand';

/**
 * n summaries s00… of two sentences; the first `sampled` of the seed-0 ranking carry alice's
 * labels (the second sentence of every third sampled summary unfaithful); judge J calls every
 * sentence faithful; judge Z has labels only outside the sample.
 */
export function seededDataset(
  n: number,
  sampled: number,
  options: { kind?: 'person' | 'imported' | null; draws?: AnalysisDataset['sampling'] | 'none' } = {},
): AnalysisDataset {
  const ids = Array.from({ length: n }, (_, g) => ({ summaryId: `s${String(g).padStart(2, '0')}` }));
  const drawn = drawSample(SEEDED_NAME, ids, sampled, 0).map((s) => s.summaryId);
  const order = new Map(drawn.map((summaryId, i) => [summaryId, i]));
  const summaries: AnalysisSummary[] = ids.map(({ summaryId }, g) => {
    const position = order.get(summaryId);
    const labelled = position !== undefined;
    return {
      summaryId,
      docId: `d${g}`,
      globalLabel: null,
      annotated: labelled,
      units: [0, 1].map((index) => {
        const label: HumanLabel =
          index === 1 && position !== undefined && position % 3 === 0 ? 'unfaithful' : 'faithful';
        return {
          index,
          text: `Sentence ${index} of ${summaryId}.`,
          human: labelled ? label : null,
          humanStatus: labelled ? ('single' as const) : ('none' as const),
          ...(labelled ? { ratings: { alice: label } } : {}),
          judges: { J: { hard: 1 as const, soft: null }, ...(labelled ? {} : { Z: { hard: 0 as const, soft: null } }) },
        };
      }),
    };
  });
  const kinds: Record<string, 'person' | 'imported'> = options.kind === null ? {} : { alice: options.kind ?? 'person' };
  const draws = options.draws ?? { draws: [{ batch: 1, seed: 0, algorithm: SAMPLING_ALGORITHM, summaryIds: drawn }] };
  return {
    name: SEEDED_NAME,
    judges: ['J', 'Z'],
    summaries,
    reference: {
      set: 'both',
      rule: 'unanimous',
      includeRevealed: false,
      kinds,
      nLabelsOutside: 0,
      nAnnotatorsOutside: 0,
      nLabelsRevealed: 0,
    },
    ...(draws === 'none' ? {} : { sampling: draws }),
  };
}

const estimate = (value: number, ci: Interval | null, n: number): Estimate & { n_summaries: number } => ({
  value,
  ci,
  n,
  replicates_dropped: 0,
  too_few: false,
  n_summaries: 25,
});
const powered = (ci: Interval | null): PredictionPowered => ({
  value: 0.74,
  ci,
  too_few: false,
  replicates_dropped: 0,
  n_sampled_units: 90,
  n_all_units: 900,
  n_sampled_summaries: 25,
  n_all_summaries: 250,
  judge_rate: 0.76,
  rectifier: -0.02,
  width_ratio: 0.4,
  same_as_p_hat: false,
  sample_seed: 3,
  n_drawn_summaries: 30,
});

/**
 * An all-units block of 25 annotated summaries (or nSummaries): p̂ with the given interval, judge J
 * with ε̂ [0.08, 0.14] and p̂_PP with the given interval (or refused with the reason).
 */
export function allUnitsFixture(
  pHatCi: Interval | null,
  nSummaries = 25,
  ppCi: Interval | null = [0.72, 0.76],
  ppRefused: string | null = null,
): AllUnitsReport {
  const confusion = { positive_class: 'unfaithful' as const, tp: 0, fp: 0, tn: 0, fn: 0, n: 0 };
  return {
    n_summaries: nSummaries,
    n_single_sentence: 0,
    n_units: 100,
    human: {
      n_annotated_summaries: nSummaries,
      n_units: 100,
      n_usable: 90,
      n_faithful: 68,
      n_unfaithful: 22,
      n_unclear: 10,
      n_unresolved: 0,
      n_unlabeled: 0,
    },
    p_hat: { ...estimate(0.75, pHatCi, 90), n_summaries: nSummaries },
    judges: {
      J: {
        epsilon_hat: { ...estimate(0.11, [0.08, 0.14], 90), n_summaries: nSummaries },
        confusion,
        recall: estimate(0.5, null, 0),
        specificity: estimate(0.9, null, 0),
        p_pp: ppRefused === null ? powered(ppCi) : null,
        p_pp_reason: ppRefused,
      },
    },
  };
}
