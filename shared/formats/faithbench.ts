/**
 * FaithBench (Bao et al., NAACL 2025) release files: `{"samples": [...]}` with span-level human
 * annotations on LLM summaries (data/README.md, "faithbench/"). FaithBench ships no sentence
 * split and no global label, so this parser splits each summary with Loupe's splitter (and
 * passes that split on as `sentences`, so the import uses exactly it), maps each annotator's
 * spans onto those sentences, and derives the global label from the spans.
 */
import type { ErrorType, GlobalLabel, HumanLabel } from '../domain';
import { SPLITTER, splitSentences, type SentenceSpan } from '../split/sentences';
import { listForNote, nestingProblem } from './jsonl';
import { findExcessNesting } from './nesting';
import { findLoneSurrogate, loneSurrogateProblem } from './surrogates';
import {
  ImportValidationError,
  type FileHead,
  type FormatParser,
  type ImportBatch,
  type ImportedLabel,
  type ImportedSummary,
  type ImportProblem,
  type ParseOptions,
  type SkippedLabels,
  type SourceFile,
} from './types';

const SPAN_LABELS = ['Unwanted', 'Unwanted.Intrinsic', 'Unwanted.Extrinsic', 'Questionable', 'Benign'] as const;
type SpanLabel = (typeof SPAN_LABELS)[number];

const MAPPING =
  '`Unwanted`, `Unwanted.Intrinsic`, `Unwanted.Extrinsic` → unfaithful, `Questionable` → unclear, ' +
  '`Benign` ignored (not an error); per annotator, a sentence takes the worst span that overlaps it ' +
  '(a span that only touches its edge does not count), other sentences are faithful. Only annotators ' +
  'who marked a span on a summary label its sentences. `Unwanted.Extrinsic` alone → error type ' +
  '"not in source". Global label (not given by FaithBench): 1 when no `Unwanted*` span, else 0.';

/** Metadata keys that describe the sample; every other numeric one is a summary-level judge score. */
const SAMPLE_METADATA = new Set(['summarizer', 'raw_sample_id']);

interface SpanAnnotation {
  annotator: string;
  labels: SpanLabel[];
  start: number;
  end: number;
  text: string;
  note: string | null;
}

interface Sample {
  record: number;
  sampleId: string;
  source: string;
  summary: string;
  sentences: SentenceSpan[];
  metadata: Record<string, unknown>;
  annotations: SpanAnnotation[];
  /** Annotations with `label: []` (a highlight given no category): left out and listed. */
  uncategorised: Array<{ field: string; annotator: string; text: string }>;
}

/** What readAnnotation makes of one entry: a usable span, one with no category, or nothing (problems added). */
type ReadAnnotation = { span: SpanAnnotation } | { uncategorised: { annotator: string; text: string } } | null;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function isUnwanted(label: SpanLabel): boolean {
  return label.startsWith('Unwanted');
}

