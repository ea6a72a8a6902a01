/**
 * Review queues (issue 5) over a project's rows: loading a dataset (or one summary) into the
 * analysis input shape, then the queues, Table 4 and the corrected global labels, reusing the pure
 * audit code of shared/analysis (computeSuspicious, computeDisagreements, resolveHumanLabel).
 *
 * Label conventions (stated once, used by every review.* call and the exports):
 * - A unit's *annotation label* is resolveHumanLabel over the annotators' current
 *   annotation-phase labels, with the *audit-adjudicated label* taking precedence (below).
 * - The *audit-adjudicated label* (the only review-phase label that may enter p̂, ε̂ and the
 *   human composition): the label the current decisions recorded from the **human-human** queue
 *   agree on, on a unit that currently has annotation labels from ≥ 2 annotators.
 *   ReviewRepository.adjudicatedLabels applies the same rule in SQL for the analysis loader.
 * - A unit's *review label* (Table 4) is the label its adjudicators' current decisions from the
 *   other queues (suspicious, human-judge, judges-split; and imported review labels, which have
 *   no queue) agree on; adjudicators who disagree: none. These decisions were prompted by what the
 *   judges said (PROTOCOL: suspicious-example adjudication never enters p̂/ε̂), so they feed only
 *   Table 4 and the corrected global labels. The analysis loader builds units' `review` field by
 *   the same rule, so review.table and `analyze --json` agree.
 */
import { computeDisagreements } from '../../../shared/analysis/disagreements';
import { resolveHumanLabel } from '../../../shared/analysis/human-label';
import { compareByDocThenSummary, compareCodeUnits, isAnnotated } from '../../../shared/analysis/prepare';
import { computeSuspicious } from '../../../shared/analysis/suspicious';
import type { AnalysisSummary, AnalysisUnit, JudgePrediction, SuspiciousReport } from '../../../shared/analysis/types';
import type { ReviewQueueKind } from '../../../shared/api';
import { ERROR_TYPES, type ErrorType, type GlobalLabel, type HumanLabel } from '../../../shared/domain';
import type { ReviewLabelRow, ReviewRepository, ReviewSummaryRow, ReviewUnitRow } from '../../../db/reviewRepository';

export interface LoadedUnit {
  row: ReviewUnitRow;
  /** What shared/analysis reads (human = annotation label with the audit-adjudicated one first; review = Table 4 label). */
  analysis: AnalysisUnit;
  /** Current annotation-phase labels (non-null), one per annotator. */
  annotations: ReviewLabelRow[];
  /** Current review-phase events, one per adjudicator (label null: cleared). */
  decisions: ReviewLabelRow[];
  auditAdjudicated: HumanLabel | null;
}

export interface LoadedSummary {
  row: ReviewSummaryRow;
  analysis: AnalysisSummary;
  units: LoadedUnit[];
}

export interface LoadedDataset {
  name: string;
  summaries: LoadedSummary[];
  /** Judges with a prediction in the dataset, in creation order (letters for anonymised reveal). */
  judgesByCreation: string[];
}

/** The default judge panel: every judge with a prediction in the dataset, in code-unit order (as the analysis). */
export function defaultPanel(dataset: LoadedDataset | { judgesByCreation: string[] }): string[] {
  return [...dataset.judgesByCreation].sort(compareCodeUnits);
}

/** The audit-adjudicated label of a unit (module comment). */
export function auditAdjudicatedLabel(annotations: readonly ReviewLabelRow[], decisions: readonly ReviewLabelRow[]): HumanLabel | null {
  if (annotations.length < 2) return null;
  const labels = decisions.filter((d) => d.queue === 'human-human' && d.label !== null).map((d) => d.label!);
  if (labels.length === 0) return null;
  return labels.every((l) => l === labels[0]) ? labels[0]! : null;
}

