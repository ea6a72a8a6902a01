/**
 * Import: files → parser → units → one transaction. Bad input imports nothing and names the
 * file, line and field; a cancelled import leaves the project as it was (nothing is written
 * before the final transaction); importing the same file twice changes nothing.
 *
 * Memory: an import up to STREAM_ABOVE_BYTES is read whole, in one pass. A larger one in a
 * line-oriented format (a parser with a `reader`: Loupe's summaries, JSONL or CSV) is streamed in
 * two passes over the file, so memory does not grow with it: pass 1 (yielding, cancellable) reads
 * it a chunk at a time, checks every record and keeps only small facts (ids, sentence counts,
 * document hashes); pass 2 reads it again inside the one transaction and writes, and refuses
 * (writing nothing) if the file's content hash is not the one pass 1 read.
 */
import { createHash, type Hash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImportResult, ImportSource } from '../../../shared/api';
import { detectionHead } from '../../../shared/formats/head';
import { PARSERS, detectKind } from '../../../shared/formats/registry';
import {
  ImportValidationError,
  type FileHead,
  type FormatParser,
  type ImportBatch,
  type ImportKind,
  type ImportProblem,
  type ImportedSummary,
  type RecordReader,
  type SourceFile,
  type StreamOptions,
} from '../../../shared/formats/types';
import type { NewSummary, Repository, SummaryWriter } from '../../../db/repository';
import { IMPORTED_CONFIG_HASH, type PredictionResult } from '../../../db/judgeRepository';
import { writeAccuracyImport } from './accuracy-write';
import { writeScaffoldImport } from './scaffold-write';
import { SummaryChecks } from './summary-checks';
import {
  basename,
  decodeText,
  fileChunks,
  listFolder,
  readHead,
  readSourceFile,
  sha256,
  textAsBytes,
  uploadedBytes,
} from './files';

/**
 * Text handed over in-process (tests, seeding a project): it takes the same road as uploaded
 * bytes (UTF-8 → strict decoder). Not part of the API contract, which carries bytes only.
 */
export interface InProcessTextSource {
  type: 'upload';
  name: string;
  text: string;
}

export interface ImportRequest {
  source: ImportSource | InProcessTextSource;
  as?: ImportKind;
  dataset?: string;
  /** How the user names the format on this host (CoreOptions.formatChoice); default APP_FORMAT_CHOICE. */
  formatChoice?: string;
  /** Imports of more bytes than this are streamed when their format allows (default STREAM_ABOVE_BYTES). */
  streamAboveBytes?: number;
  /** Bytes a streamed import reads at a time (default STREAM_CHUNK_BYTES). */
  chunkBytes?: number;
}

/**
 * Up to this size an import is read whole in one pass: about twice as fast as two passes (each
 * record is parsed and split once, not twice), at a memory cost of about three times the file.
 * Measured on the 82 MB bench file, same sitting: whole 3.7-6.8 s at 354 MB RSS, streamed
 * 5.6-12.3 s at 230 MB; so files to 128 MB stay whole (peak near 550 MB) and larger ones stream.
 */
export const STREAM_ABOVE_BYTES = 128 * 1024 * 1024;

/** Where the app (desktop and browser) names an import's format: the Import panel's Format menu. */
export const APP_FORMAT_CHOICE = 'choose it in the Format menu';

export interface ImportProgress {
  phase: 'reading' | 'parsing' | 'splitting' | 'checking' | 'writing';
  done: number;
  total: number;
}

export class ImportCancelled extends Error {
  constructor() {
    super('Import cancelled; the project is unchanged.');
    this.name = 'ImportCancelled';
  }
}

const YIELD_EVERY = 250;
const MAX_PROBLEMS = 200;
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface LoadedSources {
  mode: 'whole';
  files: SourceFile[];
  contentHash: string;
  kind: ImportKind;
  parser: FormatParser;
  label: string;
}

/** An import read a chunk at a time (twice): its files on disk, in order. */
interface StreamedSources {
  mode: 'stream';
  files: Array<{ path: string; label: string }>;
  /** A folder's content hash covers each file's name too, as a whole read's does. */
  folder: boolean;
  bytes: number;
  kind: ImportKind;
  parser: FormatParser & Required<Pick<FormatParser, 'reader'>>;
  label: string;
}

