/**
 * A readable Markdown report in the paper's layout: per dataset, the Table 2 comparison of min
 * and mean (hard and soft; value ± half-width of the 95% interval, the higher in bold), ε̂ with
 * its interval against ε₀ (Table 12), the full statistics (App. E), composition (App. C.3), the
 * suspicious-example list (Table 4), the hidden-bias curve (Fig. 3), calibration and the
 * corrected rate. "—" marks an undefined value.
 */
import { renderAccuracy } from '../accuracy/markdown';
import { renderScaffold } from '../scaffold/markdown';
import type { DatasetAgreement, PairAgreement } from '../agreement/types';
import type {
  AllUnitsReport,
  AnalysisReport,
  ErrorTypesReport,
  Composition,
  CorrelationCell,
  DatasetAnalysis,
  Estimate,
  HumanReferenceReport,
  KindCorrelations,
  PredictionPowered,
  Rate,
} from './types';
import { AGGREGATORS } from './types';
import { judgesWithErrorTypes } from './error-types';
import { ERROR_TYPES, ERROR_TYPE_NAMES } from '../domain';
import { inert, table } from '../markdown';
import { formatCount as count, plural } from '../words';
import { tooFewText } from '../stats/estimate';

const UNDEFINED = '—';

function fixed(value: number, digits: number): string {
  const text = value.toFixed(digits);
  // No "-0.00": a value that rounds to zero is shown unsigned.
  return Number(text) === 0 ? (0).toFixed(digits) : text;
}

function signed(value: number | null, digits = 3): string {
  if (value === null) return UNDEFINED;
  const text = fixed(value, digits);
  return value > 0 && Number(text) !== 0 ? `+${text}` : text;
}

function number(value: number | null, digits = 3): string {
  return value === null ? UNDEFINED : fixed(value, digits);
}

function percent(value: number | null): string {
  return value === null ? UNDEFINED : `${fixed(100 * value, 1)}%`;
}

/** After a value shown without an interval because its resampling units are too few: " (n = k, too few for an interval)". */
function tooFewSuffix(estimate: ShownEstimate, units: number | null | undefined): string {
  return estimate.too_few === true && estimate.value !== null && estimate.n !== undefined
    ? ` (${tooFewText(units === undefined ? estimate.n : units)})`
    : '';
}

/** An estimate, or a figure shaped like one that says its too-few case elsewhere (p̂_PP's note). */
type ShownEstimate = Pick<Estimate, 'value' | 'ci'> & { n?: number; too_few?: boolean };

/** The value, then its interval when there is one: "0.134 [0.050, 0.230]"; too few units: "0.667 (n = 1, too few for an interval)". */
function withInterval(
  estimate: ShownEstimate,
  format: (value: number | null) => string = (v) => number(v),
  units?: number | null,
): string {
  if (estimate.ci === null) return `${format(estimate.value)}${tooFewSuffix(estimate, units)}`;
  return `${format(estimate.value)} [${format(estimate.ci[0])}, ${format(estimate.ci[1])}]`;
}

/** value ± half-width of the percentile interval ((upper − lower)/2), as in the paper's Table 2; `units`: the resampling units when n counts units. */
function plusMinus(estimate: Estimate, digits: number, units?: number | null): string {
  if (estimate.value === null) return UNDEFINED;
  if (estimate.ci === null) return `${fixed(estimate.value, digits)}${tooFewSuffix(estimate, units)}`;
  return `${fixed(estimate.value, digits)} ± ${fixed((estimate.ci[1] - estimate.ci[0]) / 2, digits)}`;
}

function rate(value: Rate, asPercent = false): string {
  return `${asPercent ? percent(value.value) : number(value.value)} (n = ${count(value.n)})`;
}

function yesNo(value: boolean | null): string {
  return value === null ? UNDEFINED : value ? 'yes' : 'no';
}