/** Stable short id for a source passage: 64-bit FNV-1a of its UTF-8 bytes, in hex. */
function sourceId(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

function baseName(path: string): string {
  const name = path.split(/[\\/]/).pop() ?? path;
  return name.replace(/\.json$/i, '');
}

function headLooksLikeFaithBench(head: string): boolean {
  return (
    head.includes('"samples"') &&
    head.includes('"annotations"') &&
    (head.includes('"summary_span"') || head.includes('"summarizer"'))
  );
}

/** Reads one annotation; on failure adds problems and returns null. */
function readAnnotation(
  raw: unknown,
  summary: string,
  where: { file: string; record: number; field: string },
  problems: ImportProblem[],
): ReadAnnotation {
  const problem = (field: string, expected: string, found?: unknown): void => {
    problems.push({
      file: where.file,
      record: where.record,
      field: `${where.field}${field}`,
      expected,
      ...(found === undefined ? {} : { found: describe(found) }),
    });
  };
  if (!isRecord(raw)) {
    problem('', 'a span annotation object', raw);
    return null;
  }
  const before = problems.length;
  const annotator = raw.annotator_name;
  if (typeof annotator !== 'string' || annotator.trim() === '')
    problem('.annotator_name', "the annotator's name", annotator);

  const labels = raw.label;
  const known = new Set<string>(SPAN_LABELS);
  if (!Array.isArray(labels) || !labels.every((l) => typeof l === 'string' && known.has(l))) {
    problem('.label', `a list of FaithBench labels (${SPAN_LABELS.join(', ')})`, labels);
  }

  const { summary_start: start, summary_end: end } = raw;
  const validStart = Number.isInteger(start) && (start as number) >= 0 && (start as number) < summary.length;
  if (!validStart)
    problem(
      '.summary_start',
      `an offset from 0 to ${summary.length - 1} (the summary has ${summary.length} characters)`,
      start,
    );
  const validEnd =
    Number.isInteger(end) && (end as number) <= summary.length && (!validStart || (end as number) > (start as number));
  if (!validEnd)
    problem('.summary_end', `an offset after summary_start, at most ${summary.length} (the summary's length)`, end);
  if (
    validStart &&
    validEnd &&
    typeof raw.summary_span === 'string' &&
    summary.slice(start as number, end as number) !== raw.summary_span
  ) {
    problem(
      '.summary_span',
      `the summary's text between summary_start and summary_end (${describe(summary.slice(start as number, end as number))})`,
      raw.summary_span,
    );
  }
  if (problems.length > before) return null;

  const text = summary.slice(start as number, end as number);
  // The release has highlights with no category beside the same annotator's labeled spans: they say nothing.
  if ((labels as SpanLabel[]).length === 0) return { uncategorised: { annotator: (annotator as string).trim(), text } };
  const note = typeof raw.note === 'string' && raw.note.trim() !== '' ? raw.note.trim() : null;
  return {
    span: {
      annotator: (annotator as string).trim(),
      labels: labels as SpanLabel[],
      start: start as number,
      end: end as number,
      text,
      note,
    },
  };
}

/** Reads one sample; on failure adds problems and returns null. */
function readSample(raw: unknown, file: string, record: number, problems: ImportProblem[]): Sample | null {
  const problem = (field: string | undefined, expected: string, found?: unknown): void => {
    problems.push({
      file,
      record,
      ...(field === undefined ? {} : { field }),
      expected,
      ...(found === undefined ? {} : { found: describe(found) }),
    });
  };
  if (!isRecord(raw)) {
    problem(undefined, 'a sample object with sample_id, source, summary, annotations', raw);
    return null;
  }
  const before = problems.length;
  const { sample_id: sampleId, source, summary, annotations, metadata } = raw;
  const validId =
    (typeof sampleId === 'number' && Number.isInteger(sampleId)) ||
    (typeof sampleId === 'string' && sampleId.trim() !== '');
  if (!validId) problem('sample_id', 'an integer or non-empty id', sampleId);
  if (typeof source !== 'string' || source.trim() === '')
    problem('source', 'the source passage (a non-empty string)', source);

  let sentences: SentenceSpan[] = [];
  if (typeof summary !== 'string' || summary.trim() === '') {
    problem('summary', 'the summary text (a non-empty string)', summary);
  } else {
    sentences = splitSentences(summary);
    if (sentences.length === 0) problem('summary', 'a summary with at least one sentence (letters or digits)', summary);
  }
  if (metadata !== undefined && metadata !== null && !isRecord(metadata))
    problem('metadata', 'an object (summarizer, judge scores)', metadata);

  const spans: SpanAnnotation[] = [];
  const uncategorised: Sample['uncategorised'] = [];
  if (!Array.isArray(annotations)) {
    problem('annotations', 'a list of span annotations ([] when nobody marked anything)', annotations);
  } else if (typeof summary === 'string' && sentences.length > 0) {
    // Offsets are only checked against a usable summary (its own problem is reported above).
    annotations.forEach((item, index) => {
      const read = readAnnotation(item, summary, { file, record, field: `annotations[${index}]` }, problems);
      if (read && 'span' in read) spans.push(read.span);
      else if (read) uncategorised.push({ field: `annotations[${index}].label`, ...read.uncategorised });
    });
  }
  if (problems.length > before) return null;

  return {
    record,
    sampleId: String(sampleId).trim(),
    source: source as string,
    summary: summary as string,
    sentences,
    metadata: isRecord(metadata) ? metadata : {},
    annotations: spans,
    uncategorised,
  };
}

function readFile(file: SourceFile, problems: ImportProblem[]): Sample[] {
  let data: unknown;
  const tooDeep = findExcessNesting(file.text);
  if (tooDeep) {
    problems.push(nestingProblem(file.path, tooDeep.path, tooDeep.line));
    return [];
  }
  try {
    data = JSON.parse(file.text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    problems.push({ file: file.path, expected: `valid JSON (${reason})` });
    return [];
  }
  const lone = findLoneSurrogate(file.text);
  if (lone) {
    // samples[i] is record i + 1, as in every other FaithBench problem.
    const [top, index, ...rest] = lone.path;
    const inSample = top === 'samples' && typeof index === 'number';
    const problem = loneSurrogateProblem(file.path, inSample ? { ...lone, path: rest } : lone);
    problems.push(inSample ? { ...problem, record: index + 1 } : problem);
    return [];
  }
  if (!isRecord(data) || !Array.isArray(data.samples)) {
    problems.push({
      file: file.path,
      field: 'samples',
      expected: 'a FaithBench file: an object {"samples": [...]}',
      found: describe(isRecord(data) ? data.samples : data),
    });
    return [];
  }
  const samples: Sample[] = [];
  const seenIds = new Map<string, number>();
  data.samples.forEach((raw, index) => {
    const sample = readSample(raw, file.path, index + 1, problems);
    if (!sample) return;
    const earlier = seenIds.get(sample.sampleId);
    if (earlier !== undefined) {
      problems.push({
        file: file.path,
        record: index + 1,
        field: 'sample_id',
        expected: `an id not used before in this file (record ${earlier} has it)`,
        found: sample.sampleId,
      });
      return;
    }
    seenIds.set(sample.sampleId, index + 1);
    samples.push(sample);
  });
  return samples;
}

function overlaps(span: { start: number; end: number }, sentence: { start: number; end: number }): boolean {
  return span.start < sentence.end && span.end > sentence.start;
}

/** One annotator's label for one sentence: the worst of the spans that overlap it. */
function sentenceLabel(
  sentence: SentenceSpan,
  spans: SpanAnnotation[],
): { label: HumanLabel; errorType: ErrorType | null; note: string | null } {
  const touching = spans.filter((span) => overlaps(span, sentence));
  const unwanted = touching.filter((span) => span.labels.some(isUnwanted));
  const notes = touching
    .filter((span) => span.note !== null)
    .map((span) => `[${span.labels.join(', ')}] "${span.text.trim()}": ${span.note}`);
  const note = notes.length > 0 ? notes.join('\n') : null;
  if (unwanted.length > 0) {
    const allExtrinsic = unwanted.every(
      (span) => span.labels.includes('Unwanted.Extrinsic') && !span.labels.includes('Unwanted.Intrinsic'),
    );
    return { label: 'unfaithful', errorType: allExtrinsic ? 'not_in_source' : null, note };
  }
  if (touching.some((span) => span.labels.includes('Questionable'))) return { label: 'unclear', errorType: null, note };
  return { label: 'faithful', errorType: null, note };
}

function judgeScores(metadata: Record<string, unknown>): Record<string, number | null> {
  const scores: Record<string, number | null> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (SAMPLE_METADATA.has(key)) continue;
    if (typeof value === 'number' || value === null) scores[key] = value;
  }
  return scores;
}

function parseFaithBench(files: SourceFile[], options: ParseOptions): ImportBatch {
  const dataset = options.dataset?.trim() || 'faithbench';
  const problems: ImportProblem[] = [];
  const summaries: ImportedSummary[] = [];
  const labels: ImportedLabel[] = [];
  const labelsSkipped: SkippedLabels[] = [];
  const summaryIdOwner = new Map<string, string>();
  let unannotated = 0;
  let spanCount = 0;
  let spansOnNoSentence = 0;

  for (const file of files) {
    const batch = baseName(file.path);
    for (const sample of readFile(file, problems)) {
      const summaryId = `${batch}-${sample.sampleId}`;
      const owner = summaryIdOwner.get(summaryId);
      if (owner !== undefined) {
        problems.push({
          file: file.path,
          record: sample.record,
          field: 'sample_id',
          expected: `a summary id not already taken by ${owner} (files with the same name give the same ids)`,
          found: summaryId,
        });
        continue;
      }
      summaryIdOwner.set(summaryId, file.path);
      for (const skip of sample.uncategorised) {
        labelsSkipped.push({
          file: file.path,
          record: sample.record,
          summaryId,
          field: skip.field,
          reason: `is [] (a highlight by ${skip.annotator} with no category, ${describe(skip.text)}): it labels nothing and is left out`,
        });
      }

      const annotators = [...new Set(sample.annotations.map((span) => span.annotator))];
      const globalLabel: GlobalLabel = sample.annotations.some((span) => span.labels.some(isUnwanted)) ? 0 : 1;
      spanCount += sample.annotations.length;
      spansOnNoSentence += sample.annotations.filter((span) => !sample.sentences.some((s) => overlaps(span, s))).length;
      if (sample.annotations.length === 0) unannotated += 1;

      const source = { file: file.path, record: sample.record };
      summaries.push({
        dataset,
        docId: sourceId(sample.source),
        document: sample.source,
        summaryId,
        summary: sample.summary,
        label: globalLabel,
        sentences: sample.sentences.map((s) => s.text),
        // Loupe split it, not FaithBench: the units record loupe-rules and its version.
        splitter: { name: SPLITTER.name, version: SPLITTER.version },
        meta: {
          batch,
          sample_id: sample.sampleId,
          raw_sample_id: sample.metadata.raw_sample_id ?? null,
          summarizer: typeof sample.metadata.summarizer === 'string' ? sample.metadata.summarizer : null,
          label_derived: true,
          label_rule: 'FaithBench has no global label: 1 when no annotator marked an Unwanted* span, else 0',
          summary_judges: judgeScores(sample.metadata),
          annotators,
          span_annotations: sample.annotations.length,
          splitter: { name: SPLITTER.name, version: SPLITTER.version },
        },
        source,
      });

      for (const annotator of annotators) {
        const spans = sample.annotations.filter((span) => span.annotator === annotator);
        sample.sentences.forEach((sentence, sentenceIndex) => {
          const { label, errorType, note } = sentenceLabel(sentence, spans);
          labels.push({
            dataset,
            summaryId,
            sentenceIndex,
            label,
            annotator: `faithbench:${annotator}`,
            phase: 'annotation',
            errorType,
            note,
            source,
          });
        });
      }
    }
  }
  if (problems.length > 0) throw new ImportValidationError(problems);

  const notes = [
    'FaithBench gives no global label: derived 1 (faithful) when no annotator marked an Unwanted* span, ' +
      'else 0 (meta.label_derived = true); a summary with only Questionable or Benign spans counts as faithful.',
    `Summaries split into sentences by ${SPLITTER.name} v${SPLITTER.version}; span labels mapped per annotator: ${MAPPING}`,
    `${unannotated} of ${summaries.length} summaries have no span annotations (nobody marked anything); ` +
      'the annotators who read them are not recorded, so they get no sentence labels.',
    'Summary-level judge scores (gpt-3.5-turbo, gpt-4-turbo, gpt_4o, hhem, true_nli, …) are kept in meta.summary_judges; ' +
      'they are not sentence predictions.',
  ];
  if (labelsSkipped.length > 0) {
    notes.push(
      `${labelsSkipped.length} span annotation(s) with no category (label []) left out: ${listForNote(
        labelsSkipped.map((x) => `${x.file} record ${x.record ?? '?'} ${x.field}`),
        '; ',
      )}.`,
    );
  }
  if (spansOnNoSentence > 0) {
    notes.push(
      `${spansOnNoSentence} of ${spanCount} spans cover only white space or punctuation outside every sentence and label nothing.`,
    );
  }
  return {
    kind: 'faithbench',
    summaries,
    labels,
    predictions: [],
    filesUsed: files.map((f) => f.path),
    notes,
    labelsSkipped,
  };
}

export const faithbenchParser: FormatParser = {
  kind: 'faithbench',
  description: 'FaithBench release batches ({"samples": [...]} with span annotations per annotator)',
  mapping: MAPPING,
  sniff(files: FileHead[]): 0 | 1 | 2 {
    return files.some((f) => headLooksLikeFaithBench(f.head)) ? 2 : 0;
  },
  select(files: FileHead[]): string[] {
    return files.filter((f) => headLooksLikeFaithBench(f.head)).map((f) => f.path);
  },
  parse: parseFaithBench,
};
