/**
 * The human-label rules of Loupe, in one place. Every reader of a unit's current label
 * events — the analysis loader, the review queues and tables, the exports and the repository's
 * `adjudicatedLabels` — goes through these functions; nothing else restates them.
 *
 * - Annotation label (p̂, ε̂, human composition): resolveHumanLabel over the annotators' current
 *   annotation-phase labels, the audit-adjudicated label taking precedence, by the chosen rule:
 *   `unanimous` (adjudicated-else-unanimous, the default) or `majority` (the mode of the usable
 *   labels; a tie is unresolved).
 * - Audit-adjudicated label: the label the current decisions recorded from the **human-human**
 *   queue agree on, on a unit that currently has annotation labels from ≥ 2 annotators
 *   (adjudicators who disagree leave it unresolved).
 * - Review label (Table 4, corrected global labels only): the label the current decisions from
 *   the other queues agree on (suspicious, human-judge, judges-split, and imported review labels,
 *   which have no queue). Those decisions were prompted by what the judges said, so they never
 *   enter p̂/ε̂ (docs/methods.md, "Judge reliability: p̂ and ε̂").
 */
import type { HumanLabel, Phase } from '../domain';
import type { ReviewQueueKind } from '../contract/review';

/**
 * How a unit's annotation-phase human label was resolved (see resolveHumanLabel):
 * none (nobody labeled it), single (one annotator), agreed (several, all the same),
 * adjudicated (an adjudicated label exists), disagreement (several, unresolved → left out);
 * under the `majority` rule also majority (several who differ, one usable label has more votes)
 * and tie (several who differ, as many faithful as unfaithful votes: unresolved → left out).
 */
export type HumanLabelStatus = 'none' | 'single' | 'agreed' | 'adjudicated' | 'disagreement' | 'majority' | 'tie';

/** Statuses that leave a unit without a human label (left out and counted). */
export const UNRESOLVED_STATUSES: readonly HumanLabelStatus[] = ['none', 'disagreement', 'tie'];

/**
 * How several annotators' current labels of a unit resolve (an adjudicated label wins in both):
 * `unanimous` = the label they all agree on, else unresolved (adjudicated-else-unanimous, Loupe's
 * default); `majority` = the mode of the usable (faithful/unfaithful) labels, a tie unresolved
 * (FineSurE/FRANK/QAGS practice).
 */
export const HUMAN_LABEL_RULES = ['unanimous', 'majority'] as const;
export type HumanLabelRule = (typeof HUMAN_LABEL_RULES)[number];

/** Whose annotation-phase labels are the human reference: the project's people, imported label sets, or both. */
export const REFERENCE_SETS = ['people', 'imported', 'both'] as const;
export type ReferenceSet = (typeof REFERENCE_SETS)[number];

export interface ResolvedHumanLabel {
  label: HumanLabel | null;
  status: HumanLabelStatus;
}

/** The review queue whose decisions settle annotator disagreements (and may enter p̂/ε̂). */
export const ADJUDICATION_QUEUE = 'human-human' satisfies ReviewQueueKind;

/**
 * An adjudicated label wins; otherwise one annotator's label, or the label all annotators agree
 * on. Several annotators who differ (e.g. faithful vs unclear):
 * - `unanimous` (default): unresolved (label null, status `disagreement`);
 * - `majority`: the mode of the usable labels (faithful/unfaithful; unclear votes do not vote),
 *   status `majority`; as many faithful as unfaithful votes is a tie (label null, status `tie`).
 * The analysis leaves unresolved units out and counts them.
 */
export function resolveHumanLabel(
  labelsByAnnotator: Readonly<Record<string, HumanLabel>> | ReadonlyMap<string, HumanLabel>,
  adjudicated?: HumanLabel | null,
  rule: HumanLabelRule = 'unanimous',
): ResolvedHumanLabel {
  if (adjudicated !== undefined && adjudicated !== null) return { label: adjudicated, status: 'adjudicated' };
  const labels = labelsByAnnotator instanceof Map ? [...labelsByAnnotator.values()] : Object.values(labelsByAnnotator);
  if (labels.length === 0) return { label: null, status: 'none' };
  const first = labels[0]!;
  if (labels.length === 1) return { label: first, status: 'single' };
  if (labels.every((label) => label === first)) return { label: first, status: 'agreed' };
  if (rule === 'unanimous') return { label: null, status: 'disagreement' };
  // Labels differ, so at least one of them is usable (all-unclear would have agreed).
  const faithful = labels.filter((label) => label === 'faithful').length;
  const unfaithful = labels.filter((label) => label === 'unfaithful').length;
  if (faithful === unfaithful) return { label: null, status: 'tie' };
  return { label: faithful > unfaithful ? 'faithful' : 'unfaithful', status: 'majority' };
}

/**
 * The several-annotator rule over any statuses (a scaffold item's preserved / partial / missing /
 * misrepresented, answered / unanswered): one value, or the value all give (`agreed`); values that
 * differ are unresolved under `unanimous` (`disagreement`), and under `majority` resolve to the
 * most frequent value unless two or more share the top count (`tie`, unresolved).
 */