/** The two Pearson cells of a kind, the displayed-higher one in bold (equal displays: neither). */
function minMeanPair(kind: KindCorrelations | null, digits: number): [string, string] {
  if (kind === null) return [UNDEFINED, UNDEFINED];
  const min = kind.min.pearson;
  const mean = kind.mean.pearson;
  const minText = plusMinus(min, digits);
  const meanText = plusMinus(mean, digits);
  if (min.value === null || mean.value === null) return [minText, meanText];
  const shownMin = Number(fixed(min.value, digits));
  const shownMean = Number(fixed(mean.value, digits));
  if (shownMin === shownMean) return [minText, meanText];
  return shownMin > shownMean ? [`**${minText}**`, meanText] : [minText, `**${meanText}**`];
}

function epsilon0Text(dataset: DatasetAnalysis): string {
  if (dataset.epsilon0_status === 'root') return number(dataset.epsilon0);
  if (dataset.epsilon0_status === 'unconditional') return 'unconditional (≥ 0.5)';
  return `undefined (${dataset.epsilon0_reason ?? 'p̂ missing, 0 or 1'})`;
}

function compositionRow(name: string, composition: Composition): string[] {
  return [
    name,
    `${percent(composition.all_faithful)} (${composition.counts.all_faithful})`,
    `${percent(composition.mixed)} (${composition.counts.mixed})`,
    `${percent(composition.all_unfaithful)} (${composition.counts.all_unfaithful})`,
    count(composition.n),
  ];
}

function statisticsRows(judge: string, kindName: string, kind: KindCorrelations): string[][] {
  const rows = AGGREGATORS.map((aggregator) => {
    const c: CorrelationCell = kind[aggregator];
    return [
      judge,
      kindName,
      aggregator,
      signed(c.pearson.value),
      signed(c.spearman.value),
      signed(c.kendall.value),
      number(c.roc_auc.value),
      count(c.n),
      count(c.n_left_out),
    ];
  });
  const d = kind.mean_minus_min;
  rows.push([
    judge,
    kindName,
    'mean − min',
    withInterval(d.pearson, signed),
    withInterval(d.spearman, signed),
    withInterval(d.kendall, signed),
    withInterval(d.roc_auc, signed),
    count(d.pearson.n),
    '',
  ]);
  return rows;
}

/** The agreement rows: humans (multi-rater, then each pair), then each judge against the human label. */
export function agreementRows(agreement: DatasetAgreement): string[][] {
  // n counts units; the resampling units are summaries (a pair's and a judge's are known).
  const spec = (figures: Record<string, Estimate>, category: string, summaries: number | null) =>
    figures[category] ? plusMinus(figures[category], 3, summaries) : UNDEFINED;
  const rows: string[][] = [];
  const h = agreement.humans;
  rows.push([
    `Humans (${h.n_raters} annotators)`,
    plusMinus(h.percent_agreement, 3, null),
    `Fleiss ${plusMinus(h.fleiss_kappa, 3, null)}`,
    plusMinus(h.krippendorff_alpha, 3, null),
    plusMinus(h.gwet_ac1, 3, null),
    ...agreement.categories.map((category) => spec(h.specific_agreement, category, null)),
    count(h.n_units),
  ]);
  const pairRow = (label: string, pair: PairAgreement) => [
    label,
    plusMinus(pair.percent_agreement, 3, pair.n_summaries),
    `Cohen ${plusMinus(pair.cohen_kappa, 3, pair.n_summaries)}`,
    plusMinus(pair.krippendorff_alpha, 3, pair.n_summaries),
    plusMinus(pair.gwet_ac1, 3, pair.n_summaries),
    ...agreement.categories.map((category) => spec(pair.specific_agreement, category, pair.n_summaries)),
    count(pair.n_units),
  ];
  for (const pair of h.pairs) rows.push(pairRow(`${inert(pair.rater_a)} vs ${inert(pair.rater_b)}`, pair));
  for (const judge of agreement.judge_names) rows.push(pairRow(`${inert(judge)} vs humans`, agreement.judges[judge]!));
  return rows;
}

