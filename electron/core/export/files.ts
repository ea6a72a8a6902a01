/**
 * What every export writes: a file (name, MIME type, its text, row count), as JSON Lines or as CSV
 * with fixed columns, named after the project, the dataset and what it holds.
 *
 * An export is first a plan (`ExportPlan`): its name and type, and its text as chunks produced on
 * demand from the rows it reads in bounded batches. `export.write` streams those chunks to a file
 * (memory flat in the project's size); `export.build` joins them into one answer for a host that
 * needs the text itself (a browser download).
 */
import type { WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { ExportInput } from '../../../shared/api';
import type { Repository } from '../../../db/repository';
import { csvChunks } from '../../../shared/formats/csv-write';

export interface ExportFile {
  fileName: string;
  mime: string;
  content: string;
  rows: number;
}

export interface ExportPlan {
  fileName: string;
  mime: string;
  /** The file's text in order; the generator returns the number of rows it wrote. */
  chunks(): Generator<string, number>;
}

/** Summaries whose rows an export reads at a time: memory stays flat in the project's size. */
export const EXPORT_BATCH_SUMMARIES = 500;

/** Up to `EXPORT_BATCH_SUMMARIES` summary keys of one dataset. */
export interface SummaryBatch {
  dataset: string;
  keys: number[];
}

/**
 * The export's summaries in batches, in export order (dataset, then summary id). A batch never
 * spans two datasets, so each batch's reads (rows, adjudications) touch its own dataset only.
 */
export function* summaryBatches(repo: Repository, dataset: string | null): Generator<SummaryBatch> {
  let batch: SummaryBatch | null = null;
  for (const { dataset: name, key } of repo.exportSummaryKeys(dataset)) {
    if (batch && (batch.dataset !== name || batch.keys.length === EXPORT_BATCH_SUMMARIES)) {
      yield batch;
      batch = null;
    }
    batch ??= { dataset: name, keys: [] };
    batch.keys.push(key);
  }
  if (batch) yield batch;
}

/** JSON Lines: records per chunk, so a chunk is one write of reasonable size. */
const JSONL_CHUNK_RECORDS = 1_000;

function* counted<T>(items: Iterable<T>, count: { rows: number }): Generator<T> {
  for (const item of items) {
    count.rows += 1;
    yield item;
  }
}

/**
 * Records as JSON Lines or as CSV with the given columns (CSV cells: JSON for nested values; text
 * that a spreadsheet would run as a formula gets a leading `'` unless `rawCsv`), read lazily.
 */
export function recordsPlan(
  stem: string,
  input: Pick<ExportInput, 'format' | 'rawCsv'>,
  records: () => Iterable<Record<string, unknown>>,
  columns: readonly string[],
): ExportPlan {
  if (input.format === 'jsonl')
    return {
      fileName: `${stem}.jsonl`,
      mime: 'application/x-ndjson',
      *chunks() {
        const count = { rows: 0 };
        let lines: string[] = [];
        for (const record of counted(records(), count)) {
          lines.push(`${JSON.stringify(record)}\n`);
          if (lines.length === JSONL_CHUNK_RECORDS) {
            yield lines.join('');
            lines = [];
          }
        }
        if (lines.length > 0) yield lines.join('');
        return count.rows;
      },
    };
  return {
    fileName: `${stem}.csv`,
    mime: 'text/csv',
    *chunks() {
      const count = { rows: 0 };
      yield* csvChunks(counted(records(), count), columns, { rawCells: input.rawCsv });
      return count.rows;
    },
  };
}

/** A file that is one small document already built (the dataset card, the scaffold lines). */
export function textPlan(fileName: string, mime: string, content: string, rows: number): ExportPlan {
  return {
    fileName,
    mime,
    *chunks() {
      if (content !== '') yield content;
      return rows;
    },
  };
}

/** The whole file in memory, each chunk passed through `transform` (the key redaction). */
export function collectExport(plan: ExportPlan, transform: (text: string) => string): ExportFile {
  const parts: string[] = [];
  const chunks = plan.chunks();
  let next = chunks.next();
  while (!next.done) {
    parts.push(transform(next.value));
    next = chunks.next();
  }
  return { fileName: plan.fileName, mime: plan.mime, content: parts.join(''), rows: next.value };
}

/** Streams the file to `sink` with back-pressure, each chunk through `transform`; answers rows and bytes written. */
export async function streamExport(
  plan: ExportPlan,
  sink: WriteStream,
  transform: (text: string) => string,
): Promise<{ rows: number; bytes: number }> {
  const chunks = plan.chunks();
  let bytes = 0;
  let next = chunks.next();
  while (!next.done) {
    const text = transform(next.value);
    bytes += Buffer.byteLength(text, 'utf8');
    if (!sink.write(text)) await once(sink, 'drain');
    next = chunks.next();
  }
  return { rows: next.value, bytes };
}
