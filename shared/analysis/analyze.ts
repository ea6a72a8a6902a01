/**
 * The judge audit (docs/methods.md) for one dataset or a whole project: pure, deterministic (same
 * input and seed → the same report on every machine), plain JSON out.
 */
import { computeAccuracy } from '../accuracy/metrics';
import { computeScaffold } from '../scaffold/compute';
import { PEOPLE_SOURCE } from '../stats/system-comparison';
import { SCAFFOLD_DEFINITION } from '../scaffold/definitions';
import { agreementForDataset } from '../agreement/report';
import type { AgreementSummary, DatasetAgreement, UnclearHandling } from '../agreement/types';
import { computeEpsilon0 } from '../stats/epsilon0';
import { createStream, type Xoshiro128StarStar } from '../stats/prng';
import { computeComposition } from './composition';
import { startCorrelations, type CorrelationReplicator } from './correlations';
import { computeDisagreements } from './disagreements';
import { simulateHiddenBias } from './hidden-bias';
import { allUnitsWithPredictionPowered } from './prediction-powered';
import {
  AnalysisInputError,
  checkDataset,
  isAnalysedSummary,
  isAnnotated,
  predictionOf,
  resolveSettings,
} from './prepare';
import { referenceMismatch, referenceReport, type ReferenceOptions } from './reference';
import { computeReliability } from './reliability';
import { reviewSummary } from './review-table';
import { computeSuspicious } from './suspicious';
import { computeErrorTypes } from './error-types';
import type {
  AllUnitsReport,
  AnalysisDataset,
  AnalysisReport,
  AnalysisSettings,
  AnalysisSummary,
  AveragingBias,
  DatasetAnalysis,
  Estimate,
  JudgeAnalysis,
} from './types';
import type { Epsilon0Result } from '../stats/epsilon0';

/** Correlations closer than this are treated as equal in "mean ≥ min" (floating-point rounding). */
export const CORRELATION_TIE_TOLERANCE = 1e-12;

function averagingBias(
  pearsonMean: Estimate,
  pearsonMin: Estimate,
  epsilonHat: Estimate,
  epsilon0: Epsilon0Result,
): AveragingBias {
  const meanGeMin =
    pearsonMean.value === null || pearsonMin.value === null
      ? null
      : pearsonMean.value - pearsonMin.value >= -CORRELATION_TIE_TOLERANCE;
  const threshold = epsilon0.status === 'root' ? epsilon0.epsilon0 : epsilon0.status === 'unconditional' ? 0.5 : null;
  const below = threshold === null || epsilonHat.value === null ? null : epsilonHat.value < threshold;
  const belowAtUpper = threshold === null || epsilonHat.ci === null ? null : epsilonHat.ci[1] < threshold;
  const both = (a: boolean | null, b: boolean | null) =>
    a === false || b === false ? false : a === null || b === null ? null : true;
  return {
    mean_ge_min: meanGeMin,
    below_threshold: below,
    below_threshold_at_upper_ci: belowAtUpper,
    holds: both(meanGeMin, below),
    holds_at_upper_ci: both(meanGeMin, belowAtUpper),
    threshold,
  };
}

/** The agreement block's choice for `unclear` (shared/agreement): two categories, unclear units left out and counted. */
export const AGREEMENT_UNCLEAR: UnclearHandling = 'exclude';

/**
 * The agreement input of the given summaries (the audit passes every summary: agreement is in the all-units scope): per unit the
 * annotators' current annotation-phase labels, the resolved human label (adjudicated included;
 * null when unresolved) and each judge's hard label.
 */
export function agreementInput(summaries: readonly AnalysisSummary[], judges: readonly string[]): AgreementSummary[] {
  return summaries.map((summary) => ({
    summaryId: summary.summaryId,
    units: summary.units.map((unit) => ({
      ratings: unit.ratings ?? {},
      human: unit.human,
      judges: Object.fromEntries(judges.map((judge) => [judge, predictionOf(unit, judge)?.hard ?? null])),
    })),
  }));
}

/** Agreement over the given summaries of one dataset (the audit: all of them, any length), with the audit's bootstrap and seed. */
export function computeAgreement(
  name: string,
  summaries: readonly AnalysisSummary[],
  judges: readonly string[],
  bootstrap: number,
  seed: number,
): DatasetAgreement {
  return agreementForDataset(
    { name, summaries: agreementInput(summaries, judges), judges },
    { unclear: AGREEMENT_UNCLEAR, bootstrap, seed },
  );
}

