/**
 * Whose labels are the human reference and which labels leave it: the
 * loader picks, from a dataset's current label events, the annotation-phase labels that may
 * enter the human label, and keeps the account of what it left out; the report states it.
 *
 * - Reference set: `people` (the project's own annotators), `imported` (imported label sets, a
 *   benchmark's annotators) or `both` (default).
 * - Revealed labels: an annotation-phase label whose current event was given after its summary's
 *   judge outputs or benchmark labels were shown (`blind: false`) is left out unless
 *   `includeRevealed`; counted either way. The current event decides: an earlier blind label of
 *   the same annotator, since revised, does not come back.
 * - Review-phase events (adjudication, Table 4) pass untouched: they are decisions on the
 *   reference's labels, not part of it. An audit-adjudicated label still needs ≥ 2 annotators of
 *   the reference on the unit (human-label.ts).
 *
 * Order of the filters: the set first, then the reveal among the set's labels.
 */
import type { CurrentLabelEvent } from './human-label';
import type {
  AnalysisDataset,
  AnnotatorKind,
  HumanLabelRule,
  HumanReferenceReport,
  ReferenceAnnotator,
  ReferenceInput,
  ReferenceSet,
} from './types';
import { compareCodeUnits } from './prepare';

/** A current label event with what the reference needs to know of it. */
export type ReferenceLabelEvent = CurrentLabelEvent & {
  /** The annotator's kind (a person of the project, or an imported label set). */
  kind: AnnotatorKind;
  /** false: given after the summary's reveal. */
  blind: boolean;
};

export interface ReferenceOptions {
  set: ReferenceSet;
  rule: HumanLabelRule;
  includeRevealed: boolean;
}

export const DEFAULT_REFERENCE_OPTIONS: ReferenceOptions = { set: 'both', rule: 'unanimous', includeRevealed: false };

export function inReferenceSet(kind: AnnotatorKind, set: ReferenceSet): boolean {
  return set === 'both' || (set === 'people' ? kind === 'person' : kind === 'imported');
}

/** The events that may enter the human label (module comment), and the account of what was left out. */
export function selectReferenceLabels<T extends ReferenceLabelEvent>(
  events: readonly T[],
  options: ReferenceOptions,
): { labels: T[]; reference: ReferenceInput } {
  const kinds = new Map<string, AnnotatorKind>();
  const outside = new Set<string>();
  let nLabelsOutside = 0;
  let nLabelsRevealed = 0;
  const labels: T[] = [];
  for (const event of events) {
    if (event.phase !== 'annotation' || event.label === null) {
      labels.push(event);
      continue;
    }
    kinds.set(event.annotator, event.kind);
    if (!inReferenceSet(event.kind, options.set)) {
      outside.add(event.annotator);
      nLabelsOutside += 1;
      continue;
    }
    if (!event.blind) {
      nLabelsRevealed += 1;
      if (!options.includeRevealed) continue;
    }
    labels.push(event);
  }
  return {
    labels,
    reference: {
      set: options.set,
      rule: options.rule,
      includeRevealed: options.includeRevealed,
      kinds: Object.fromEntries([...kinds].sort(([a], [b]) => compareCodeUnits(a, b))),
      nLabelsOutside,
      nAnnotatorsOutside: outside.size,
      nLabelsRevealed,
    },
  };
}

/**
 * The report's account of a dataset's human reference: the annotators and labels that entered
 * (from the units' ratings, every length), how units resolved, and what the loader left out.
 * `settings`: what the caller says the units were built with (used when the dataset carries no
 * loader account).
 */
export function referenceReport(dataset: AnalysisDataset, settings: ReferenceOptions): HumanReferenceReport {
  const given = dataset.reference;
  const labelsBy = new Map<string, number>();
  const counts = { adjudicated: 0, majority: 0, disagreement: 0, tie: 0 };
  for (const summary of dataset.summaries) {
    for (const unit of summary.units) {
      for (const annotator of Object.keys(unit.ratings ?? {}))
        labelsBy.set(annotator, (labelsBy.get(annotator) ?? 0) + 1);
      const status = unit.humanStatus;
      if (status === 'adjudicated' || status === 'majority' || status === 'disagreement' || status === 'tie')
        counts[status] += 1;
    }
  }
  const kinds = given?.kinds ?? {};
  const annotators: ReferenceAnnotator[] = [...labelsBy]
    .sort(([a], [b]) => compareCodeUnits(a, b))
    .map(([name, n]) => ({ name, kind: Object.hasOwn(kinds, name) ? kinds[name]! : null, n_labels: n }));
  const includeRevealed = given?.includeRevealed ?? settings.includeRevealed;
  const revealed = given?.nLabelsRevealed ?? 0;
  return {
    set: given?.set ?? settings.set,
    rule: given?.rule ?? settings.rule,
    include_revealed: includeRevealed,
    annotators,
    n_annotators: annotators.length,
    n_labels: annotators.reduce((total, a) => total + a.n_labels, 0),
    n_annotators_outside_reference: given?.nAnnotatorsOutside ?? 0,
    n_labels_outside_reference: given?.nLabelsOutside ?? 0,
    n_labels_revealed: revealed,
    n_labels_revealed_excluded: includeRevealed ? 0 : revealed,
    n_units_adjudicated: counts.adjudicated,
    n_units_majority: counts.majority,
    n_units_disagreement: counts.disagreement,
    n_units_tied: counts.tie,
  };
}

/** A dataset built with other options than the report's settings (the report would misstate them). */
export function referenceMismatch(dataset: AnalysisDataset, settings: ReferenceOptions): string | null {
  const given = dataset.reference;
  if (!given) return null;
  const differ: string[] = [];
  if (given.set !== settings.set) differ.push(`reference ${given.set} (settings: ${settings.set})`);
  if (given.rule !== settings.rule) differ.push(`human label rule ${given.rule} (settings: ${settings.rule})`);
  if (given.includeRevealed !== settings.includeRevealed)
    differ.push(`include revealed ${given.includeRevealed} (settings: ${settings.includeRevealed})`);
  return differ.length === 0 ? null : `dataset ${dataset.name} was loaded with ${differ.join(', ')}`;
}