/** What detection sees of a file already in memory: the same head as readHead (shared/formats/head.ts). */
const headOf = detectionHead;

function parserFor(kind: ImportKind): FormatParser {
  const parser = PARSERS.find((p) => p.kind === kind);
  if (!parser) throw new Error(`No importer for kind ${kind}`);
  return parser;
}

/**
 * The format asked for, else the one detection recognises. Neither: the user must name it, in
 * the words of their host (`choice`: "pass --as KIND", or the app's Format menu).
 */
function chooseKind(heads: FileHead[], request: ImportRequest, label: string): ImportKind {
  if (request.as) return request.as;
  const detected = detectKind(heads);
  if ('kind' in detected) return detected.kind;
  const kinds = PARSERS.map((p) => p.kind).join(', ');
  const choice = request.formatChoice ?? APP_FORMAT_CHOICE;
  const sentence = `${choice.charAt(0).toUpperCase()}${choice.slice(1)}.`;
  if ('ambiguous' in detected) {
    throw new ImportValidationError(
      [
        {
          file: label,
          expected: `one recognisable format; it could be ${detected.ambiguous.join(' or ')}`,
          found: `${choice} (one of ${kinds})`,
        },
      ],
      `Cannot tell which format ${label} is: ${detected.ambiguous.join(' or ')}. ${sentence}`,
    );
  }
  throw new ImportValidationError(
    [
      {
        file: label,
        expected: `a file in one of the formats ${kinds}`,
        found: `no known format; ${choice} to see what does not fit`,
      },
    ],
    `Cannot tell which format ${label} is. ${sentence}`,
  );
}

/** The parser when it can read a chunk at a time and the import is over the budget; else null (read whole). */
function streamingParser(parser: FormatParser, bytes: number, request: ImportRequest) {
  const reader = parser.reader;
  return reader && bytes > (request.streamAboveBytes ?? STREAM_ABOVE_BYTES) ? { ...parser, reader } : null;
}

async function loadSources(request: ImportRequest): Promise<LoadedSources | StreamedSources> {
  const { source } = request;
  if (source.type === 'upload') {
    // Uploaded bytes are decoded exactly as a file read from disk: same errors, same lines.
    const bytes =
      'base64' in source ? uploadedBytes(source.name, source.base64) : textAsBytes(source.name, source.text);
    const file: SourceFile = { path: source.name, text: decodeText(bytes, source.name) };
    const kind = chooseKind([{ path: source.name, head: headOf(file.text) }], request, source.name);
    return {
      mode: 'whole',
      files: [file],
      contentHash: sha256([bytes]),
      kind,
      parser: parserFor(kind),
      label: source.name,
    };
  }
  const path = source.path;
  let info;
  try {
    info = await stat(path);
  } catch {
    throw new ImportValidationError([
      { file: path, expected: 'an existing file or folder', found: 'nothing at that path' },
    ]);
  }
  if (info.isDirectory()) {
    const relPaths = await listFolder(path);
    const heads = await Promise.all(relPaths.map((rel) => readHead(join(path, rel), rel)));
    const kind = chooseKind(heads, request, path);
    const parser = parserFor(kind);
    const chosen = parser.select ? parser.select(heads) : relPaths;
    if (chosen.length === 0) {
      throw new ImportValidationError([
        { file: path, expected: `the files of a ${kind} export`, found: 'none of them in this folder' },
      ]);
    }
    const sizes = await Promise.all(chosen.map(async (rel) => (await stat(join(path, rel))).size));
    const bytes = sizes.reduce((sum, n) => sum + n, 0);
    const streaming = streamingParser(parser, bytes, request);
    if (streaming) {
      const files = chosen.map((rel) => ({ path: join(path, rel), label: rel }));
      return { mode: 'stream', files, folder: true, bytes, kind, parser: streaming, label: path };
    }
    const read = await Promise.all(chosen.map((rel) => readSourceFile(join(path, rel), rel)));
    return {
      mode: 'whole',
      files: read.map((r) => r.file),
      contentHash: sha256(read.flatMap((r) => [r.file.path, r.bytes])),
      kind,
      parser,
      label: path,
    };
  }
  const label = basename(path);
  if (info.size > (request.streamAboveBytes ?? STREAM_ABOVE_BYTES)) {
    // Too large to read whole before knowing its format: detection reads the head alone.
    const kind = chooseKind([await readHead(path, label)], request, label);
    const streaming = streamingParser(parserFor(kind), info.size, request);
    if (streaming) {
      return {
        mode: 'stream',
        files: [{ path, label }],
        folder: false,
        bytes: info.size,
        kind,
        parser: streaming,
        label: path,
      };
    }
  }
  const { file, bytes } = await readSourceFile(path, label);
  const kind = chooseKind([{ path: label, head: headOf(file.text) }], request, label);
  return { mode: 'whole', files: [file], contentHash: sha256([bytes]), kind, parser: parserFor(kind), label: path };
}

