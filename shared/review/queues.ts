/**
 * Review queues: which summaries a queue holds and which of their sentences it marks for
 * a decision, over a loaded dataset. Pure; electron/core/review/service.ts serves them.
 */
import { computeDisagreements } from '../analysis/disagreements';
import { annotatorsDisagree } from '../analysis/human-label';
import { compareByDocThenSummary, isAnalysedSummary, isAnnotated } from '../analysis/prepare';
import { computeSuspicious } from '../analysis/suspicious';
import type { SuspiciousReport } from '../analysis/types';
import type { ReviewQueueKind } from '../contract/review';
import type { ErrorType } from '../domain';
import type { LoadedSummary, LoadedUnit } from './dataset';
import type { ReviewLabelRow } from './rows';

export interface QueueEntry {
  summary: LoadedSummary;
  /** Unit indexes to decide, ascending. */
  marked: number[];
}

export interface QueueResult {
  /** suspicious: the pool of docs/methods.md, "Suspicious examples and review" (before the fragment filter); others: summaries with a marked sentence. */
  pool: number;
  /** Sorted by doc id, then summary id (code-unit order). */
  entries: QueueEntry[];
  /** suspicious only: the audit's report (for Table 4). */
  suspicious: SuspiciousReport | null;
}

/** Analyses leave out summaries with fewer than 2 sentences (docs/methods.md, "Scopes"); the suspicious queue and Table 4 follow them. */
export const analysedSummaries = (summaries: readonly LoadedSummary[]): LoadedSummary[] =>
  summaries.filter(isAnalysedSummary);

function fromUnitSets(summaries: readonly LoadedSummary[], marked: Map<string, Set<number>>): QueueEntry[] {
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
export function computeQueue(
  queue: ReviewQueueKind,
  summaries: readonly LoadedSummary[],
  panel: string[],
): QueueResult {
  const sortEntries = (entries: QueueEntry[]) =>
    entries.sort((a, b) => compareByDocThenSummary(a.summary.analysis, b.summary.analysis));
  if (queue === 'suspicious') {
    const candidates = analysedSummaries(summaries);
    const report = computeSuspicious(
      candidates.map((s) => s.analysis),
      panel,
      Number.MAX_SAFE_INTEGER,
    );
    const byId = new Map(candidates.map((s) => [s.row.summaryId, s]));
    // Already in the protocol's order (doc id, then summary id).
    const entries = report.listed.map((entry) => ({
      summary: byId.get(entry.summary_id)!,
      marked: [...entry.flagged_sentences].sort((a, b) => a - b),
    }));
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
      for (const u of s.units) if (annotatorsDisagree(u.analysis.ratings ?? {})) mark(s.row.summaryId, u.row.index);
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

export function unitAt(summary: LoadedSummary, index: number): LoadedUnit | undefined {
  return summary.units.find((u) => u.row.index === index);
}

/** Does a marked sentence carry this error type in a current human label (any annotator's, or a decision)? */
export function matchesErrorType(entry: QueueEntry, errorType: ErrorType): boolean {
  return entry.marked.some((index) => {
    const unit = unitAt(entry.summary, index);
    return (
      unit !== undefined &&
      [...unit.annotations, ...unit.decisions].some((l) => l.label !== null && l.errorType === errorType)
    );
  });
}

/** Current decisions with a label on a unit: one reviewer's, or everyone's. */
export function decisionsOf(unit: LoadedUnit, reviewer: string | null): ReviewLabelRow[] {
  return unit.decisions.filter((d) => d.label !== null && (reviewer === null || d.annotator === reviewer));
}

/** Of a card's marked sentences, how many the reviewer has decided (review.card and review.record's progress). */
export function cardProgress(entry: QueueEntry, reviewer: string): { marked: number; decided: number } {
  const decided = entry.marked.filter((index) => decisionsOf(unitAt(entry.summary, index)!, reviewer).length > 0);
  return { marked: entry.marked.length, decided: decided.length };
}