/** Decisions that are review labels (Table 4): every current decision except those from the human-human queue. */
export function reviewDecisions(decisions: readonly ReviewLabelRow[]): ReviewLabelRow[] {
  return decisions.filter((d) => d.label !== null && d.queue !== 'human-human');
}

/** The review label of a unit: what the adjudicators' current review decisions agree on (not human-human ones). */
export function reviewLabelOf(decisions: readonly ReviewLabelRow[]): HumanLabel | null {
  const byPerson = new Map<string, HumanLabel>();
  for (const d of reviewDecisions(decisions)) byPerson.set(d.annotator, d.label!);
  return byPerson.size === 0 ? null : resolveHumanLabel(byPerson).label;
}

/** Reads a dataset (or one summary of it, by key) in one transaction. */
export function loadDataset(repo: ReviewRepository, dataset: string, key: number | null = null): LoadedDataset {
  return repo.transaction(() => {
    const summaries = repo.summaries(dataset, key);
    const units = repo.units(dataset, key);
    const labels = repo.currentLabels(dataset, key);
    const predictions = repo.predictions(dataset, key);
    const judgesByCreation = repo.datasetJudges(dataset);

    const labelsByUnit = new Map<number, ReviewLabelRow[]>();
    for (const l of labels) {
      const list = labelsByUnit.get(l.unitId);
      if (list) list.push(l);
      else labelsByUnit.set(l.unitId, [l]);
    }
    const predictionsByUnit = new Map<number, Array<[string, JudgePrediction]>>();
    for (const p of predictions) {
      const list = predictionsByUnit.get(p.unitId) ?? [];
      list.push([p.judge, { hard: p.hard, soft: p.soft }]);
      predictionsByUnit.set(p.unitId, list);
    }
    const unitsBySummary = new Map<number, LoadedUnit[]>(summaries.map((s) => [s.key, []]));
    for (const u of units) {
      const own = labelsByUnit.get(u.id) ?? [];
      const annotations = own.filter((l) => l.phase === 'annotation' && l.label !== null);
      const decisions = own.filter((l) => l.phase === 'review');
      const auditAdjudicated = auditAdjudicatedLabel(annotations, decisions);
      const human = resolveHumanLabel(new Map(annotations.map((a) => [a.annotator, a.label!])), auditAdjudicated);
      unitsBySummary.get(u.summaryKey)?.push({
        row: u,
        annotations,
        decisions,
        auditAdjudicated,
        analysis: {
          index: u.index,
          text: u.text,
          human: human.label,
          humanStatus: human.status,
          review: reviewLabelOf(decisions),
          // fromEntries defines own properties: a judge named like an Object member stays data.
          judges: Object.fromEntries(predictionsByUnit.get(u.id) ?? []),
        },
      });
    }
    return {
      name: dataset,
      judgesByCreation,
      summaries: summaries.map((row): LoadedSummary => {
        const loaded = unitsBySummary.get(row.key) ?? [];
        const analysisUnits = loaded.map((u) => u.analysis);
        return {
          row,
          units: loaded,
          analysis: {
            summaryId: row.summaryId,
            docId: row.docId,
            globalLabel: row.globalLabel,
            units: analysisUnits,
            annotated: analysisUnits.some((u) => u.humanStatus !== 'none'),
          },
        };
      }),
    };
  });
}

// --- queues ---------------------------------------------------------------------------------

export interface QueueEntry {
  summary: LoadedSummary;
  /** Unit indexes to decide, ascending. */
  marked: number[];
}

export interface QueueResult {
  /** suspicious: PROTOCOL's pool (before the fragment filter); others: summaries with a marked sentence. */
  pool: number;
  /** Sorted by doc id, then summary id (code-unit order). */
  entries: QueueEntry[];
  /** suspicious only: the audit's report (for Table 4). */
  suspicious: SuspiciousReport | null;
}