/** A streamed import's reader options: documents are remembered by a hash of their text, not the text. */
function streamOptions(request: ImportRequest, sources: StreamedSources): StreamOptions {
  return {
    ...(request.dataset ? { dataset: request.dataset } : {}),
    files: sources.files.length,
    documentKey: (text) => createHash('sha256').update(text).digest('base64'),
  };
}

/**
 * A streamed import's files a chunk at a time through `reader`, each chunk hashed (a folder's file
 * names too, as a whole read's content hash has them); yields the bytes read so far after each chunk.
 */
function* readThrough(
  sources: StreamedSources,
  request: ImportRequest,
  reader: RecordReader,
  hash: Hash,
  onSummary: (summary: ImportedSummary) => void,
): Generator<number> {
  let before = 0;
  for (const file of sources.files) {
    if (sources.folder) hash.update(file.label);
    reader.startFile(file.label);
    let position = 0;
    for (const chunk of fileChunks(file.path, file.label, request.chunkBytes)) {
      hash.update(chunk.bytes);
      reader.push(chunk.text, onSummary);
      position = chunk.position;
      yield before + position;
    }
    reader.endFile(onSummary);
    before += position;
  }
}

/**
 * Pass 1 of a streamed import: every record read and checked as a whole read would, yielding
 * between chunks (progress in bytes; cancel stops between chunks). Keeps the batch without its
 * summaries (labels, predictions and notes are small) and the content hash.
 */
async function checkStreamed(
  sources: StreamedSources,
  request: ImportRequest,
  checks: SummaryChecks,
  onProgress: (p: ImportProgress) => void,
  signal: AbortSignal | undefined,
): Promise<{ batch: Omit<ImportBatch, 'summaries'>; contentHash: string }> {
  const reader = sources.parser.reader(streamOptions(request, sources));
  const hash = createHash('sha256');
  let read: ImportedSummary[] = [];
  for (const done of readThrough(sources, request, reader, hash, (summary) => read.push(summary))) {
    checks.check(read);
    read = [];
    onProgress({ phase: 'parsing', done, total: sources.bytes });
    await yieldToLoop();
    stopIfCancelled(signal);
    if (reader.full || checks.full) break;
  }
  checks.check(read);
  const batch = reader.finish(sources.files.map((f) => f.label));
  return { batch, contentHash: hash.digest('hex') };
}

function changedWhileImporting(sources: StreamedSources): ImportValidationError {
  return new ImportValidationError(
    [
      {
        file: sources.label,
        expected: 'the same file from start to end of the import',
        found: 'a file that changed while it was imported; import it again',
      },
    ],
    `Nothing was imported: ${sources.label} changed while it was being imported.`,
  );
}

/**
 * Pass 2 of a streamed import, inside its one transaction: the files read again (synchronously, a
 * chunk at a time) and the summaries pass 1 found new written. A file that is not what pass 1
 * read (another content hash, a record that no longer reads) throws, so the transaction writes nothing.
 */
function writeStreamed(
  sources: StreamedSources,
  request: ImportRequest,
  checks: SummaryChecks,
  writer: SummaryWriter,
  contentHash: string,
): number {
  const reader = sources.parser.reader(streamOptions(request, sources));
  const hash = createHash('sha256');
  let units = 0;
  let written = 0;
  const write = (summary: ImportedSummary) => {
    if (!checks.adds(summary)) return;
    const incoming = checks.toWrite(summary);
    if (!incoming) throw changedWhileImporting(sources);
    writer.insert(incoming);
    units += incoming.units.length;
    written += 1;
  };
  try {
    const chunks = readThrough(sources, request, reader, hash, write);
    while (!chunks.next().done);
    reader.finish(sources.files.map((f) => f.label));
  } catch (error) {
    // Unreadable now (gone, not UTF-8, a record with a problem): not the file pass 1 read.
    if (error instanceof ImportValidationError || (error instanceof Error && 'code' in error))
      throw changedWhileImporting(sources);
    throw error;
  }
  if (hash.digest('hex') !== contentHash || written !== checks.added) throw changedWhileImporting(sources);
  return units;
}

function stopIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ImportCancelled();
}

export async function runImport(
  repo: Repository,
  request: ImportRequest,
  onProgress: (p: ImportProgress) => void = () => {},
  signal?: AbortSignal,
): Promise<ImportResult> {
  onProgress({ phase: 'reading', done: 0, total: 1 });
  const loaded = await loadSources(request);
  stopIfCancelled(signal);
  const checks = new SummaryChecks(repo, MAX_PROBLEMS);
  const problems = checks.problems;
  let batch: Omit<ImportBatch, 'summaries'>;
  let contentHash: string;
  /** Writes the summaries this import adds (inside the transaction); returns the units added. */
  let writeSummaries: (writer: SummaryWriter) => number;
  if (loaded.mode === 'whole') {
    onProgress({ phase: 'parsing', done: 0, total: 1 });
    await yieldToLoop();
    const whole = loaded.parser.parse(loaded.files, request.dataset ? { dataset: request.dataset } : {});
    stopIfCancelled(signal);
    const pending: NewSummary[] = [];
    const total = whole.summaries.length;
    for (let i = 0; i < total && !checks.full; i += YIELD_EVERY) {
      onProgress({ phase: 'splitting', done: i, total });
      await yieldToLoop();
      stopIfCancelled(signal);
      pending.push(...checks.check(whole.summaries.slice(i, i + YIELD_EVERY)));
    }
    batch = whole;
    contentHash = loaded.contentHash;
    writeSummaries = (writer) => {
      let units = 0;
      for (const s of pending) {
        writer.insert(s);
        units += s.units.length;
      }
      return units;
    };
  } else {
    const read = await checkStreamed(loaded, request, checks, onProgress, signal);
    batch = read.batch;
    contentHash = read.contentHash;
    writeSummaries = (writer) => writeStreamed(loaded, request, checks, writer, read.contentHash);
  }
  const unchanged = checks.unchanged;
  onProgress({ phase: 'checking', done: 0, total: batch.labels.length });

  // Labels and predictions point at (dataset, summary_id, sentence_index): resolve them against
  // this batch and the project before anything is written.
  const storedUnitIds = new Map<string, Array<{ dataset: string; unitIds: number[] }>>();
  const storedUnits = (summaryId: string) => {
    let found = storedUnitIds.get(summaryId);
    if (!found) storedUnitIds.set(summaryId, (found = repo.unitIdsBySummary(summaryId, null)));
    return found;
  };
  const unitCount = (dataset: string | null, summaryId: string): Array<{ dataset: string; units: number }> => {
    const out = checks.addedUnits(dataset, summaryId);
    for (const r of storedUnits(summaryId)) {
      if ((dataset === null || r.dataset === dataset) && !out.some((o) => o.dataset === r.dataset))
        out.push({ dataset: r.dataset, units: r.unitIds.length });
    }
    return out;
  };
  const resolveTarget = (ref: {
    dataset: string | null;
    summaryId: string;
    sentenceIndex: number;
    source: ImportedSummary['source'];
  }): string | null => {
    const where = { file: ref.source.file, line: ref.source.line, record: ref.source.record };
    const matches = unitCount(ref.dataset, ref.summaryId);
    if (matches.length === 0) {
      problems.push({
        ...where,
        field: 'summary_id',
        expected: `a summary already in the project${ref.dataset ? ` (dataset "${ref.dataset}")` : ''}`,
        found: `"${ref.summaryId}"`,
      });
      return null;
    }
    if (matches.length > 1) {
      problems.push({
        ...where,
        field: 'dataset',
        expected: `a dataset: "${ref.summaryId}" exists in ${matches.map((m) => `"${m.dataset}"`).join(' and ')}`,
      });
      return null;
    }
    const match = matches[0]!;
    if (ref.sentenceIndex < 0 || ref.sentenceIndex >= match.units) {
      problems.push({
        ...where,
        field: 'sentence_index',
        expected: `an index from 0 to ${match.units - 1} (the summary has ${match.units} sentences)`,
        found: String(ref.sentenceIndex),
      });
      return null;
    }
    return match.dataset;
  };
  const labelTargets = batch.labels.map((l) => (problems.length < MAX_PROBLEMS ? resolveTarget(l) : null));
  const predictionTargets = batch.predictions.map((p) => (problems.length < MAX_PROBLEMS ? resolveTarget(p) : null));
  checkPredictions(repo, batch.predictions, predictionTargets, storedUnits, problems);
  if (problems.length > 0) throw new ImportValidationError(problems.slice(0, MAX_PROBLEMS));
  stopIfCancelled(signal);

  onProgress({ phase: 'writing', done: 0, total: checks.added });
  await yieldToLoop();
  stopIfCancelled(signal);
  // From here on the import is one synchronous transaction: it either lands whole or not at all.
  const result = repo.transaction(() => {
    const importId = repo.recordImport({
      kind: loaded.kind,
      source: loaded.label,
      files: batch.filesUsed.length > 0 ? batch.filesUsed : loaded.files.map((f) => f.path),
      contentHash,
      summaries: checks.added,
      labels: batch.labels.length,
    });
    const unitsAdded = writeSummaries(repo.summaryWriter(importId));
    const unitIdCache = new Map<string, number[]>();
    const unitIdOf = (dataset: string, summaryId: string, index: number): number => {
      const key = `${dataset}\u0000${summaryId}`;
      let ids = unitIdCache.get(key);
      if (!ids) unitIdCache.set(key, (ids = repo.unitIdsBySummary(summaryId, dataset)[0]!.unitIds));
      return ids[index]!;
    };
    let labelsAdded = 0;
    batch.labels.forEach((l, i) => {
      const dataset = labelTargets[i]!;
      // Content + position in this exact file: the same file imported twice adds nothing.
      const importKey = sha256([
        contentHash,
        String(i),
        dataset,
        l.summaryId,
        String(l.sentenceIndex),
        l.annotator,
        l.phase,
        l.label,
        l.errorType ?? '',
        l.note ?? '',
      ]);
      if (repo.hasImportKey(importKey)) return;
      const unitId = unitIdOf(dataset, l.summaryId, l.sentenceIndex);
      const annotator = repo.ensureAnnotator(l.annotator, 'imported');
      repo.recordLabel({
        unitId,
        annotatorId: annotator.id,
        phase: l.phase,
        state: { label: l.label, errorType: l.errorType, note: l.note },
        timeSpentMs: null,
        cause: 'import',
        importKey,
        importId,
      });
      labelsAdded += 1;
    });
    // Predictions go to the judge's version (an imported judge, or the configured judge's version
    // with the file's config_hash); a prediction already stored there is left as it is.
    const versions = new Map<string, number>();
    const rows: PredictionResult[] = batch.predictions.map((p, i) => {
      const dataset = predictionTargets[i]!;
      const hash = p.configHash ?? IMPORTED_CONFIG_HASH;
      const versionKey = `${p.judge}\u0000${hash}`;
      let versionId = versions.get(versionKey);
      if (versionId === undefined) versions.set(versionKey, (versionId = repo.judges.importVersion(p.judge, hash)));
      return {
        unitId: unitIdOf(dataset, p.summaryId, p.sentenceIndex),
        versionId,
        hard: p.hard,
        soft: p.soft,
        raw: p.raw,
        errorType: p.errorType ?? null,
        sourceErrorType: p.sourceErrorType ?? null,
        parseError: null,
        errorKind: null,
        errorMessage: null,
        tokensIn: null,
        tokensOut: null,
        latencyMs: null,
        cacheKey: null,
        source: 'import',
        importId,
      };
    });
    const predictionsKept = repo.judges.savePredictions(rows);
    // Claims, key facts and their labels (realsumm, accuracy): resolved after the summaries they name.
    const accuracy = batch.accuracy ? writeAccuracyImport(repo, batch.accuracy, importId, contentHash) : null;
    // Semantic Scaffolds and alignments (scaffold, scaffold-alignments): against the documents and summaries stored.
    const scaffold = batch.scaffold ? writeScaffoldImport(repo, batch.scaffold, importId, contentHash) : null;
    return {
      unitsAdded,
      labelsAdded: labelsAdded + (accuracy?.labels ?? 0),
      predictionsKept: predictionsKept + (accuracy?.predictions ?? 0),
      accuracy,
      scaffold,
    };
  });
  const datasets = [
    ...new Set([
      ...checks.datasets,
      ...[...labelTargets, ...predictionTargets].filter((d): d is string => d !== null),
      // Scaffolds and claims/key facts name the datasets of the documents and summaries they attach to.
      ...(batch.scaffold ? [...batch.scaffold.scaffolds, ...batch.scaffold.alignments].map((s) => s.dataset) : []),
      ...(batch.accuracy
        ? Object.values(batch.accuracy).flatMap((records: Array<{ dataset: string }>) => records.map((r) => r.dataset))
        : []),
    ]),
  ].sort();
  onProgress({ phase: 'writing', done: checks.added, total: checks.added });
  return {
    kind: loaded.kind,
    datasets,
    filesUsed: batch.filesUsed.length > 0 ? batch.filesUsed : loaded.files.map((f) => f.path),
    summariesAdded: checks.added,
    summariesUnchanged: unchanged.size,
    unitsAdded: result.unitsAdded,
    labelsAdded: result.labelsAdded,
    labelsUnchanged: batch.labels.length - (result.labelsAdded - (result.accuracy?.labels ?? 0)),
    predictionsKept: result.predictionsKept,
    predictionsSkipped: batch.predictionsSkipped ?? [],
    labelsSkipped: batch.labelsSkipped ?? [],
    notes: batch.notes,
    ...(result.accuracy ? { accuracy: result.accuracy } : {}),
    ...(result.scaffold ? { scaffold: result.scaffold } : {}),
  };
}

