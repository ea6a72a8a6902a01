/**
 * What every export writes: a file (name, MIME type, content, row count), as JSON Lines or as CSV
 * with fixed columns, named after the project, the dataset and what it holds.
 */
import type { ExportInput } from '../../../shared/api';
import { writeCsv } from '../../../shared/formats/csv-write';

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
export function writeRecords(
  stem: string,
  input: Pick<ExportInput, 'format' | 'rawCsv'>,
  records: Array<Record<string, unknown>>,
  columns: readonly string[],
): ExportFile {
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

export const fileStem = (projectName: string, dataset: string | undefined, what: string) =>
  `${projectName}${dataset ? `-${dataset}` : ''}-${what}`;