/** Analyses leave out summaries with fewer than 2 sentences (PROTOCOL conventions); the suspicious queue follows them. */
const analysed = (summaries: LoadedSummary[]) => summaries.filter((s) => s.units.length >= 2);

function fromUnitSets(summaries: LoadedSummary[], marked: Map<string, Set<number>>): QueueEntry[] {
  return summaries
    .filter((s) => (marked.get(s.row.summaryId)?.size ?? 0) > 0)
    .map((summary) => ({ summary, marked: [...marked.get(summary.row.summaryId)!].sort((a, b) => a - b) }));
}

/**
 * The summaries of a queue and their marked sentences, uncapped and unfiltered.
 * - suspicious: computeSuspicious (global label 1, every panel judge flags ≥ 1 sentence; marked =
 *   flagged by all panel judges, fragments < 5 word tokens removed), summaries with ≥ 2 sentences.
 * - human-judge: computeDisagreements' human_vs_judge, union over the panel: sentences whose
 *   usable human label (faithful/unfaithful) a panel judge's hard label contradicts.
 * - judges-split: computeDisagreements' judges_split: sentences of annotated summaries where the
 *   panel judges with a hard label do not all agree (the analysis report's list).
 * - human-human: sentences whose annotators' current annotation-phase labels differ (unclear
 *   included), whether or not they have since been adjudicated (decided ones stay, marked decided).
 * Human-judge, judges-split and human-human include single-sentence summaries.
 */
export function computeQueue(queue: ReviewQueueKind, summaries: LoadedSummary[], panel: string[]): QueueResult {
  const sortEntries = (entries: QueueEntry[]) => entries.sort((a, b) => compareByDocThenSummary(a.summary.analysis, b.summary.analysis));
  if (queue === 'suspicious') {
    const candidates = analysed(summaries);
    const report = computeSuspicious(
      candidates.map((s) => s.analysis),
      panel,
      Number.MAX_SAFE_INTEGER,
    );
    const byId = new Map(candidates.map((s) => [s.row.summaryId, s]));
    // Already in the protocol's order (doc id, then summary id).
    const entries = report.listed.map((entry) => ({ summary: byId.get(entry.summary_id)!, marked: [...entry.flagged_sentences].sort((a, b) => a - b) }));
    return { pool: report.pool, entries, suspicious: report };
  }
  const marked = new Map<string, Set<number>>();
  const mark = (summaryId: string, index: number) => {
    const set = marked.get(summaryId) ?? new Set<number>();
    set.add(index);
    marked.set(summaryId, set);
  };
  if (queue === 'human-human') {
    for (const s of summaries) {
      for (const u of s.units) {
        const labels = new Set(u.annotations.map((a) => a.label));
        if (u.annotations.length >= 2 && labels.size > 1) mark(s.row.summaryId, u.row.index);
      }
    }
  } else {
    const annotated = summaries.filter((s) => isAnnotated(s.analysis)).map((s) => s.analysis);
    const report = computeDisagreements([], annotated, panel);
    if (queue === 'human-judge') {
      for (const list of Object.values(report.human_vs_judge)) for (const d of list) mark(d.summary_id, d.sentence);
    } else {
      for (const d of report.judges_split) mark(d.summary_id, d.sentence);
    }
  }
  const entries = sortEntries(fromUnitSets(summaries, marked));
  return { pool: entries.length, entries, suspicious: null };
}

/** Does a marked sentence carry this error type in a current human label (any annotator's, or a decision)? */
export function matchesErrorType(entry: QueueEntry, errorType: ErrorType): boolean {
  return entry.marked.some((index) => {
    const unit = entry.summary.units.find((u) => u.row.index === index);
    return unit !== undefined && [...unit.annotations, ...unit.decisions].some((l) => l.label !== null && l.errorType === errorType);
  });
}

/** Current decisions with a label on a unit: one reviewer's, or everyone's. */
export function decisionsOf(unit: LoadedUnit, reviewer: string | null): ReviewLabelRow[] {
  return unit.decisions.filter((d) => d.label !== null && (reviewer === null || d.annotator === reviewer));
}