/** The blocks' name of the source asked for: "people" is their "human". */
function comparedBy(source: string | null): string | null {
  return source === 'people' ? PEOPLE_SOURCE : source;
}

function referenceOptions(settings: Required<AnalysisSettings>): ReferenceOptions {
  return { set: settings.reference, rule: settings.humanLabel, includeRevealed: settings.includeRevealed };
}

/** Settings resolved and the dataset checked against them: what every analysis of a dataset starts with. */
function checkedSettings(
  dataset: AnalysisDataset,
  settings: Partial<AnalysisSettings> | undefined,
): Required<AnalysisSettings> {
  const resolved = resolveSettings(settings);
  checkDataset(dataset);
  const mismatch = referenceMismatch(dataset, referenceOptions(resolved));
  if (mismatch) throw new AnalysisInputError([mismatch]);
  return resolved;
}

/**
 * One independent stream per purpose, keyed by dataset name: adding labels to one part of the
 * analysis, or another dataset to the project, does not move the others' intervals.
 */
const STREAM_PREFIX = ['loupe-analysis-v1'] as const;

function datasetStreams(seed: number, dataset: string): (purpose: string) => Xoshiro128StarStar {
  return (purpose) => createStream(seed, ...STREAM_PREFIX, dataset, purpose);
}

/** The all-units block alone, with p̂_PP (what the planner rests on): exactly analyzeDataset's `all_units`. */
export function analyzeAllUnits(dataset: AnalysisDataset, settings?: Partial<AnalysisSettings>): AllUnitsReport {
  const resolved = checkedSettings(dataset, settings);
  return allUnitsWithPredictionPowered(
    dataset,
    referenceReport(dataset, referenceOptions(resolved)),
    resolved.bootstrap,
    datasetStreams(resolved.seed, dataset.name),
  );
}

/** How the heavy parts run: in this thread unless the host passes something else (the analysis worker's thread pool). */
export interface AnalysisEngines {
  correlations?: CorrelationReplicator;
  /** Helper threads the replicator has started (the timings report it). */
  threadsStarted?: () => number;
  /**
   * Told before the project loads how many summaries the analysis holds and its replicates, so
   * helper threads a bootstrap of that size will use start now and their start-up overlaps the load.
   */
  expect?: (summaries: number, bootstrap: number) => void;
}

