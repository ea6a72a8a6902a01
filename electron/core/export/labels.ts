/**
 * The labels export: one row per sentence (and per annotator who labeled it), with everything needed
 * to reproduce the numbers elsewhere. Never carries API keys or settings.
 */
import type { ExportInput } from '../../../shared/api';
import { LOUPE_VERSION } from '../../../shared/domain';
import type { HistoryEvent, Repository } from '../../../db/repository';
import { unitAdjudications } from '../review/export';
import { recordsPlan, summaryBatches, type ExportPlan, type SummaryBatch } from './files';
import { exportFileStem } from '../../../shared/contract/export';

export const EXPORT_COLUMNS = [
  'dataset',
  'doc_id',
  'summary_id',
  'global_label',
  'sentence_index',
  'sentence',
  'start',
  'end',
  'likely_fragment',
  'annotator',
  'phase',
  'label',
  'error_type',
  'note',
  'first_labeled_at',
  'last_labeled_at',
  'time_spent_ms',
  'splitter',
  'splitter_version',
  'loupe_version',
  // The sentence's adjudicated-or-resolved label, its source and the summary's corrected global label.
  'adjudicated_label',
  'adjudicated_source',
  'corrected_global_label',
  // False when the current label was given after its summary's judge outputs or benchmark labels were revealed to its annotator.
  'blind',
] as const;

/** The labels export (the default): one row per sentence and annotator who labeled it, with the label history on request. */
export function labelsExportPlan(repo: Repository, input: ExportInput, projectName: string): ExportPlan {
  const dataset = input.dataset ?? null;
  const columns = input.history ? [...EXPORT_COLUMNS, 'history'] : [...EXPORT_COLUMNS];
  return recordsPlan(
    exportFileStem(projectName, input.dataset, 'labels'),
    input,
    function* () {
      for (const batch of summaryBatches(repo, dataset)) yield* labelRecords(repo, batch, input.history);
    },
    columns,
  );
}

function labelRecords(
  repo: Repository,
  { dataset, keys }: SummaryBatch,
  withHistory: boolean,
): Array<Record<string, unknown>> {
  const rows = repo.exportRows(dataset, keys);
  const adjudications = unitAdjudications(repo, dataset, keys);
  const history = withHistory ? groupHistory(repo.labelHistory(dataset, keys)) : null;
  return rows.map((r) => {
    const record: Record<string, unknown> = {
      dataset: r.dataset,
      doc_id: r.docId,
      summary_id: r.summaryId,
      global_label: r.globalLabel,
      sentence_index: r.sentenceIndex,
      sentence: r.text,
      start: r.start,
      end: r.end,
      likely_fragment: r.fragment,
      annotator: r.annotator,
      phase: r.phase,
      label: r.label,
      error_type: r.errorType,
      note: r.note,
      first_labeled_at: r.firstLabeledAt,
      last_labeled_at: r.lastLabeledAt,
      time_spent_ms: r.timeSpentMs,
      splitter: r.splitter,
      splitter_version: r.splitterVersion,
      loupe_version: LOUPE_VERSION,
      adjudicated_label: adjudications.get(r.unitId)?.adjudicatedLabel ?? null,
      adjudicated_source: adjudications.get(r.unitId)?.adjudicatedSource ?? null,
      corrected_global_label: adjudications.get(r.unitId)?.correctedGlobalLabel ?? null,
      blind: r.blind,
    };
    if (history) {
      record.history = (history.get(r.unitId) ?? [])
        .filter((e) => e.annotator === r.annotator && e.phase === r.phase)
        .map(stripUnit);
    }
    return record;
  });
}

function groupHistory(events: HistoryEvent[]): Map<number, HistoryEvent[]> {
  const byUnit = new Map<number, HistoryEvent[]>();
  for (const e of events) {
    const list = byUnit.get(e.unitId);
    if (list) list.push(e);
    else byUnit.set(e.unitId, [e]);
  }
  return byUnit;
}

function stripUnit(e: HistoryEvent): Omit<HistoryEvent, 'unitId' | 'annotator' | 'phase'> {
  return {
    eventId: e.eventId,
    label: e.label,
    errorType: e.errorType,
    note: e.note,
    timeSpentMs: e.timeSpentMs,
    cause: e.cause,
    createdAt: e.createdAt,
    blind: e.blind,
  };
}
