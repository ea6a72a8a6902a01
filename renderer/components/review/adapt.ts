/**
 * The review card in the shape the annotation components read (document pane, summary text,
 * sentence list, error-type picker, note editor): a unit's `state` is the adjudicator's own
 * decision, nothing else. Marked and context sentences are told apart by `contextIds`.
 */
import type { AnnotationSummary, AnnotationUnit, ReviewCard, ReviewUnit } from '../../../shared/api';

export function unitAsAnnotation(unit: ReviewUnit): AnnotationUnit {
  return {
    id: unit.id,
    index: unit.index,
    text: unit.text,
    start: unit.start,
    end: unit.end,
    fragment: unit.fragment,
    state: unit.decision,
  };
}

export function cardAsSummary(card: ReviewCard): AnnotationSummary {
  return {
    key: card.key,
    dataset: card.dataset,
    summaryId: card.summaryId,
    docId: card.docId,
    summary: card.summary,
    document: card.document,
    splitter: card.splitter,
    units: card.units.map(unitAsAnnotation),
  };
}

export function contextIdsOf(card: ReviewCard): ReadonlySet<number> {
  return new Set(card.units.filter((unit) => !unit.marked).map((unit) => unit.id));
}