export function resolveByRule<T extends string>(
  values: readonly T[],
  rule: HumanLabelRule,
): { value: T | null; status: Exclude<HumanLabelStatus, 'adjudicated'> } {
  if (values.length === 0) return { value: null, status: 'none' };
  const first = values[0]!;
  if (values.length === 1) return { value: first, status: 'single' };
  if (values.every((v) => v === first)) return { value: first, status: 'agreed' };
  if (rule === 'unanimous') return { value: null, status: 'disagreement' };
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const top = Math.max(...counts.values());
  const leaders = [...counts].filter(([, n]) => n === top);
  return leaders.length > 1 ? { value: null, status: 'tie' } : { value: leaders[0]![0], status: 'majority' };
}

/** Several annotators whose current labels differ (before any adjudication): the human-human queue's sentences. */
export function annotatorsDisagree(ratings: Readonly<Record<string, HumanLabel>>): boolean {
  return resolveHumanLabel(ratings).status === 'disagreement';
}

/** The current (latest) label event of one (unit, person, phase); label null = cleared. */
export interface CurrentLabelEvent {
  annotator: string;
  phase: Phase;
  label: HumanLabel | null;
  /** Review phase: the queue the decision was recorded from (null: imported, or older than schema 3). */
  queue: ReviewQueueKind | null;
}

/** A review-phase decision that is a review label (Table 4): labelled, and not from the adjudication queue. */
export function isReviewLabelDecision(event: CurrentLabelEvent): boolean {
  return event.phase === 'review' && event.label !== null && event.queue !== ADJUDICATION_QUEUE;
}

/** The label several people's labels agree on (one person: theirs); none, or disagreement: null. */
function agreedLabel(labels: readonly HumanLabel[]): HumanLabel | null {
  if (labels.length === 0) return null;
  return labels.every((label) => label === labels[0]) ? labels[0]! : null;
}

/** The audit-adjudicated label of a unit from its current label events (module comment). */
export function auditAdjudicatedLabel(events: readonly CurrentLabelEvent[]): HumanLabel | null {
  const annotators = events.filter((e) => e.phase === 'annotation' && e.label !== null).length;
  if (annotators < 2) return null;
  return agreedLabel(
    events
      .filter((e) => e.phase === 'review' && e.queue === ADJUDICATION_QUEUE && e.label !== null)
      .map((e) => e.label!),
  );
}

/** The review label of a unit from its current label events (module comment). */
export function reviewLabel(events: readonly CurrentLabelEvent[]): HumanLabel | null {
  return agreedLabel(events.filter(isReviewLabelDecision).map((e) => e.label!));
}

/** Every human-side field of a unit, from its current label events (one per person and phase). */
export interface UnitHumanLabels {
  /** The resolved annotation label (audit-adjudicated first). */
  human: HumanLabel | null;
  humanStatus: HumanLabelStatus;
  /** The review label (Table 4 only). */
  review: HumanLabel | null;
  /** The annotators' own current annotation-phase labels (agreement block). */
  ratings: Record<string, HumanLabel>;
}

/**
 * The unit's labels by the rules above. `adjudicated`: an adjudicated label from elsewhere (the
 * repository's hook); undefined: the audit-adjudicated label of these events. `rule`: how several
 * annotators resolve (default `unanimous`).
 */
export function unitHumanLabels(
  events: readonly CurrentLabelEvent[],
  adjudicated?: HumanLabel | null,
  rule: HumanLabelRule = 'unanimous',
): UnitHumanLabels {
  const ratings = new Map<string, HumanLabel>();
  for (const e of events) if (e.phase === 'annotation' && e.label !== null) ratings.set(e.annotator, e.label);
  const human = resolveHumanLabel(
    ratings,
    adjudicated === undefined ? auditAdjudicatedLabel(events) : adjudicated,
    rule,
  );
  // fromEntries defines own properties, so an annotator named like an Object member stays data.
  return {
    human: human.label,
    humanStatus: human.status,
    review: reviewLabel(events),
    ratings: Object.fromEntries(ratings),
  };
}

/**
 * The audit-adjudicated label of every unit that has one, from current label events of many units
 * (what a repository reads), by summary key then unit index.
 */
export function adjudicatedLabelRows(
  events: readonly (CurrentLabelEvent & { summaryKey: number; unitIndex: number })[],
): Array<{ summaryKey: number; unitIndex: number; label: HumanLabel }> {
  const byUnit = new Map<string, { summaryKey: number; unitIndex: number; events: CurrentLabelEvent[] }>();
  for (const e of events) {
    const key = `${e.summaryKey}:${e.unitIndex}`;
    const unit = byUnit.get(key);
    if (unit) unit.events.push(e);
    else byUnit.set(key, { summaryKey: e.summaryKey, unitIndex: e.unitIndex, events: [e] });
  }
  const out: Array<{ summaryKey: number; unitIndex: number; label: HumanLabel }> = [];
  for (const unit of byUnit.values()) {
    const label = auditAdjudicatedLabel(unit.events);
    if (label !== null) out.push({ summaryKey: unit.summaryKey, unitIndex: unit.unitIndex, label });
  }
  return out.sort((a, b) => a.summaryKey - b.summaryKey || a.unitIndex - b.unitIndex);
}