export function analyzeDataset(
  dataset: AnalysisDataset,
  settings?: Partial<AnalysisSettings>,
  engines: AnalysisEngines = {},
): DatasetAnalysis {
  const resolved = checkedSettings(dataset, settings);
  const { bootstrap, seed, cap } = resolved;
  const judges = [...dataset.judges];
  // The diagnostic scope leaves out summaries with fewer than 2 sentences (all aggregators
  // coincide); agreement and the all-units table take every annotated summary.
  const analysed = dataset.summaries.filter(isAnalysedSummary);
  const annotated = analysed.filter(isAnnotated);
  const population = analysed.filter((summary) => summary.globalLabel !== null);
  const stream = datasetStreams(seed, dataset.name);
  // Started first: with helper threads its replicates run while this thread computes the other
  // blocks, and it is finished (point values, this thread's share) when the judges' reports need it.
  const finishCorrelations = startCorrelations({
    population,
    judges,
    bootstrap,
    stream: { seed, parts: [...STREAM_PREFIX, dataset.name, 'correlations'] },
    ...(engines.correlations ? { replicator: engines.correlations } : {}),
  });

  const reliability = computeReliability({
    analysed,
    annotated,
    judges,
    bootstrap,
    humanRng: stream('human-sample'),
    poolRng: stream('judged-pool'),
  });
  const lengths = analysed.map((summary) => summary.units.length);
  const epsilon0 = computeEpsilon0(reliability.pHat.value, lengths);
  const definedEpsilons = judges
    .map((judge) => reliability.judges.get(judge)!.epsilon_hat.value)
    .filter((value): value is number => value !== null);
  const epsilonBar =
    definedEpsilons.length > 0 ? definedEpsilons.reduce((a, b) => a + b, 0) / definedEpsilons.length : null;
  const pHat = reliability.pHat.value;
  const hiddenBias =
    pHat !== null && pHat > 0 && pHat < 1 && lengths.length > 0
      ? simulateHiddenBias({
          pHat,
          epsilonBar,
          nJudgesAveraged: definedEpsilons.length,
          lengths,
          points: resolved.simulationPoints,
          minSummaries: resolved.simulationMinSummaries,
          sentenceRng: stream('hidden-bias/sentences'),
          judgeRng: stream('hidden-bias/judge'),
          orderRng: stream('hidden-bias/order'),
        })
      : null;

  const suspicious = computeSuspicious(analysed, judges, cap);
  const reference = referenceReport(dataset, referenceOptions(resolved));
  const composition = computeComposition(analysed, annotated, judges);
  const agreement = computeAgreement(dataset.name, dataset.summaries, judges, bootstrap, seed);
  // The human-sample stream on purpose: without single-sentence summaries, the same resamples as p̂/ε̂ above.
  const allUnits = allUnitsWithPredictionPowered(dataset, reference, bootstrap, stream);
  const errorTypes = computeErrorTypes(dataset);
  const disagreements = computeDisagreements(analysed, annotated, judges);
  const accuracy = dataset.accuracy
    ? computeAccuracy(dataset.accuracy, {
        bootstrap,
        seed,
        dataset: dataset.name,
        humanLabel: resolved.humanLabel,
        reference: resolved.reference,
        includeRevealed: resolved.includeRevealed,
        compareSource: comparedBy(resolved.compareSource),
        sentenceHuman: new Map(dataset.summaries.map((s) => [s.summaryId, s.units.map((u) => u.human)])),
      })
    : null;
  // Semantic Scaffold: only on a dataset that has a scaffold.
  const scaffold = dataset.scaffold
    ? {
        scaffold: computeScaffold(dataset.scaffold, {
          bootstrap,
          seed,
          dataset: dataset.name,
          reference: resolved.reference,
          includeRevealed: resolved.includeRevealed,
          humanLabel: resolved.humanLabel,
          compareSource: comparedBy(resolved.compareSource),
        }),
      }
    : {};

  const correlations = finishCorrelations();
  const judgeReports = judges.map((judge): [string, JudgeAnalysis] => {
    const judgeReliability = reliability.judges.get(judge)!;
    const judgeCorrelations = correlations[judge]!;
    return [
      judge,
      {
        epsilon_hat: judgeReliability.epsilon_hat,
        confusion: judgeReliability.confusion,
        recall: judgeReliability.recall,
        specificity: judgeReliability.specificity,
        correlations: judgeCorrelations,
        averaging_bias: averagingBias(
          judgeCorrelations.hard.mean.pearson,
          judgeCorrelations.hard.min.pearson,
          judgeReliability.epsilon_hat,
          epsilon0,
        ),
        calibration: judgeReliability.calibration,
        corrected_unfaithful_rate: judgeReliability.corrected_unfaithful_rate,
      },
    ];
  });

  return {
    dataset: dataset.name,
    n_summaries: analysed.length,
    n_sentences: lengths.reduce((a, b) => a + b, 0),
    n_summaries_total: dataset.summaries.length,
    n_single_sentence_left_out: dataset.summaries.length - analysed.length,
    n_without_global_label: analysed.length - population.length,
    judge_names: judges,
    human: reliability.human,
    p_hat: pHat,
    p_hat_estimate: reliability.pHat,
    epsilon0: epsilon0.epsilon0,
    epsilon0_status: epsilon0.status,
    epsilon0_reason: epsilon0.reason,
    epsilon0_n_summaries: lengths.length,
    judges: Object.fromEntries(judgeReports),
    composition,
    suspicious,
    review: reviewSummary(suspicious.review),
    agreement,
    all_units: allUnits,
    error_types: errorTypes,
    reference,
    disagreements,
    hidden_bias: hiddenBias,
    accuracy,
    ...scaffold,
  };
}

