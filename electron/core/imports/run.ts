/**
 * Import: files → parser → units → one transaction. Bad input imports nothing and names the
 * file, line and field; a cancelled import leaves the project as it was (nothing is written
 * before the final transaction); importing the same file twice changes nothing.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImportResult, ImportSource } from '../../../shared/api';
import { isLikelyFragment } from '../../../shared/domain';
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
  type SourceFile,
} from '../../../shared/formats/types';
import { SPLITTER, locateSentences, splitSentences } from '../../../shared/split/sentences';
import type { NewSummary, Repository, StoredSummary, UnitRecord } from '../../../db/repository';
import { IMPORTED_CONFIG_HASH, type PredictionResult } from '../../../db/judgeRepository';
import { writeAccuracyImport } from './accuracy-write';
import { writeScaffoldImport } from './scaffold-write';
import {
  basename,
  decodeText,
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
}

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
  files: SourceFile[];
  contentHash: string;
  kind: ImportKind;
  parser: FormatParser;
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

async function loadSources(request: ImportRequest): Promise<LoadedSources> {
  const { source } = request;
  if (source.type === 'upload') {
    // Uploaded bytes are decoded exactly as a file read from disk: same errors, same lines.
    const bytes =
      'base64' in source ? uploadedBytes(source.name, source.base64) : textAsBytes(source.name, source.text);
    const file: SourceFile = { path: source.name, text: decodeText(bytes, source.name) };
    const kind = chooseKind([{ path: source.name, head: headOf(file.text) }], request, source.name);
    return { files: [file], contentHash: sha256([bytes]), kind, parser: parserFor(kind), label: source.name };
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
    const read = await Promise.all(chosen.map((rel) => readSourceFile(join(path, rel), rel)));
    return {
      files: read.map((r) => r.file),
      contentHash: sha256(read.flatMap((r) => [r.file.path, r.bytes])),
      kind,
      parser,
      label: path,
    };
  }
  const label = basename(path);
  const { file, bytes } = await readSourceFile(path, label);
  const kind = chooseKind([{ path: label, head: headOf(file.text) }], request, label);
  return { files: [file], contentHash: sha256([bytes]), kind, parser: parserFor(kind), label: path };
}

/** Units of a summary: the split the parser hands over (the benchmark's, or one it made), else Loupe's splitter. */
function unitsOf(
  s: ImportedSummary,
  problems: ImportProblem[],
): { units: UnitRecord[]; splitter: { name: string; version: string } } | null {
  const where = { file: s.source.file, line: s.source.line, record: s.source.record };
  if (s.sentences) {
    const located = locateSentences(s.summary, s.sentences);
    if (!located) {
      problems.push({ ...where, field: 'sentences', expected: 'sentences that occur, in order, in the summary text' });
      return null;
    }
    return {
      units: s.sentences.map((text, idx) => ({
        idx,
        text,
        start: located[idx]!.start,
        end: located[idx]!.end,
        fragment: isLikelyFragment(text),
      })),
      // A split the parser made itself names its splitter; a benchmark's own split is "given" with its file.
      splitter: s.splitter ?? { name: 'given', version: s.source.file },
    };
  }
  const spans = splitSentences(s.summary);
  if (spans.length === 0) {
    problems.push({ ...where, field: 'summary', expected: 'a summary with at least one sentence' });
    return null;
  }
  return {
    units: spans.map((sp, idx) => ({
      idx,
      text: sp.text,
      start: sp.start,
      end: sp.end,
      fragment: isLikelyFragment(sp.text),
    })),
    splitter: SPLITTER,
  };
}

