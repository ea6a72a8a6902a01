/**
 * Export of the labeled dataset: one row per sentence (and per annotator who labeled it), with
 * everything needed to reproduce the numbers elsewhere. Never carries API keys or settings.
 */
import { stringify } from 'csv-stringify/sync';
import type { ExportInput } from '../../shared/api';
import { LOUPE_VERSION } from '../../shared/domain';
import type { HistoryEvent, Repository } from '../../db/repository';

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
] as const;

export interface ExportFile {
  fileName: string;
  mime: string;
  content: string;
  rows: number;
}

/** Judge predictions: the `predictions` import format plus the judge version (config_hash). */
export const PREDICTION_EXPORT_COLUMNS = ['dataset', 'summary_id', 'sentence_index', 'judge', 'hard', 'soft', 'config_hash'] as const;

/** One row per (sentence, judge) with a hard label, current judge versions. Never a key or a setting. */
export function buildPredictionsExport(repo: Repository, input: Pick<ExportInput, 'format' | 'dataset'>, projectName: string): ExportFile {
  const records = repo.judges.exportPredictions(input.dataset ?? null).map((r) => ({
    dataset: r.dataset,
    summary_id: r.summaryId,
    sentence_index: r.sentenceIndex,
    judge: r.judge,
    hard: r.hard,
    soft: r.soft,
    config_hash: r.configHash,
  }));
  const stem = `${projectName}${input.dataset ? `-${input.dataset}` : ''}-predictions`;
  if (input.format === 'jsonl') {
    return {
      fileName: `${stem}.jsonl`,
      mime: 'application/x-ndjson',
      content: records.map((r) => JSON.stringify(r)).join('\n') + (records.length > 0 ? '\n' : ''),
      rows: records.length,
    };
  }
  const content = stringify(records, { header: true, columns: [...PREDICTION_EXPORT_COLUMNS] });
  return { fileName: `${stem}.csv`, mime: 'text/csv', content, rows: records.length };
}

export function buildExport(repo: Repository, input: ExportInput, projectName: string): ExportFile {
  if (input.predictions) return buildPredictionsExport(repo, input, projectName);
  const rows = repo.exportRows(input.dataset ?? null);
  const history = input.history ? groupHistory(repo.labelHistory(input.dataset ?? null)) : null;
  const records = rows.map((r) => {
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
    };
    if (history) {
      record.history = (history.get(r.unitId) ?? []).filter((e) => e.annotator === r.annotator && e.phase === r.phase).map(stripUnit);
    }
    return record;
  });
  const stem = `${projectName}${input.dataset ? `-${input.dataset}` : ''}-labels`;
  if (input.format === 'jsonl') {
    return {
      fileName: `${stem}.jsonl`,
      mime: 'application/x-ndjson',
      content: records.map((r) => JSON.stringify(r)).join('\n') + (records.length > 0 ? '\n' : ''),
      rows: records.length,
    };
  }
  const columns = history ? [...EXPORT_COLUMNS, 'history'] : [...EXPORT_COLUMNS];
  const content = stringify(
    records.map((r) => ({ ...r, likely_fragment: r.likely_fragment ? 1 : 0, history: r.history === undefined ? undefined : JSON.stringify(r.history) })),
    { header: true, columns, cast: { boolean: (v) => (v ? '1' : '0') } },
  );
  return { fileName: `${stem}.csv`, mime: 'text/csv', content, rows: records.length };
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
  return { eventId: e.eventId, label: e.label, errorType: e.errorType, note: e.note, timeSpentMs: e.timeSpentMs, cause: e.cause, createdAt: e.createdAt };
}
