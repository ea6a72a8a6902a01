/**
 * XSumFaith (Maynez et al., 2020; google-research-datasets/xsum_hallucination_annotations):
 *  - hallucination_annotations_xsum_summaries.csv: one row per marked span per worker
 *    (`NULL` row = the worker found no hallucination);
 *  - factuality_annotations_xsum_summaries.csv: per-worker `is_factual` (kept in meta).
 * Every summary is one sentence. The documents are BBC articles that these files do not hold;
 * FRANK's article files (same bbcid) supply them when they are among the given files.
 */
import { z } from 'zod';
import type { ErrorType } from '../domain';
import { csvHeaderOf, readCsv } from './csv';
import { describeValue, listForNote, parseJsonDocument, ProblemCollector, validateRecord } from './jsonl';
import { isFrankArticleHead } from './frank';
import { IdSchema, nonEmptyText } from './summaries';
import type { FileHead, FormatParser, ImportedLabel, ImportedSummary, SkippedLabels, SourceFile } from './types';

const HALLUCINATION_COLUMNS = [
  'bbcid',
  'system',
  'summary',
  'hallucination_type',
  'hallucinated_span',
  'hallucinated_span_start',
  'hallucinated_span_end',
  'worker_id',
] as const;
const FACTUALITY_COLUMNS = ['bbcid', 'system', 'summary', 'is_factual', 'worker_id'] as const;

const HallucinationRowSchema = z.object({
  bbcid: z.string().trim().min(1),
  system: z.string().trim().min(1),
  summary: nonEmptyText('a non-empty summary'),
  hallucination_type: z.enum(['intrinsic', 'extrinsic', 'NULL']),
  hallucinated_span: z.string(),
  worker_id: z.string().trim().min(1),
});
const FactualityRowSchema = z.object({
  bbcid: z.string().trim().min(1),
  system: z.string().trim().min(1),
  summary: nonEmptyText('a non-empty summary'),
  is_factual: z.enum(['yes', 'no', 'NULL']),
  worker_id: z.string().trim().min(1),
});
const ArticleTextSchema = z.looseObject({ hash: IdSchema, article: z.string() });

type Role = 'hallucination' | 'factuality' | 'article';

function roleOf(file: FileHead): Role | null {
  if (isFrankArticleHead(file)) return 'article';
  const header = csvHeaderOf(file.head);
  if (HALLUCINATION_COLUMNS.every((c) => header.includes(c))) return 'hallucination';
  if (FACTUALITY_COLUMNS.every((c) => header.includes(c))) return 'factuality';
  return null;
}

