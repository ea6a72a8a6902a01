/**
 * Export of the labeled dataset: one row per sentence (and per annotator who labeled it), with
 * everything needed to reproduce the numbers elsewhere. Never carries API keys or settings.
 */
import type { ExportInput } from '../../../shared/api';
import { LOUPE_VERSION } from '../../../shared/domain';
import { writeCsv } from '../../../shared/formats/csv-write';
import type { HistoryEvent, Repository } from '../../../db/repository';
import { buildAccuracyExport } from './accuracy';
import { buildScaffoldExport } from './scaffold';
import { buildCard, REVIEW_EXPORT_COLUMNS, reviewRecords, unitAdjudications } from '../review/export';

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
  // Issue 5: the sentence's adjudicated-or-resolved label, its source and the summary's corrected global label.
  'adjudicated_label',
  'adjudicated_source',
  'corrected_global_label',
  // Issue 9: false when the current label was given after its summary's judge outputs or benchmark labels were revealed to its annotator.
  'blind',
] as const;

export interface ExportFile {
  fileName: string;
  mime: string;
  content: string;
  rows: number;
}

/**
 * Writes records as JSON Lines or as CSV with the given columns (CSV cells: JSON for nested values;
 * text that a spreadsheet would run as a formula gets a leading `'` unless `rawCsv`).
 */
export function writeRecords(stem: string, input: Pick<ExportInput, 'format' | 'rawCsv'>, records: Array<Record<string, unknown>>, columns: readonly string[]): ExportFile {
  const format = input.format;
  if (format === 'jsonl') {
    return {
      fileName: `${stem}.jsonl`,
      mime: 'application/x-ndjson',
      content: records.map((r) => JSON.stringify(r)).join('\n') + (records.length > 0 ? '\n' : ''),
      rows: records.length,
    };
  }
  const content = writeCsv(records, columns, { rawCells: input.rawCsv });
  return { fileName: `${stem}.csv`, mime: 'text/csv', content, rows: records.length };
}

export const fileStem = (projectName: string, dataset: string | undefined, what: string) => `${projectName}${dataset ? `-${dataset}` : ''}-${what}`;

/** Judge predictions: the `predictions` import format plus the judge version (config_hash). */
export const PREDICTION_EXPORT_COLUMNS = ['dataset', 'summary_id', 'sentence_index', 'judge', 'hard', 'soft', 'config_hash'] as const;

/** One row per (sentence, judge) with a hard label, current judge versions. Never a key or a setting. */
export function buildPredictionsExport(repo: Repository, input: Pick<ExportInput, 'format' | 'dataset' | 'rawCsv'>, projectName: string): ExportFile {
  const records = repo.judges.exportPredictions(input.dataset ?? null).map((r) => ({
    dataset: r.dataset,
    summary_id: r.summaryId,
    sentence_index: r.sentenceIndex,
    judge: r.judge,
    hard: r.hard,
    soft: r.soft,
    config_hash: r.configHash,
  }));
  return writeRecords(fileStem(projectName, input.dataset, 'predictions'), input, records, PREDICTION_EXPORT_COLUMNS);
}

/** Review results (issue 5): one row per current review decision (sentence × adjudicator). */
export function buildReviewExport(repo: Repository, input: Pick<ExportInput, 'format' | 'dataset' | 'rawCsv'>, projectName: string): ExportFile {
  return writeRecords(fileStem(projectName, input.dataset, 'review'), input, reviewRecords(repo, input.dataset ?? null), REVIEW_EXPORT_COLUMNS);
}

/**
 * The dataset card (issue 5): one JSON document beside the rows (not a line inside them, so
 * JSONL and CSV readers see rows only). Never a key, a key's source or an environment value.
 */
export function buildCardExport(repo: Repository, input: Pick<ExportInput, 'dataset'>, projectName: string): ExportFile {
  const card = buildCard(repo, input.dataset ?? null, projectName);
  return { fileName: `${fileStem(projectName, input.dataset, 'card')}.json`, mime: 'application/json', content: `${JSON.stringify(card, null, 2)}\n`, rows: 1 };
}

export function buildExport(repo: Repository, input: ExportInput, projectName: string): ExportFile {
  if (input.card) return buildCardExport(repo, input, projectName);
  if (input.review) return buildReviewExport(repo, input, projectName);
  if (input.predictions) return buildPredictionsExport(repo, input, projectName);
  if (input.accuracy) return buildAccuracyExport(repo, input, projectName);
  if (input.scaffold || input.scaffoldAlignments) return buildScaffoldExport(repo, input, projectName);
  const rows = repo.exportRows(input.dataset ?? null);
  const adjudications = unitAdjudications(repo, input.dataset ?? null);
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
      adjudicated_label: adjudications.get(r.unitId)?.adjudicatedLabel ?? null,
      adjudicated_source: adjudications.get(r.unitId)?.adjudicatedSource ?? null,
      corrected_global_label: adjudications.get(r.unitId)?.correctedGlobalLabel ?? null,
      blind: r.blind,
    };
    if (history) {
      record.history = (history.get(r.unitId) ?? []).filter((e) => e.annotator === r.annotator && e.phase === r.phase).map(stripUnit);
    }
    return record;
  });
  const columns = history ? [...EXPORT_COLUMNS, 'history'] : [...EXPORT_COLUMNS];
  return writeRecords(fileStem(projectName, input.dataset, 'labels'), input, records, columns);
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
  return { eventId: e.eventId, label: e.label, errorType: e.errorType, note: e.note, timeSpentMs: e.timeSpentMs, cause: e.cause, createdAt: e.createdAt, blind: e.blind };
}