/** The conventions behind the numbers, printed with every report. */
export const DEFINITIONS: Record<string, string> = {
  scaffold: SCAFFOLD_DEFINITION,
  scope:
    "Two scopes. Diagnostic scope (the paper's): summaries with ≥ 2 sentences (with one sentence min, mean and max coincide): min/mean/max correlations, ε₀, the verdict and the p̂/ε̂ it uses (p_hat, judges.*), composition, the hidden-bias simulation, suspicious examples and Table 4; n_summaries counts them, n_single_sentence_left_out the rest. All-units scope: every annotated summary of any length: human agreement (agreement) and the judge-error table (all_units: p̂, ε̂, confusion, recall, specificity).",
  human_label:
    "Annotation-phase labels only (review-phase labels feed only the review table), of the reference annotators (settings.reference: people = the project's own annotators, imported = imported label sets, both), each annotator's current label. Several annotators, by settings.human_label: unanimous = the adjudicated label, else the label all agree on (a disagreement is unresolved); majority = the adjudicated label, else the mode of the usable (faithful/unfaithful) labels, unclear votes not voting (a tie is unresolved). Unresolved units are left out and counted. An adjudicated label needs ≥ 2 reference annotators on the unit. Unclear units are dropped from every rate.",
  revealed_labels:
    "A label whose current event was given after its summary's judge outputs or benchmark labels were revealed (blind: false) is left out of the reference unless settings.include_revealed; counted either way (reference.n_labels_revealed, n_labels_revealed_excluded). The reference set is applied first, then the reveal.",
  reference:
    'Per dataset: the annotators whose labels entered (name, kind, labels), the labels outside the chosen set and the revealed labels left out, and the units resolved by adjudication or majority or left unresolved (disagreement, tie), over every unit of the dataset.',
  all_units:
    "p̂ and, per judge, ε̂, confusion, recall and specificity (unfaithful = positive) over every annotated summary of any length, with the definitions of p_hat and epsilon_hat; 95% bootstrap intervals resampling those summaries (the human-sample stream: without single-sentence summaries the figures and intervals equal the diagnostic scope's). n = units (recall: TP + FN, specificity: TN + FP).",
  prediction_powered:
    "all_units.judges.*.p_pp: p̂_PP = F_all + (Y_lab − F_lab) (prediction-powered inference): F_all = the judge's share of faithful (hard 1) units over every unit of the dataset it labeled; Y_lab, F_lab = the people's and the judge's share over the sampled units with both a usable human label and a hard label of the judge. The same p as p̂. 95% interval from a two-sample bootstrap: the annotated summaries (the human-sample stream, paired with all_units.p_hat) and, independently, every summary of the dataset (stream prediction-powered/pool); width_ratio = its width / p̂'s. Fewer than 5 annotated summaries: no interval (too_few). Valid only when the people's labels are a uniform seeded sample: no imported label set in the reference, the dataset's draws all hash-rank-v1 with one seed, the drawn summaries the first n of that seed's ranking of the dataset's current summaries, every annotated summary among them; otherwise p_pp is null and p_pp_reason says why. A judge with no label outside the sample: p_pp = p̂ on the units both labeled (same_as_p_hat).",
  p_hat:
    'Faithful / usable (faithful + unfaithful) human labels over the annotated summaries (diagnostic scope: ≥ 2 sentences; all_units.p_hat: any length).',
  epsilon_hat:
    'Units whose hard judge label differs from the usable human label / usable units with a hard judge label.',
  confusion:
    'Unfaithful is the positive class: recall = TP/(TP+FN) on human-unfaithful units, specificity = TN/(TN+FP).',
  epsilon0:
    'App. A.4 closed forms with p = p̂ and the lengths of all analysed summaries; smallest root in (0, ½): first point of the grid ε = i/10000 (i = 1…4999) with ρ(Y,A) − ρ(Y,B) ≤ 0, then bisection in that step. unconditional: no root (threshold ½); undefined: p̂ missing, 0 or 1.',
  correlations:
    'Per judge, hard and soft separately: min, mean, max of sentence predictions per summary against the global label (faithful = positive). Pearson; Spearman = Pearson of average ranks; Kendall τ-b; ROC-AUC with ties ½. A summary enters a cell only if the judge has a prediction for all its sentences (else left out and counted). Constant aggregate: correlations undefined, AUC 0.5; constant global label: all undefined.',
  bootstrap:
    'Resampling whole summaries with replacement; the same resamples for every judge and aggregator of a dataset (paired). 95% percentile interval at 0.025/0.975 with linear interpolation between order statistics (Hyndman–Fan type 7 = R type 7 = numpy "linear"); undefined replicates are dropped and counted. Streams: xoshiro128** seeded by SplitMix64 over (seed, dataset, purpose).',
  bootstrap_units:
    'Correlations: analysed summaries with a global label. p̂, ε̂, recall, specificity, Brier: annotated summaries. Corrected rate: annotated summaries and, independently, all analysed summaries (the judged pool).',
  averaging_bias:
    "mean ≥ min on hard Pearson (not strict; differences within 1e-12 count as equal) and ε̂ < ε₀ (strict; ε̂ < ½ when unconditional); also checked at the upper end of ε̂'s interval.",
  composition:
    'all_faithful / mixed / all_unfaithful. Humans: summaries with ≥ 1 usable label, by their usable labels. Judges: per-sentence majority of the judges with a hard label (tie → unfaithful), sentences no judge labeled are skipped; over all analysed summaries and over the annotated ones.',
  suspicious:
    'Global label 1 and every judge flags (hard 0) ≥ 1 sentence; a missing prediction is not a flag. Flagged sentences: flagged by all judges, minus fragments of < 5 word tokens (whitespace tokens with a letter or digit). Summaries left with none are dropped; the rest sorted by doc_id, then summary_id, in code-unit order (JavaScript default string order), then capped. Pool: before the fragment filter.',
  calibration:
    'Soft labels (P(faithful)) against usable human labels: Brier = mean (p − o)²; ECE over 10 equal-width bins [0,0.1), …, [0.9,1.0] = Σ (n_b/n)|mean p − share faithful|.',
  corrected_unfaithful_rate:
    'Rogan–Gladen: (q + Sp − 1)/(Se + Sp − 1) clipped to [0,1], q = share of judged sentences of all analysed summaries called unfaithful, Se/Sp on the human sample; undefined when Se + Sp − 1 ≤ 0.',
  hidden_bias:
    "Fig. 3 simulation: sentences i.i.d. Bernoulli(p̂) in summaries with the dataset's lengths (repeated to ≥ the minimum size); a fraction y labeled by the averaging rule (2K ≥ M), the rest by the min rule (K = M); gap = Pearson ρ(Y, mean) − ρ(Y, min) for a perfect judge and for one flipping each sentence with probability ε̄ (mean ε̂ of the judges).",
  agreement:
    "Per dataset (`agreement`, shared/agreement): over every summary of any length (the all-units scope), annotation-phase labels of the reference only, each annotator's current label. Humans: percent agreement, Fleiss' κ (Gwet's generalisation to varying ratings per unit), Krippendorff's α (nominal), Gwet's AC1, per-class (specific) agreement, and every pair of annotators (Cohen's κ, α, AC1). Judges: each judge's hard label against the resolved human label (adjudicated, single or agreed). unclear = 'exclude': two categories; a unit any annotator rated unclear leaves the human figures, a unit whose human label is unclear leaves the judge figures (both counted). Bootstrap: the audit's replicates and seed, resampling summaries with ≥ 1 label, one resample shared by every figure (stream loupe-agreement-v1); n = units each figure rests on.",
  review:
    "Table 4 in the issue's shape: pool, reviewed (summaries with ≥ 1 reviewed flagged sentence), U, F, unclear, pct_U = 100·U/(U+F) (null when U + F = 0); the same counts as suspicious.review.",
  disagreements:
    'Lists cover the annotated summaries, sorted by doc_id, summary_id, sentence; the judges-split count is also given over all analysed summaries.',
  too_few:
    'An interval from fewer than 5 resampling units (the summaries a figure rests on, or the paired documents of a comparison) is not given: ci null, too_few true, the point value kept ("n = k, too few for an interval" in the Markdown and the view). It holds for every figure of the audit, agreement, accuracy and scaffold blocks.',
  comparison:
    'accuracy.comparison and scaffold.comparison compare systems on every metric of the block by one source (settings.compare_source: "people" or a judge; absent: people when they pair ≥ 5 documents, else none and comparison_note names the judge sources; comparison_sources lists every source with its paired documents): each system\'s mean, the paired-bootstrap difference of every pair over the documents both have (too_few under 5), ranks (none under 5 paired documents; systems whose difference interval covers 0 share a rank, also through a third system) and saturation.',
};

export function analyzeProject(datasets: AnalysisDataset[], settings?: Partial<AnalysisSettings>): AnalysisReport {
  const resolved = resolveSettings(settings);
  const names = datasets.map((dataset) => dataset.name);
  const repeated = names.filter((name, i) => names.indexOf(name) !== i);
  if (repeated.length > 0) throw new RangeError(`dataset names repeat: ${[...new Set(repeated)].join(', ')}`);
  return {
    settings: {
      bootstrap: resolved.bootstrap,
      seed: resolved.seed,
      cap: resolved.cap,
      simulation_points: resolved.simulationPoints,
      simulation_min_summaries: resolved.simulationMinSummaries,
      human_label: resolved.humanLabel,
      reference: resolved.reference,
      include_revealed: resolved.includeRevealed,
      compare_source: resolved.compareSource,
    },
    definitions: DEFINITIONS,
    datasets: datasets.map((dataset) => analyzeDataset(dataset, resolved)),
  };
}