/** The summary as stored: the hallucination file escapes quotes (`country\'s`) and pads some texts with spaces, the factuality file does neither. */
function unescapedSummary(text: string): string {
  return text.replace(/\\(['"])/g, '$1').trim();
}

/** What two rows must share to be the same summary: unescaped, without the spaces inside quotes (`" it's … "` = `"it's …"`) or repeated ones. */
function comparableSummary(text: string): string {
  return unescapedSummary(text)
    .replace(/\s*"\s*/g, '"')
    .replace(/\s+/g, ' ');
}

interface WorkerMarks {
  types: Set<'intrinsic' | 'extrinsic' | 'NULL'>;
  spans: string[];
  line: number;
}
interface XSumSummary {
  bbcid: string;
  system: string;
  summary: string;
  rawSummary: string;
  file: string;
  line: number;
  workers: Map<string, WorkerMarks>;
  isFactual: Record<string, string>;
}

/** A worker's error type: all spans extrinsic → not_in_source; intrinsic ones are not clearly one Loupe type. */
function workerErrorType(types: Set<string>): ErrorType {
  return types.has('intrinsic') ? 'other' : 'not_in_source';
}

export const xsumfaithParser: FormatParser = {
  kind: 'xsumfaith',
  description:
    'XSumFaith CSVs (hallucination spans per worker; is_factual per worker); documents from FRANK article files when given',
  mapping:
    'Per worker (annotator "xsumfaith:<worker_id>"): a NULL row → faithful, ≥ 1 span → unfaithful (only extrinsic spans → not_in_source, any intrinsic → other); ' +
    'global label: faithful when more than half of the workers found nothing. One sentence per summary.',

  sniff(files) {
    const roles = files.map(roleOf);
    return roles.includes('hallucination') || roles.includes('factuality') ? 2 : 0;
  },

  select(files) {
    return files.filter((f) => roleOf(f) !== null).map((f) => f.path);
  },

  parse(files, options) {
    const problems = new ProblemCollector();
    const dataset = options.dataset ?? 'xsumfaith';
    const byKey = new Map<string, XSumSummary>();
    const articles = new Map<string, { file: string; text: string }>();
    const factualityRows: { file: SourceFile; rows: { line: number; values: Record<string, string> }[] }[] = [];
    const usedFiles = new Set<string>();
    let mixedWorkers = 0;
    const key = (bbcid: string, system: string) => `${bbcid}:${system}`;
    // A row whose summary still differs after normalisation belongs to another text: left out and listed.
    const labelsSkipped: SkippedLabels[] = [];
    const differs = (entry: XSumSummary, found: string) =>
      `${describeValue(found, 60)} differs from the summary of ${entry.file} line ${entry.line} (${describeValue(entry.summary, 60)}) after unescaping and removing the spaces inside quotes: this worker's row is left out`;

    for (const file of files) {
      if (problems.full) break;
      const role = roleOf({ path: file.path, head: file.text.slice(0, 8192) });
      if (role === 'article') {
        const data = parseJsonDocument(file, problems);
        if (data === undefined) continue;
        const article = validateRecord(ArticleTextSchema, data, { file: file.path }, problems);
        if (article) articles.set(article.hash, { file: file.path, text: article.article });
        continue;
      }
      if (role === 'factuality') {
        const table = readCsv(file, { required: FACTUALITY_COLUMNS }, problems);
        if (table) factualityRows.push({ file, rows: table.rows });
        continue;
      }
      if (role !== 'hallucination') {
        problems.add({
          file: file.path,
          line: 1,
          expected: `an XSumFaith CSV header (${HALLUCINATION_COLUMNS.join(',')}) or (${FACTUALITY_COLUMNS.join(',')})`,
          found: csvHeaderOf(file.text.slice(0, 8192)).join(',') || 'no header',
        });
        continue;
      }
      const table = readCsv(file, { required: HALLUCINATION_COLUMNS }, problems);
      if (!table) continue;
      usedFiles.add(file.path);
      for (const row of table.rows) {
        if (problems.full) break;
        const place = { file: file.path, line: row.line };
        const parsed = validateRecord(HallucinationRowSchema, row.values, place, problems);
        if (!parsed) continue;
        const k = key(parsed.bbcid, parsed.system);
        const summaryText = unescapedSummary(parsed.summary);
        const entry: XSumSummary = byKey.get(k) ?? {
          bbcid: parsed.bbcid,
          system: parsed.system,
          summary: summaryText,
          rawSummary: parsed.summary,
          file: file.path,
          line: row.line,
          workers: new Map(),
          isFactual: {},
        };
        byKey.set(k, entry);
        if (comparableSummary(entry.summary) !== comparableSummary(parsed.summary)) {
          labelsSkipped.push({ ...place, summaryId: k, field: 'summary', reason: differs(entry, summaryText) });
          continue;
        }
        const marks: WorkerMarks = entry.workers.get(parsed.worker_id) ?? {
          types: new Set(),
          spans: [],
          line: row.line,
        };
        entry.workers.set(parsed.worker_id, marks);
        marks.types.add(parsed.hallucination_type);
        if (parsed.hallucination_type !== 'NULL') {
          const span = `${parsed.hallucination_type}: "${parsed.hallucinated_span}"`;
          if (!marks.spans.includes(span)) marks.spans.push(span);
        }
      }
    }

    // is_factual answers "is it true?", not "is it faithful?": kept as information only.
    let factualityUnmatched = 0;
    for (const { file, rows } of factualityRows) {
      usedFiles.add(file.path);
      for (const row of rows) {
        if (problems.full) break;
        const place = { file: file.path, line: row.line };
        const parsed = validateRecord(FactualityRowSchema, row.values, place, problems);
        if (!parsed) continue;
        const entry = byKey.get(key(parsed.bbcid, parsed.system));
        if (!entry) {
          factualityUnmatched += 1;
          continue;
        }
        if (comparableSummary(parsed.summary) !== comparableSummary(entry.summary)) {
          labelsSkipped.push({
            ...place,
            summaryId: key(entry.bbcid, entry.system),
            field: 'summary',
            reason: differs(entry, unescapedSummary(parsed.summary)),
          });
          continue;
        }
        entry.isFactual[parsed.worker_id] = parsed.is_factual;
      }
    }
    if (problems.count === 0 && byKey.size === 0) {
      problems.add({
        file: files[0]?.path ?? '',
        expected:
          'the XSumFaith hallucination annotations CSV (hallucination_type, hallucinated_span, worker_id): it holds the labels',
        found: factualityRows.length > 0 ? 'only the factuality CSV' : 'no XSumFaith rows',
      });
    }
    problems.throwIfAny();

    const summaries: ImportedSummary[] = [];
    const labels: ImportedLabel[] = [];
    let withDocument = 0;
    let unescaped = 0;
    for (const entry of byKey.values()) {
      const summaryId = key(entry.bbcid, entry.system);
      let faithfulWorkers = 0;
      for (const [workerId, marks] of entry.workers) {
        const hasSpans = marks.spans.length > 0;
        // A worker with both a NULL row and spans: the spans are the more specific answer.
        if (hasSpans && marks.types.has('NULL')) mixedWorkers += 1;
        if (!hasSpans) faithfulWorkers += 1;
        labels.push({
          dataset,
          summaryId,
          sentenceIndex: 0,
          label: hasSpans ? 'unfaithful' : 'faithful',
          annotator: `xsumfaith:${workerId}`,
          phase: 'annotation',
          errorType: hasSpans ? workerErrorType(marks.types) : null,
          note: hasSpans ? marks.spans.join('; ') : null,
          source: { file: entry.file, line: marks.line },
        });
      }
      const article = articles.get(entry.bbcid);
      if (article) {
        withDocument += 1;
        usedFiles.add(article.file);
      }
      if (entry.summary !== entry.rawSummary) unescaped += 1;
      summaries.push({
        dataset,
        docId: entry.bbcid,
        document: article?.text ?? null,
        summaryId,
        summary: entry.summary,
        label: faithfulWorkers * 2 > entry.workers.size ? 1 : 0,
        sentences: [entry.summary],
        meta: {
          system: entry.system,
          gold: entry.system === 'Gold',
          workers: entry.workers.size,
          workersFaithful: faithfulWorkers,
          isFactual: entry.isFactual,
        },
        source: { file: entry.file, line: entry.line },
      });
    }

    const notes = [
      `${summaries.length} one-sentence summaries of ${new Set(summaries.map((s) => s.docId)).size} BBC documents in dataset "${dataset}"; ` +
        `${summaries.filter((s) => s.label === 1).length} faithful, ${summaries.filter((s) => s.label === 0).length} not; ${labels.length} worker labels.`,
      'Worker labels (annotator "xsumfaith:<worker_id>"): a NULL row → faithful, one or more spans → unfaithful; error type not_in_source when all spans are extrinsic, ' +
        'other when any is intrinsic (an intrinsic hallucination distorts the document in no single way); the spans are kept in the note.',
      'Global label: faithful (1) when more than half of the workers marked nothing (a tie counts as not faithful), as in SummaC / AggreFact.',
      withDocument === summaries.length
        ? 'Documents: taken from the FRANK article files with the same bbcid.'
        : `Documents: ${withDocument} taken from FRANK article files (same bbcid); ${summaries.length - withDocument} missing (import them with FRANK's articles-json files or attach them later).`,
    ];
    if (unescaped > 0)
      notes.push(
        `${unescaped} summaries had escaped quotes (\\') or surrounding spaces in the hallucination file; imported unescaped and trimmed (as in the factuality file).`,
      );
    if (labelsSkipped.length > 0) {
      notes.push(
        `${labelsSkipped.length} row(s) give a summary that differs from the first row of the same bbcid and system even after unescaping and removing the spaces inside quotes; they are left out: ${listForNote(
          labelsSkipped.map((x) => `${x.file} line ${x.line ?? '?'}`),
          '; ',
        )}.`,
      );
    }
    if (factualityRows.length > 0)
      notes.push(
        'is_factual (per worker, from the factuality file) is kept in the summary meta; it asks whether the summary is true, not whether it is faithful.',
      );
    if (factualityUnmatched > 0)
      notes.push(
        `${factualityUnmatched} factuality row(s) name summaries that are not in the hallucination file: ignored.`,
      );
    if (mixedWorkers > 0)
      notes.push(`${mixedWorkers} worker(s) have both a NULL row and spans for one summary: counted as unfaithful.`);
    return {
      kind: 'xsumfaith',
      summaries,
      labels,
      predictions: [],
      filesUsed: files.map((f) => f.path).filter((p) => usedFiles.has(p)),
      notes,
      labelsSkipped,
    };
  },
};