function renderAgreement(agreement: DatasetAgreement): string[] {
  const unclear =
    agreement.unclear === 'exclude'
      ? `unclear excluded: two categories; ${count(agreement.n_units_unclear_dropped)} units an annotator rated unclear are left out of the human figures, and units whose human label is unclear out of the judge figures`
      : 'unclear counted as a third category';
  return [
    '### Agreement (annotation-phase labels; value ± half-width of the 95% CI; n = units)',
    `Over ${count(agreement.n_summaries)} summaries of any length with ≥ 1 label (${count(agreement.n_units_rated)} rated units); ${unclear}. Judges: hard label against the resolved human label.`,
    table(
      [
        'Raters',
        '% agreement',
        'κ',
        'Krippendorff α',
        'Gwet AC1',
        ...agreement.categories.map((category) => `specific ${category}`),
        'n',
      ],
      agreementRows(agreement),
    ),
  ];
}

/** Estimate with its interval and n: "0.250 [0.100, 0.400] (n = 12)". */
function estimateWithN(estimate: Estimate, units?: number | null): string {
  return estimate.too_few
    ? `${withInterval(estimate, undefined, units)} (n = ${count(estimate.n)})`
    : `${withInterval(estimate)} (n = ${count(estimate.n)})`;
}

/** The judge-error table over every annotated unit, any length (all_units). */
export function renderAllUnits(allUnits: AllUnitsReport, judges: readonly string[]): string[] {
  const human = allUnits.human;
  const parts = [
    '### Judge error on every annotated sentence (any summary length)',
    `Over ${count(allUnits.n_summaries)} annotated summaries (${count(allUnits.n_single_sentence)} with one sentence), ${count(allUnits.n_units)} units: ${count(human.n_usable)} usable (${count(human.n_faithful)} faithful, ${count(human.n_unfaithful)} unfaithful), ${count(human.n_unclear)} unclear, ${count(human.n_unresolved)} unresolved. p̂ = ${withInterval(allUnits.p_hat, undefined, allUnits.p_hat.n_summaries)} (n = ${count(allUnits.p_hat.n)} units, ${count(allUnits.p_hat.n_summaries)} summaries). Unfaithful is the positive class.`,
  ];
  if (judges.length === 0) return [...parts, 'No judge predictions.'];
  parts.push(
    table(
      [
        'Judge',
        'ε̂ [95% CI]',
        'n units',
        'TP',
        'FP',
        'TN',
        'FN',
        'Recall (unfaithful) [95% CI]',
        'Specificity [95% CI]',
      ],
      judges.map((judge) => {
        const j = allUnits.judges[judge]!;
        const c = j.confusion;
        return [
          inert(judge),
          withInterval(j.epsilon_hat, undefined, j.epsilon_hat.n_summaries),
          count(j.epsilon_hat.n),
          count(c.tp),
          count(c.fp),
          count(c.tn),
          count(c.fn),
          estimateWithN(j.recall, null),
          estimateWithN(j.specificity, null),
        ];
      }),
    ),
  );
  parts.push(...renderPredictionPowered(allUnits, judges));
  return parts;
}

/** The error types of each judge's unfaithful sentence predictions (error_types); nothing when no judge predicts one. */
export function renderErrorTypes(errorTypes: ErrorTypesReport | undefined, judges: readonly string[]): string[] {
  const rows = judgesWithErrorTypes(errorTypes, judges);
  if (!errorTypes || rows.length === 0) return [];
  return [
    "### Error types of the judges' unfaithful sentence predictions",
    table(
      ['Judge', 'Unfaithful', ...ERROR_TYPES.map((t) => ERROR_TYPE_NAMES[t]), 'Untyped'],
      rows.map((judge) => {
        const j = errorTypes.judges[judge]!;
        return [
          inert(judge),
          count(j.n_unfaithful),
          ...ERROR_TYPES.map((t) => count(j.counts[t])),
          count(j.counts.untyped),
        ];
      }),
    ),
  ];
}

