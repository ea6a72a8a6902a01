/**
 * FRANK's XSum part as the tests use it: the FineSurE-format sample's BBC summaries of one
 * sentence (64 of them), each with FRANK's three annotators' votes, written out as a JSON Lines
 * file the importer reads as FineSurE.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchmark } from './benchmarks';

export interface FineSurERecord {
  doc_id: string;
  source: string;
  model: string;
  sentences: string[];
  raw_annotations: Record<string, { factuality_labels: number[] }>;
}

/** The one-sentence BBC records of frank-data-100.json, in file order. */
export function frankXsumRecords(): FineSurERecord[] {
  return readFileSync(benchmark('frank', 'finesure-format', 'frank-data-100.json'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as FineSurERecord)
    .filter((r) => r.source === 'bbc' && r.sentences.length === 1);
}

/** The summary id the importer gives a FineSurE record. */
export const frankSummaryId = (r: FineSurERecord) => `${r.doc_id}:${r.model}`;

/** Writes `records` to `dir`/frank-xsum.json (JSON Lines) and returns the path, ready to import. */
export function writeFrankXsum(dir: string, records: readonly FineSurERecord[]): string {
  const file = join(dir, 'frank-xsum.json');
  writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return file;
}