/** A decision whose blind time (its first labelled event) is under fastMs; no recorded time: not flagged. */
export function isFast(decision: ReviewLabelRow, fastMs: number): boolean {
  return decision.blindTimeMs !== null && decision.blindTimeMs < fastMs;
}

export function unitAt(summary: LoadedSummary, index: number): LoadedUnit | undefined {
  return summary.units.find((u) => u.row.index === index);
}

// --- Table 4 --------------------------------------------------------------------------------

export type ErrorTypeCounts = Record<ErrorType | 'untyped', number>;

export function emptyErrorTypeCounts(): ErrorTypeCounts {
  return Object.fromEntries([...ERROR_TYPES, 'untyped'].map((t) => [t, 0])) as ErrorTypeCounts;
}

/**
 * Error type of an unfaithful review label: that of the latest current review decision saying
 * unfaithful (untyped when it has none).
 */
export function reviewErrorType(unit: LoadedUnit): ErrorType | null {
  const unfaithful = reviewDecisions(unit.decisions)
    .filter((d) => d.label === 'unfaithful')
    // Latest first by the rule of db/latest.ts: created_at, then event id (merged events get new ids).
    .sort((a, b) => (a.lastAt < b.lastAt ? 1 : a.lastAt > b.lastAt ? -1 : b.eventId - a.eventId));
  return unfaithful[0]?.errorType ?? null;
}

export interface Table4 {
  dataset: string;
  judgeCount: number;
  pool: number;
  afterFragmentFilter: number;
  cap: number;
  listed: number;
  reviewed: number;
  flaggedSentences: number;
  unfaithful: number;
  faithful: number;
  unclear: number;
  notReviewed: number;
  pctUnfaithful: number | null;
  pctUnfaithfulN: number;
  errorTypes: ErrorTypeCounts;
  fast: number;
}

/** Table 4 of one dataset: computeSuspicious's review table over the capped list, plus error types and fast decisions. */
export function computeTable4(dataset: LoadedDataset, panel: string[], cap: number, fastMs: number): Table4 {
  const candidates = analysed(dataset.summaries);
  const report = computeSuspicious(
    candidates.map((s) => s.analysis),
    panel,
    cap,
  );
  const byId = new Map(candidates.map((s) => [s.row.summaryId, s]));
  const errorTypes = emptyErrorTypeCounts();
  let fast = 0;
  for (const entry of report.listed) {
    const summary = byId.get(entry.summary_id)!;
    entry.flagged_sentences.forEach((index, i) => {
      const unit = unitAt(summary, index)!;
      if (entry.review_labels[i] === 'unfaithful') errorTypes[reviewErrorType(unit) ?? 'untyped'] += 1;
      fast += reviewDecisions(unit.decisions).filter((d) => isFast(d, fastMs)).length;
    });
  }
  const r = report.review;
  return {
    dataset: dataset.name,
    judgeCount: panel.length,
    pool: report.pool,
    afterFragmentFilter: report.after_fragment_filter,
    cap,
    listed: report.listed.length,
    reviewed: r.reviewed_summaries,
    flaggedSentences: r.flagged_sentences,
    unfaithful: r.unfaithful,
    faithful: r.faithful,
    unclear: r.unclear,
    notReviewed: r.not_reviewed,
    pctUnfaithful: r.pct_unfaithful.value,
    pctUnfaithfulN: r.pct_unfaithful.n,
    errorTypes,
    fast,
  };
}

// --- resolved labels and corrected global labels ---------------------------------------------

export type LabelSource = 'adjudicator' | 'reviewer' | 'agreement' | 'annotator';