/** p̂_PP per judge beside p̂ (all_units.judges.*.p_pp), or why it is refused. */
function renderPredictionPowered(allUnits: AllUnitsReport, judges: readonly string[]): string[] {
  const note = (pp: PredictionPowered): string => {
    const notes = [
      pp.same_as_p_hat ? 'the judge labeled no unit outside the sample: p̂_PP is p̂ on the same units' : null,
      pp.too_few ? `n = ${plural(pp.n_sampled_summaries, 'summary', 'summaries')}, too few for an interval` : null,
      pp.n_drawn_summaries > pp.n_sampled_summaries
        ? `${count(pp.n_drawn_summaries - pp.n_sampled_summaries)} drawn summaries not annotated yet`
        : null,
    ].filter((text) => text !== null);
    return notes.join('; ');
  };
  return [
    `p̂_PP (prediction-powered): the judge's share of faithful units over every unit it labeled, corrected by people − judge on the sampled units; the same p as p̂ = ${number(allUnits.p_hat.value)}, 95% interval from a two-sample bootstrap (the sample and every summary of the dataset). Valid only when the people's labels are a uniform seeded draw.`,
    table(
      ['Judge', 'p̂_PP [95% CI]', 'sampled units', 'all units', 'width / p̂ width', 'note'],
      judges.map((judge) => {
        const j = allUnits.judges[judge]!;
        const pp = j.p_pp;
        if (pp === null) return [inert(judge), UNDEFINED, '', '', '', `refused: ${j.p_pp_reason ?? 'undefined'}`];
        return [
          inert(judge),
          withInterval({ value: pp.value, ci: pp.ci }),
          count(pp.n_sampled_units),
          count(pp.n_all_units),
          number(pp.width_ratio, 2),
          note(pp),
        ];
      }),
    ),
  ];
}

/** Whose labels, by which rule, with its n. */
export function referenceLine(reference: HumanReferenceReport): string {
  const sets = {
    people: "the project's people",
    imported: 'imported label sets',
    both: "the project's people and imported label sets",
  };
  const rule =
    reference.rule === 'majority'
      ? 'majority (adjudicated, else the mode of the usable labels; a tie is unresolved)'
      : 'adjudicated-else-unanimous';
  const names = reference.annotators
    .map((a) => `${inert(a.name)}${a.kind ? ` (${a.kind})` : ''}: ${count(a.n_labels)}`)
    .join(', ');
  const revealed = reference.include_revealed
    ? `${count(reference.n_labels_revealed)} labels given after a reveal included`
    : `${count(reference.n_labels_revealed_excluded)} labels given after a reveal left out`;
  const units = [
    `${count(reference.n_units_adjudicated)} units adjudicated`,
    ...(reference.rule === 'majority'
      ? [`${count(reference.n_units_majority)} by majority`, `${count(reference.n_units_tied)} tied (left out)`]
      : []),
    `${count(reference.n_units_disagreement)} unresolved disagreements`,
  ];
  return `- Human reference: ${sets[reference.set]}, rule ${rule}; ${plural(reference.n_annotators, 'annotator')}, ${plural(reference.n_labels, 'label')}${names ? ` (${names})` : ''}; ${plural(reference.n_labels_outside_reference, 'label')} of ${plural(reference.n_annotators_outside_reference, 'annotator')} outside the reference left out; ${revealed}; ${units.join(', ')}.`;
}