/**
 * Predictions must not change what is stored: a judge configured in this project accepts only
 * its own versions (config_hash), and a sentence that already has a different prediction from
 * the same judge version is a conflict. Checked before anything is written.
 */
function checkPredictions(
  repo: Repository,
  predictions: ImportBatch['predictions'],
  targets: ReadonlyArray<string | null>,
  storedUnits: (summaryId: string) => Array<{ dataset: string; unitIds: number[] }>,
  problems: ImportProblem[],
): void {
  const judgeChecked = new Map<string, boolean>();
  // A version with no stored prediction (a judge's first import) cannot conflict: no lookup per row.
  const judgeHasStored = new Map<string, boolean>();
  predictions.forEach((p, i) => {
    const dataset = targets[i];
    if (dataset === null || dataset === undefined || problems.length >= MAX_PROBLEMS) return;
    const where = { file: p.source.file, line: p.source.line, record: p.source.record };
    const hash = p.configHash ?? IMPORTED_CONFIG_HASH;
    const judgeKey = `${p.judge}\u0000${hash}`;
    let fits = judgeChecked.get(judgeKey);
    if (fits === undefined) {
      const judge = repo.judges.judgeByName(p.judge);
      fits = !judge || judge.kind === 'imported' || repo.judges.versionExists(judge.id, hash);
      judgeChecked.set(judgeKey, fits);
      if (!fits) {
        problems.push({
          ...where,
          field: 'judge',
          expected: `a judge name that is not configured in this project, or the config_hash of one of its versions`,
          found: `"${p.judge}" (a configured ${judge!.kind} judge) with config_hash ${JSON.stringify(hash)}; rename the judge in the file`,
        });
      }
    }
    if (!fits) return;
    const unitId = storedUnits(p.summaryId).find((r) => r.dataset === dataset)?.unitIds[p.sentenceIndex];
    if (unitId === undefined) return; // a summary of this import: nothing stored yet
    let anyStored = judgeHasStored.get(judgeKey);
    if (anyStored === undefined)
      judgeHasStored.set(judgeKey, (anyStored = repo.judges.hasStoredPredictions(p.judge, hash)));
    if (!anyStored) return;
    const stored = repo.judges.storedPrediction(unitId, p.judge, hash);
    if (stored && (stored.hard !== p.hard || (stored.soft ?? null) !== (p.soft ?? null))) {
      problems.push({
        ...where,
        field: 'hard',
        expected: `the prediction already stored for "${p.judge}" on summary "${p.summaryId}" sentence ${p.sentenceIndex} (hard ${stored.hard}, soft ${stored.soft ?? 'none'})`,
        found: `hard ${p.hard}, soft ${p.soft ?? 'none'}; import it under another judge name`,
      });
    }
  });
}

export { decodeText };