/**
 * The best human label of a unit and where it comes from, in this order:
 * - `adjudicator`: the audit-adjudicated label (human-human queue; also used by p̂ and ε̂);
 * - `reviewer`: the review label (other queues or imported review labels; Table 4 and the
 *   corrected global label only, never p̂/ε̂);
 * - `agreement` / `annotator`: the annotation label (several annotators agreeing / one annotator).
 * null: nobody labeled it, or people disagree and no decision settles it.
 */
export function resolvedLabel(unit: LoadedUnit): { label: HumanLabel; source: LabelSource } | null {
  if (unit.auditAdjudicated !== null) return { label: unit.auditAdjudicated, source: 'adjudicator' };
  const review = unit.analysis.review ?? null;
  if (review !== null) return { label: review, source: 'reviewer' };
  const { human, humanStatus } = unit.analysis;
  if (human === null) return null;
  return { label: human, source: humanStatus === 'agreed' ? 'agreement' : 'annotator' };
}

export const CORRECTION_RULE =
  'Conjunctive rule over each sentence\'s adjudicated-or-resolved label (the human-vs-human adjudication, else the review ' +
  'decision the adjudicators of the other queues agree on, else the annotation label: one annotator, or all agreeing): ' +
  'unfaithful (0) as soon as one sentence is unfaithful; faithful (1) when ' +
  'every sentence has a label and those that are not unclear are all faithful (at least one); otherwise not determined (null). ' +
  'Unclear sentences are excluded. A flip is a determined corrected label that differs from the benchmark\'s.';

export interface CorrectionRow {
  key: number;
  summaryId: string;
  docId: string;
  benchmarkLabel: GlobalLabel | null;
  correctedLabel: GlobalLabel | null;
  basis: 'unfaithful_sentence' | 'all_sentences' | 'undetermined';
  sentences: number;
  faithful: number;
  unfaithful: number;
  unclear: number;
  unknown: number;
  adjudicated: number;
  flipped: boolean;
}

export function correctionOf(summary: LoadedSummary): CorrectionRow {
  let faithful = 0;
  let unfaithful = 0;
  let unclear = 0;
  let unknown = 0;
  let adjudicated = 0;
  for (const unit of summary.units) {
    const resolved = resolvedLabel(unit);
    if (resolved === null) unknown += 1;
    else {
      if (resolved.source === 'adjudicator' || resolved.source === 'reviewer') adjudicated += 1;
      if (resolved.label === 'faithful') faithful += 1;
      else if (resolved.label === 'unfaithful') unfaithful += 1;
      else unclear += 1;
    }
  }
  const basis = unfaithful > 0 ? 'unfaithful_sentence' : unknown === 0 && faithful > 0 ? 'all_sentences' : 'undetermined';
  const correctedLabel: GlobalLabel | null = basis === 'unfaithful_sentence' ? 0 : basis === 'all_sentences' ? 1 : null;
  const benchmarkLabel = summary.row.globalLabel;
  return {
    key: summary.row.key,
    summaryId: summary.row.summaryId,
    docId: summary.row.docId,
    benchmarkLabel,
    correctedLabel,
    basis,
    sentences: summary.units.length,
    faithful,
    unfaithful,
    unclear,
    unknown,
    adjudicated,
    flipped: correctedLabel !== null && benchmarkLabel !== null && correctedLabel !== benchmarkLabel,
  };
}

/** Summaries with ≥ 1 human label (annotation or review), by doc id then summary id. */
export function computeCorrections(dataset: LoadedDataset): CorrectionRow[] {
  return dataset.summaries
    .filter((s) => s.units.some((u) => u.annotations.length > 0 || u.decisions.some((d) => d.label !== null)))
    .sort((a, b) => compareByDocThenSummary(a.analysis, b.analysis))
    .map(correctionOf);
}

// --- anonymised names -------------------------------------------------------------------------

/** 0 → "A", 25 → "Z", 26 → "AA", … */
export function letters(index: number): string {
  let n = index;
  let out = '';
  do {
    out = String.fromCharCode(65 + (n % 26)) + out;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return out;
}