function renderDataset(dataset: DatasetAnalysis): string {
  const judges = dataset.judge_names;
  const parts: string[] = [];
  parts.push(`## ${inert(dataset.dataset)}`);
  const human = dataset.human;
  parts.push(
    [
      `- Summaries analysed: ${count(dataset.n_summaries)} of ${count(dataset.n_summaries_total)} (${count(dataset.n_single_sentence_left_out)} with one sentence left out), ${count(dataset.n_sentences)} sentences; ${count(dataset.n_without_global_label)} without a global label.`,
      referenceLine(dataset.reference),
      `- Human sample (≥ 2 sentences): ${count(human.n_annotated_summaries)} annotated summaries, ${count(human.n_units)} units: ${count(human.n_usable)} usable (${count(human.n_faithful)} faithful, ${count(human.n_unfaithful)} unfaithful), ${count(human.n_unclear)} unclear, ${count(human.n_unresolved)} unresolved disagreements, ${count(human.n_unlabeled)} unlabeled.`,
      `- p̂ = ${withInterval(dataset.p_hat_estimate, undefined, dataset.p_hat_estimate.n_summaries)} (n = ${count(dataset.p_hat_estimate.n)} units, ${count(dataset.p_hat_estimate.n_summaries)} summaries)`,
      `- ε₀ = ${epsilon0Text(dataset)} (lengths of ${count(dataset.epsilon0_n_summaries)} summaries)`,
    ].join('\n'),
  );

  parts.push(...renderAllUnits(dataset.all_units, judges));
  parts.push(...renderErrorTypes(dataset.error_types, judges));

  if (judges.length === 0) {
    parts.push('No judge predictions.');
  } else {
    parts.push(
      '### Pearson correlation with the global label (Table 2 layout; value ± half-width of the 95% CI, higher of min/mean in bold)',
    );
    parts.push(
      table(
        ['Judge', 'Hard min', 'Hard mean', 'Soft min', 'Soft mean', 'n (hard)'],
        judges.map((judge) => {
          const correlations = dataset.judges[judge]!.correlations;
          return [
            inert(judge),
            ...minMeanPair(correlations.hard, 2),
            ...minMeanPair(correlations.soft, 2),
            count(correlations.hard.min.n),
          ];
        }),
      ),
    );

    parts.push(
      '### Judge error ε̂ against ε₀ (Table 12 layout; summaries with ≥ 2 sentences) and the averaging-bias diagnostic',
    );
    parts.push(
      table(
        [
          'Judge',
          'ε̂ [95% CI]',
          'n units',
          'ε₀',
          'mean ≥ min (hard Pearson)',
          'ε̂ < ε₀',
          'at upper CI',
          'Averaging bias',
          'Recall (unfaithful)',
          'Specificity',
        ],
        judges.map((judge) => {
          const report = dataset.judges[judge]!;
          const bias = report.averaging_bias;
          return [
            inert(judge),
            withInterval(report.epsilon_hat, undefined, report.epsilon_hat.n_summaries),
            count(report.epsilon_hat.n),
            epsilon0Text(dataset),
            yesNo(bias.mean_ge_min),
            yesNo(bias.below_threshold),
            yesNo(bias.below_threshold_at_upper_ci),
            yesNo(bias.holds),
            rate(report.recall),
            rate(report.specificity),
          ];
        }),
      ),
    );

    parts.push('### All statistics (App. E layout; faithful = positive class)');
    parts.push(
      table(
        ['Judge', 'Labels', 'Aggregation', 'Pearson', 'Spearman', 'Kendall τ-b', 'ROC-AUC', 'n', 'left out'],
        judges.flatMap((judge) => {
          const correlations = dataset.judges[judge]!.correlations;
          return [
            ...statisticsRows(inert(judge), 'hard', correlations.hard),
            ...(correlations.soft ? statisticsRows(inert(judge), 'soft', correlations.soft) : []),
          ];
        }),
      ),
    );

    parts.push('### Calibration of soft labels and corrected rate of unfaithful sentences');
    parts.push(
      table(
        ['Judge', 'Brier [95% CI]', 'ECE (10 bins)', 'Judged unfaithful', 'Corrected (Rogan–Gladen) [95% CI]'],
        judges.map((judge) => {
          const report = dataset.judges[judge]!;
          const calibration = report.calibration;
          const corrected = report.corrected_unfaithful_rate;
          return [
            inert(judge),
            calibration
              ? `${withInterval(calibration.brier, undefined, null)} (n = ${count(calibration.brier.n)})`
              : UNDEFINED,
            calibration ? rate(calibration.ece) : UNDEFINED,
            rate(corrected.observed, true),
            withInterval(corrected, percent, null),
          ];
        }),
      ),
    );
  }

  parts.push('### Summary composition (App. C.3)');
  parts.push(
    table(
      ['Labels', 'All faithful', 'Mixed', 'All unfaithful', 'n'],
      [
        compositionRow('Humans (usable labels)', dataset.composition.human),
        compositionRow('Judges, majority (all summaries)', dataset.composition.judges.all),
        compositionRow('Judges, majority (annotated summaries)', dataset.composition.judges.annotated),
      ],
    ),
  );

  parts.push(...renderAgreement(dataset.agreement));

  const suspicious = dataset.suspicious;
  parts.push('### Suspicious examples (global label faithful, every judge flags a sentence)');
  parts.push(
    `Pool: ${count(suspicious.pool)} (${percent(suspicious.share_of_faithful.value)} of ${count(suspicious.share_of_faithful.n)} faithful-labeled summaries); ${count(suspicious.after_fragment_filter)} keep a flagged sentence of ≥ 5 words; listed: ${count(suspicious.listed.length)} (cap ${suspicious.cap}), sorted by doc_id then summary_id.`,
  );
  if (suspicious.listed.length > 0) {
    parts.push(
      table(
        ['doc_id', 'summary_id', 'Flagged sentences', 'Review'],
        suspicious.listed.map((entry) => [
          inert(entry.doc_id),
          inert(entry.summary_id),
          entry.flagged_sentences.join(', '),
          entry.review_labels.map((label) => label ?? 'not reviewed').join(', '),
        ]),
      ),
    );
    const review = suspicious.review;
    parts.push(
      table(
        ['pool', '#summ. reviewed', 'U', 'F', 'Uncl.', 'not reviewed', '% U'],
        [
          [
            count(review.pool),
            count(review.reviewed_summaries),
            count(review.unfaithful),
            count(review.faithful),
            count(review.unclear),
            count(review.not_reviewed),
            rate(review.pct_unfaithful, true),
          ],
        ],
      ),
    );
  }

  const hidden = dataset.hidden_bias;
  if (hidden) {
    parts.push(
      '### Hidden-bias simulation (Fig. 3): mean − min Pearson gap when a fraction y of labels follows the averaging rule',
    );
    parts.push(
      `p̂ = ${number(hidden.p_hat)}, ε̄ = ${number(hidden.epsilon_bar)} (mean ε̂ of ${hidden.n_judges_averaged} judges), ${count(hidden.n_simulated_summaries)} simulated summaries.`,
    );
    parts.push(
      table(
        ['y', 'gap, perfect judge', `gap, judge with ε̄`],
        hidden.points.map((point) => [
          fixed(point.y, 2),
          signed(point.perfect.gap),
          point.noisy ? signed(point.noisy.gap) : UNDEFINED,
        ]),
      ),
    );
  }
  if (dataset.accuracy) parts.push(...renderAccuracy(dataset.accuracy));
  if (dataset.scaffold) parts.push(...renderScaffold(dataset.scaffold));
  return parts.join('\n\n');
}

export function renderMarkdown(report: AnalysisReport): string {
  const { settings } = report;
  const header = [
    '# Loupe analysis',
    `Bootstrap: ${count(settings.bootstrap)} replicates resampling summaries, seed ${settings.seed}; 95% percentile intervals (linear interpolation, type 7). Review cap ${settings.cap}. "—" = undefined.`,
    `Human reference: ${settings.reference} (people = the project's annotators, imported = imported label sets); several annotators resolve by ${settings.human_label === 'majority' ? 'majority (adjudicated, else the mode of the usable labels; a tie is unresolved)' : 'adjudicated-else-unanimous'}; labels given after a reveal ${settings.include_revealed ? 'included' : 'left out'} (counted per dataset).`,
    'Scopes: the diagnostic (correlations, ε₀, the verdict and its p̂/ε̂, composition, the simulation, suspicious examples, Table 4) takes summaries with ≥ 2 sentences; agreement and the judge-error table on every annotated sentence take every length.',
  ].join('\n\n');
  return [header, ...report.datasets.map(renderDataset)].join('\n\n') + '\n';
}