function sameSummary(stored: StoredSummary, incoming: NewSummary): boolean {
  return (
    stored.summary === incoming.summary &&
    stored.docId === incoming.docId &&
    (stored.label ?? null) === (incoming.label ?? null) &&
    stored.unitTexts.length === incoming.units.length &&
    stored.unitTexts.every((t, i) => t === incoming.units[i]!.text)
  );
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
  onProgress({ phase: 'parsing', done: 0, total: 1 });
  await yieldToLoop();
  const batch: ImportBatch = loaded.parser.parse(loaded.files, request.dataset ? { dataset: request.dataset } : {});
  stopIfCancelled(signal);

  const problems: ImportProblem[] = [];
  const pending: NewSummary[] = [];
  const unchanged = new Set<string>();
  const storedByDataset = new Map<string, Map<string, StoredSummary>>();
  const docsByDataset = new Map<string, Map<string, string | null>>();
  const seenInBatch = new Map<string, ImportedSummary>();
  const stored = (dataset: string) => {
    let m = storedByDataset.get(dataset);
    if (!m) storedByDataset.set(dataset, (m = repo.storedSummaries(dataset)));
    return m;
  };
  const storedDocs = (dataset: string) => {
    let m = docsByDataset.get(dataset);
    if (!m) docsByDataset.set(dataset, (m = repo.storedDocuments(dataset)));
    return m;
  };

  const total = batch.summaries.length;
  for (let i = 0; i < total; i += 1) {
    if (i % YIELD_EVERY === 0) {
      onProgress({ phase: 'splitting', done: i, total });
      await yieldToLoop();
      stopIfCancelled(signal);
      if (problems.length >= MAX_PROBLEMS) break;
    }
    const s = batch.summaries[i]!;
    const where = { file: s.source.file, line: s.source.line, record: s.source.record };
    const key = `${s.dataset}\u0000${s.summaryId}`;
    const earlier = seenInBatch.get(key);
    if (earlier) {
      problems.push({
        ...where,
        field: 'summary_id',
        expected: `a summary_id unique within dataset "${s.dataset}"`,
        found: `"${s.summaryId}" again (first at ${earlier.source.line ?? earlier.source.record})`,
      });
      continue;
    }
    seenInBatch.set(key, s);
    if (s.summary.trim() === '') {
      problems.push({ ...where, field: 'summary', expected: 'a non-empty summary' });
      continue;
    }
    const knownDoc = storedDocs(s.dataset).get(s.docId);
    if (knownDoc !== undefined && knownDoc !== null && s.document !== null && knownDoc !== s.document) {
      problems.push({
        ...where,
        field: 'document',
        expected: `the same text as document "${s.docId}" already in dataset "${s.dataset}"`,
        found: 'a different text',
      });
      continue;
    }
    const split = unitsOf(s, problems);
    if (!split) continue;
    const incoming: NewSummary = {
      dataset: s.dataset,
      docId: s.docId,
      document: s.document,
      summaryId: s.summaryId,
      summary: s.summary,
      label: s.label,
      meta: s.meta,
      units: split.units,
      splitter: split.splitter,
    };
    const existing = stored(s.dataset).get(s.summaryId);
    if (existing) {
      if (sameSummary(existing, incoming)) unchanged.add(key);
      else
        problems.push({
          ...where,
          field: 'summary_id',
          expected: `"${s.summaryId}" to match the summary already in dataset "${s.dataset}" (same text, document, label and sentences)`,
          found: 'different content; import it under another dataset name or id',
        });
      continue;
    }
    pending.push(incoming);
  }
  onProgress({ phase: 'checking', done: 0, total: batch.labels.length });

  // Labels and predictions point at (dataset, summary_id, sentence_index): resolve them against
  // this batch and the project before anything is written.
  const pendingById = new Map<string, NewSummary[]>();
  for (const n of pending) pendingById.set(n.summaryId, [...(pendingById.get(n.summaryId) ?? []), n]);
  const storedUnitIds = new Map<string, Array<{ dataset: string; unitIds: number[] }>>();
  const storedUnits = (summaryId: string) => {
    let found = storedUnitIds.get(summaryId);
    if (!found) storedUnitIds.set(summaryId, (found = repo.unitIdsBySummary(summaryId, null)));
    return found;
  };
  const unitCount = (dataset: string | null, summaryId: string): Array<{ dataset: string; units: number }> => {
    const out: Array<{ dataset: string; units: number }> = [];
    for (const n of pendingById.get(summaryId) ?? [])
      if (dataset === null || n.dataset === dataset) out.push({ dataset: n.dataset, units: n.units.length });
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

  onProgress({ phase: 'writing', done: 0, total: pending.length });
  await yieldToLoop();
  stopIfCancelled(signal);
  // From here on the import is one synchronous transaction: it either lands whole or not at all.
  const result = repo.transaction(() => {
    const importId = repo.recordImport({
      kind: loaded.kind,
      source: loaded.label,
      files: batch.filesUsed.length > 0 ? batch.filesUsed : loaded.files.map((f) => f.path),
      contentHash: loaded.contentHash,
      summaries: pending.length,
      labels: batch.labels.length,
    });
    let unitsAdded = 0;
    const writer = repo.summaryWriter(importId);
    for (const s of pending) {
      writer.insert(s);
      unitsAdded += s.units.length;
    }
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
        loaded.contentHash,
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
    const accuracy = batch.accuracy ? writeAccuracyImport(repo, batch.accuracy, importId, loaded.contentHash) : null;
    // Semantic Scaffolds and alignments (scaffold, scaffold-alignments): against the documents and summaries stored.
    const scaffold = batch.scaffold ? writeScaffoldImport(repo, batch.scaffold, importId, loaded.contentHash) : null;
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
      ...batch.summaries.map((s) => s.dataset),
      ...[...labelTargets, ...predictionTargets].filter((d): d is string => d !== null),
      // Scaffolds and claims/key facts name the datasets of the documents and summaries they attach to.
      ...(batch.scaffold ? [...batch.scaffold.scaffolds, ...batch.scaffold.alignments].map((s) => s.dataset) : []),
      ...(batch.accuracy
        ? Object.values(batch.accuracy).flatMap((records: Array<{ dataset: string }>) => records.map((r) => r.dataset))
        : []),
    ]),
  ].sort();
  onProgress({ phase: 'writing', done: pending.length, total: pending.length });
  return {
    kind: loaded.kind,
    datasets,
    filesUsed: batch.filesUsed.length > 0 ? batch.filesUsed : loaded.files.map((f) => f.path),
    summariesAdded: pending.length,
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
