/**
 * Formats read a piece of text at a time (those with a `reader`: Loupe summaries, JSON Lines or
 * CSV, and HaluEval). A streamed import (electron/core/imports/run.ts) hands a file's decoded
 * chunks to such a reader, twice (to check, then to write); `parse` hands it each whole file as
 * one piece: one road for records either way. Whole-JSON formats (FRANK's .json, FaithBench,
 * SummEdits, …) and the formats not converted yet (labels, predictions, FineSurE, REALSumm,
 * TofuEval, accuracy, scaffolds) have no reader and are read whole.
 */
import type { ImportBatch, ImportedSummary, RecordReader, SourceFile } from './types';

/** A parser's `parse` through its reader: each file is one piece. */
export function parseWhole(reader: RecordReader, files: SourceFile[]): ImportBatch {
  const summaries: ImportedSummary[] = [];
  const keep = (summary: ImportedSummary) => summaries.push(summary);
  for (const file of files) {
    if (reader.full) break;
    reader.startFile(file.path);
    reader.push(file.text, keep);
    reader.endFile(keep);
  }
  return { ...reader.finish(files.map((f) => f.path)), summaries };
}
