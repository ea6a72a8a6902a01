/**
 * FRANK (Pagnoni et al., 2021) as shipped: a folder with
 *  - article files (`articles-json/<hash>.json`): the document, every system's summary and its
 *    gold sentence split `<system>_lines`;
 *  - the human annotations list (`data/human_annotations.json` or a subset): one record per
 *    (hash, system) with `Factuality` → the global label;
 *  - FineSurE's JSON Lines re-format (`raw_annotations`): per-sentence labels of three annotators,
 *    and in FineSurE's result file a judge's per-sentence predictions.
 * Parts are recognised by content, not by fixed paths.
 */
import { z } from 'zod';
import type { ErrorType, HumanLabel } from '../domain';
import { CLAIM_ERROR_TYPE_IN_TAXONOMY, fineSurEErrorType, fineSurESentenceErrorType } from '../accuracy/domain';
import {
  describeValue,
  firstLineKeys,
  listForNote,
  looksLikeJsonLines,
  parseJsonDocument,
  parseJsonLines,
  ProblemCollector,
  validateRecord,
  type ProblemPlace,
} from './jsonl';
import { firstUnlocatedSentence, IdSchema, nonEmptyText } from './summaries';
import { isRealSummHead } from './realsumm';
import type {
  FileHead,
  FormatParser,
  ImportedLabel,
  ImportedPrediction,
  ImportedSummary,
  SkippedPredictions,
  SourceFile,
  SourceRef,
} from './types';

export const FRANK_JUDGE = 'finesure-gpt-4o (imported)';

/** FRANK's error codes → Loupe's taxonomy where the meaning is the same (docs/methods.md, "Objects and labels"). */
export const FRANK_ERROR_TYPES: Record<string, ErrorType | null> = {
  NoE: null,
  EntE: 'entity',
  RelE: 'relation',
  OutE: 'not_in_source',
  // Circumstance (time, place, manner): only partly "number or date", so not forced into it.
  CircE: 'other',
  CorefE: 'other',
  LinkE: 'other',
  GramE: 'other',
  OtherE: 'other',
};

const FRANK_SYSTEMS = 'bart|bert_sum|bus|pgn|s2s|BERTS2S|TConvS2S|PtGen|TranS2S';

/** An articles-json file: an object whose keys name FRANK's systems, their `_lines` or `_reference`. */
export function isFrankArticleHead(file: FileHead): boolean {
  if (!/\.json$/i.test(file.path) || !/^\uFEFF?\s*\{/.test(file.head)) return false;
  return (
    new RegExp(`"(${FRANK_SYSTEMS})(_lines|_reference)?"\\s*:`).test(file.head) &&
    /"(article|article_lines|model_names|\w+_lines|\w+_reference)"\s*:/.test(file.head)
  );
}

function isHumanAnnotationsHead(file: FileHead): boolean {
  return /^\uFEFF?\s*\[/.test(file.head) && file.head.includes('"Factuality"') && file.head.includes('"model_name"');
}

/** FineSurE JSON Lines. A long transcript can push `raw_annotations` out of the head; the leading keys remain. */
function isFineSurEHead(file: FileHead): boolean {
  if (!looksLikeJsonLines(file.head)) return false;
  // FineSurE's RealSumm files have the same leading keys; their key-fact material is realsumm.ts's.
  if (isRealSummHead(file)) return false;
  const keys = firstLineKeys(file.head);
  return (
    keys.includes('raw_annotations') || (keys[0] === 'doc_id' && keys.includes('model') && keys.includes('transcript'))
  );
}

const ArticleSchema = z.looseObject({
  hash: IdSchema,
  article: nonEmptyText('a non-empty article text'),
  model_names: z.array(z.string().regex(/_lines$/, { error: 'names of "<system>_lines" keys' })).min(1),
});

const HumanAnnotationSchema = z.looseObject({
  hash: IdSchema,
  model_name: z.string().trim().min(1),
  dataset: z.string().nullish(),
  split: z.string().nullish(),
  Factuality: z.number().min(0).max(1),
});

const FactualityLabel = z.literal([0, 1]);
const FineSurERecordSchema = z.looseObject({
  doc_id: IdSchema,
  source: z.string().nullish(),
  split: z.string().nullish(),
  model: z.string().trim().min(1),
  transcript: nonEmptyText('a non-empty transcript (the document)'),
  sentences: z.array(nonEmptyText('a non-empty sentence')).min(1),
  raw_annotations: z.record(
    z.string().regex(/^annotator_\d+$/, { error: 'annotator keys like "annotator_0"' }),
    // factuality_types is optional: the labels stand without their error codes.
    z.object({ factuality_labels: z.array(FactualityLabel), factuality_types: z.array(z.string()).optional() }),
  ),
  llm_output: z.string().nullish(),
  pred_faithfulness_labels: z.array(FactualityLabel).nullish(),
  /** FineSurE's fact-checking category per sentence ("no error", "entity error", …). */
  pred_faithfulness_error_type: z.array(z.string()).nullish(),
});
type FineSurERecord = z.infer<typeof FineSurERecordSchema>;
type HumanAnnotation = z.infer<typeof HumanAnnotationSchema>;

interface Article {
  file: string;
  hash: string;
  text: string;
  /** system → its summary text and gold lines. */
  systems: Map<string, { summary: string; lines: string[]; cased: boolean }>;
}
interface Located<T> {
  value: T;
  place: ProblemPlace;
}

/** Text compared without ASCII double quotes (FineSurE stripped them) and with white space collapsed. */
function normalizeSentence(text: string): string {
  return text.replace(/"/g, '').replace(/\s+/g, ' ').trim();
}

function sameSplit(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => normalizeSentence(s) === normalizeSentence(b[i] ?? ''));
}

function readArticle(file: SourceFile, data: unknown, problems: ProblemCollector): Article | undefined {
  const place = { file: file.path };
  const record = validateRecord(ArticleSchema, data, place, problems);
  if (!record) return undefined;
  const systems = new Map<string, { summary: string; lines: string[]; cased: boolean }>();
  for (const linesKey of record.model_names) {
    const system = linesKey.slice(0, -'_lines'.length);
    const lines = z.array(z.string()).min(1).safeParse(record[linesKey]);
    // bart's lines are cased, its `bart` field lower-cased: the cased text holds the lines.
    const casedText = system === 'bart' ? record.bart_cased : undefined;
    const summary = z.string().safeParse(typeof casedText === 'string' ? casedText : record[system]);
    if (!lines.success) {
      problems.add({
        ...place,
        field: linesKey,
        expected: 'a non-empty list of sentences (the gold split)',
        found: describeValue(record[linesKey]),
      });
      continue;
    }
    if (!summary.success) {
      problems.add({
        ...place,
        field: system,
        expected: 'the summary text of this system',
        found: describeValue(record[system]),
      });
      continue;
    }
    systems.set(system, { summary: summary.data, lines: lines.data, cased: typeof casedText === 'string' });
  }
  return { file: file.path, hash: record.hash, text: record.article, systems };
}

/**
 * FineSurE's fact-checking outputs name an error category per sentence; FRANK's summaries have no
 * claims, so the category is the error type of the judge's sentence prediction (mapped, the name
 * kept as its source error type) and is also written as a note after the raw answer: the category
 * as FineSurE wrote it and the card's type it maps to (FINESURE_ERROR_TYPE). A category list that
 * does not have one entry per sentence is left out (and listed).
 */
export function withErrorCategory(
  raw: string | null,
  categories: readonly string[] | null | undefined,
  index: number,
  sentences: number,
): string | null {
  const category = categories && categories.length === sentences ? categories[index] : undefined;
  if (category === undefined) return raw;
  const mapped = fineSurEErrorType(category);
  const note = `FineSurE error category of sentence ${index + 1}: "${category}" (error type: ${mapped === undefined ? 'unknown' : (mapped ?? 'none')})`;
  return raw === null ? note : `${raw}\n\n${note}`;
}

/** Majority (≥ 2 of 3) of the annotators' sentence labels: 1 = has an error. */
function majorityErrors(record: FineSurERecord): boolean[] {
  const annotators = Object.values(record.raw_annotations);
  return record.sentences.map((_, i) => {
    const errors = annotators.filter((a) => a.factuality_labels[i] === 1).length;
    return errors * 2 > annotators.length;
  });
}

export const frankParser: FormatParser = {
  kind: 'frank',
  description:
    'FRANK folder: articles-json/*.json, human_annotations*.json and FineSurE-format JSONL (frank-data*.json)',
  mapping:
    'Global label: Factuality == 1.0 → 1, else 0. Units: <system>_lines (bart: bart_cased). Sentence labels from FineSurE files: annotators frank-0/1/2, ' +
    'factuality_labels 1 → unfaithful, 0 → faithful; EntE → entity, RelE → relation, OutE → not_in_source, CircE/CorefE/LinkE/GramE/OtherE → other.',

  sniff(files) {
    if (files.some((f) => isHumanAnnotationsHead(f) || isFineSurEHead(f))) return 2;
    // Article files alone are also what XSumFaith joins with; they are FRANK only "possibly".
    return files.some(isFrankArticleHead) ? 1 : 0;
  },

  select(files) {
    return files
      .filter((f) => isFrankArticleHead(f) || isHumanAnnotationsHead(f) || isFineSurEHead(f))
      .map((f) => f.path);
  },

  parse(files, options) {
    const problems = new ProblemCollector();
    const dataset = options.dataset ?? 'frank';
    const articles = new Map<string, Article>();
    const annotations = new Map<string, Located<HumanAnnotation>>();
    const annotationFiles = new Set<string>();
    const fineSurE = new Map<string, Located<FineSurERecord>>();
    const predictionSource = new Map<string, Located<FineSurERecord>>();
    const fineSurEFiles = new Set<string>();
    const repeatedRecords = new Map<string, number>();
    const skippedPredictions: SkippedPredictions[] = [];
    const skippedByKey = new Map<string, SkippedPredictions[]>();
    const key = (hash: string, system: string) => `${hash}:${system}`;

    // 1. Read every part, recognised by content.
    for (const file of files) {
      if (problems.full) break;
      // The whole text as "head": the first line is then read in full.
      if (isFineSurEHead({ path: file.path, head: file.text })) {
        fineSurEFiles.add(file.path);
        for (const { line, value } of parseJsonLines(file, problems)) {
          const place = { file: file.path, line };
          const record = validateRecord(FineSurERecordSchema, value, place, problems);
          if (!record) continue;
          const bad = Object.entries(record.raw_annotations).find(
            ([, a]) => a.factuality_labels.length !== record.sentences.length,
          );
          if (bad) {
            problems.add({
              ...place,
              field: `raw_annotations.${bad[0]}.factuality_labels`,
              expected: `one label per sentence (${record.sentences.length})`,
              found: `${bad[1].factuality_labels.length} labels`,
            });
            continue;
          }
          const k = key(record.doc_id, record.model);
          // A judge reply that merged or split sentences: the record stays, its predictions do not
          // (FineSurE's own scoring skips such records). They are listed in the report.
          let predictionsFit = true;
          if (record.pred_faithfulness_labels && record.pred_faithfulness_labels.length !== record.sentences.length) {
            predictionsFit = false;
            const skip: SkippedPredictions = {
              ...place,
              summaryId: k,
              field: 'pred_faithfulness_labels',
              expected: record.sentences.length,
              found: record.pred_faithfulness_labels.length,
            };
            skippedPredictions.push(skip);
            skippedByKey.set(k, [...(skippedByKey.get(k) ?? []), skip]);
          }
          const earlier = fineSurE.get(k);
          if (earlier) {
            // The sample files overlap; the same summary must carry the same annotations.
            const same =
              JSON.stringify(earlier.value.sentences) === JSON.stringify(record.sentences) &&
              JSON.stringify(earlier.value.raw_annotations) === JSON.stringify(record.raw_annotations);
            if (!same) {
              problems.add({
                ...place,
                field: 'raw_annotations',
                expected: `the same sentences and annotations as ${earlier.place.file} line ${earlier.place.line ?? '?'} (same doc_id and model)`,
                found: 'different ones',
              });
              continue;
            }
            repeatedRecords.set(file.path, (repeatedRecords.get(file.path) ?? 0) + 1);
          } else {
            fineSurE.set(k, { value: record, place });
          }
          if (record.pred_faithfulness_labels && predictionsFit && !predictionSource.has(k))
            predictionSource.set(k, { value: record, place });
        }
        continue;
      }
      const data = parseJsonDocument(file, problems);
      if (data === undefined) continue;
      if (Array.isArray(data)) {
        annotationFiles.add(file.path);
        data.forEach((value: unknown, index) => {
          if (problems.full) return;
          const place = { file: file.path, record: index + 1 };
          const record = validateRecord(HumanAnnotationSchema, value, place, problems);
          if (!record) return;
          const k = key(record.hash, record.model_name);
          const earlier = annotations.get(k);
          if (earlier) {
            problems.add({
              ...place,
              expected: 'one record per (hash, model_name)',
              found: `${record.hash} / ${record.model_name} again (first in ${earlier.place.file} record ${earlier.place.record ?? '?'})`,
            });
            return;
          }
          annotations.set(k, { value: record, place });
        });
      } else if (data !== null && typeof data === 'object' && 'article' in data) {
        const article = readArticle(file, data, problems);
        if (!article) continue;
        const earlier = articles.get(article.hash);
        if (earlier) {
          problems.add({
            file: file.path,
            field: 'hash',
            expected: 'each document hash in one article file',
            found: `"${article.hash}" also in ${earlier.file}`,
          });
          continue;
        }
        articles.set(article.hash, article);
      } else {
        problems.add({
          file: file.path,
          line: 1,
          expected: 'a FRANK part: an articles-json file, the human annotations list, or FineSurE JSON Lines',
          found: describeValue(data, 60),
        });
      }
    }
    if (problems.count === 0 && annotations.size === 0 && fineSurE.size === 0) {
      problems.add({
        file: files[0]?.path ?? '',
        expected:
          'FRANK human annotations (human_annotations*.json, with "Factuality") or FineSurE files (with "raw_annotations") next to the article files',
        found: `only ${articles.size} article file(s)`,
      });
    }
    problems.throwIfAny();

    // 2. One summary per annotated (hash, system).
    const summaries: ImportedSummary[] = [];
    const labels: ImportedLabel[] = [];
    const predictions: ImportedPrediction[] = [];
    const usedArticles = new Set<string>();
    const skippedNoText: string[] = [];
    const splitMismatch: string[] = [];
    const rebuilt: string[] = [];
    const fromFineSurEOnly: string[] = [];
    const derivedLabels: string[] = [];
    let misalignedTypes = 0;
    const keys = [...new Set([...annotations.keys(), ...fineSurE.keys()])];

    for (const k of keys) {
      const human = annotations.get(k)?.value;
      const fs = fineSurE.get(k);
      const hash = human?.hash ?? fs!.value.doc_id;
      const system = human?.model_name ?? fs!.value.model;
      const summaryId = key(hash, system);
      const article = articles.get(hash);
      const fromArticle = article?.systems.get(system);

      let document: string;
      let summary: string;
      let sentences: string[];
      let source: SourceRef;
      const meta: Record<string, unknown> = {
        source: human?.dataset ?? fs?.value.source ?? null,
        split: human?.split ?? fs?.value.split ?? null,
        model: system,
        factuality: human?.Factuality ?? null,
      };
      if (article && fromArticle) {
        usedArticles.add(article.file);
        document = article.text;
        sentences = fromArticle.lines;
        summary = fromArticle.summary;
        if (fromArticle.cased) meta.summaryField = 'bart_cased';
        if (firstUnlocatedSentence(summary, sentences) !== null) {
          summary = sentences.join(' ');
          meta.summaryRebuiltFromLines = true;
          rebuilt.push(summaryId);
        }
        source = { file: article.file };
      } else if (fs) {
        document = fs.value.transcript;
        sentences = fs.value.sentences;
        summary = sentences.join(' ');
        meta.documentFrom = 'FineSurE transcript (ASCII double quotes removed by FineSurE)';
        fromFineSurEOnly.push(summaryId);
        source = { file: fs.place.file, ...(fs.place.line !== undefined ? { line: fs.place.line } : {}) };
      } else {
        skippedNoText.push(summaryId);
        continue;
      }

      let label: 0 | 1;
      if (human) {
        label = human.Factuality === 1 ? 1 : 0;
      } else {
        label = majorityErrors(fs!.value).some(Boolean) ? 0 : 1;
        meta.labelDerived = 'no Factuality record: 1 when no sentence has a majority error label, else 0';
        derivedLabels.push(summaryId);
      }
      const skipped = skippedByKey.get(k);
      if (skipped) {
        // Provenance on the record itself: which judge output was left out and why.
        meta.predictionsSkipped = skipped.map((x) => ({
          judge: FRANK_JUDGE,
          file: x.file,
          line: x.line ?? null,
          field: x.field,
          expected: x.expected,
          found: x.found,
        }));
      }
      summaries.push({ dataset, docId: hash, document, summaryId, summary, label, sentences, meta, source });

      if (!fs) continue;
      // FineSurE's spaCy split may differ from the gold split; labels only fit when the units match.
      if (!sameSplit(fs.value.sentences, sentences)) {
        splitMismatch.push(`${summaryId} (${fs.value.sentences.length} vs ${sentences.length} sentences)`);
        const judgedOther = predictionSource.get(k);
        if (judgedOther) {
          skippedPredictions.push({
            ...judgedOther.place,
            summaryId,
            field: 'sentences',
            expected: sentences.length,
            found: fs.value.sentences.length,
            reason: `are FineSurE's split, which differs from the gold split of ${source.file}: the judge's per-sentence predictions do not fit the units and are left out`,
          });
        }
        continue;
      }
      const labelSource = { file: fs.place.file, ...(fs.place.line !== undefined ? { line: fs.place.line } : {}) };
      for (const [annotatorKey, annotation] of Object.entries(fs.value.raw_annotations)) {
        const annotator = `frank-${annotatorKey.slice('annotator_'.length)}`;
        // Two codes for one sentence make the type list longer than the sentences: no alignment.
        const types = annotation.factuality_types;
        const aligned = types !== undefined && types.length === annotation.factuality_labels.length;
        if (types !== undefined && !aligned) misalignedTypes += 1;
        annotation.factuality_labels.forEach((value, index) => {
          const label: HumanLabel = value === 1 ? 'unfaithful' : 'faithful';
          const code = aligned ? types[index] : undefined;
          labels.push({
            dataset,
            summaryId,
            sentenceIndex: index,
            label,
            annotator,
            phase: 'annotation',
            errorType: label === 'unfaithful' && code !== undefined ? (FRANK_ERROR_TYPES[code] ?? 'other') : null,
            note: label === 'unfaithful' && code !== undefined && code !== 'NoE' ? `FRANK ${code}` : null,
            source: labelSource,
          });
        });
      }
      const judged = predictionSource.get(k);
      const categories = judged?.value.pred_faithfulness_error_type;
      if (judged && categories && categories.length !== sentences.length) {
        skippedPredictions.push({
          ...judged.place,
          summaryId,
          field: 'pred_faithfulness_error_type',
          expected: sentences.length,
          found: categories.length,
          reason: `has ${categories.length} categories for ${sentences.length} sentences: the error types are left out, the verdicts kept`,
        });
      }
      if (judged?.value.pred_faithfulness_labels) {
        const fitting = categories && categories.length === sentences.length ? categories : null;
        judged.value.pred_faithfulness_labels.forEach((value, index) => {
          // FineSurE's category of a sentence it marks as an error is that prediction's error type.
          const category = value === 1 ? fitting?.[index] : undefined;
          const claimType = category === undefined ? null : fineSurESentenceErrorType(category);
          predictions.push({
            dataset,
            summaryId,
            sentenceIndex: index,
            judge: FRANK_JUDGE,
            // FineSurE predicts 1 = error; Loupe's hard prediction is 1 = faithful.
            hard: value === 1 ? 0 : 1,
            soft: null,
            raw: withErrorCategory(
              judged.value.llm_output ?? null,
              judged.value.pred_faithfulness_error_type,
              index,
              judged.value.pred_faithfulness_labels!.length,
            ),
            errorType: claimType === null ? null : CLAIM_ERROR_TYPE_IN_TAXONOMY[claimType],
            sourceErrorType: category ?? null,
            source: {
              file: judged.place.file,
              ...(judged.place.line !== undefined ? { line: judged.place.line } : {}),
            },
          });
        });
      }
    }

    // 3. Say what was found and what was left out.
    const unusedArticles = [...articles.values()].filter((a) => !usedArticles.has(a.file)).length;
    const notes: string[] = [
      `${summaries.length} summaries of ${new Set(summaries.map((s) => s.docId)).size} documents in dataset "${dataset}" ` +
        `(${summaries.filter((s) => s.meta.source === 'cnndm').length} CNN/DM, ${summaries.filter((s) => s.meta.source === 'bbc').length} XSum/BBC); ` +
        `${summaries.filter((s) => s.label === 1).length} faithful (Factuality == 1.0), ${summaries.filter((s) => s.label === 0).length} not.`,
      `Found ${articles.size} article file(s), ${annotations.size} human annotation record(s) in ${annotationFiles.size} file(s), ` +
        `${fineSurE.size} distinct FineSurE record(s) in ${fineSurEFiles.size} file(s).`,
      'Units are the gold split <system>_lines of the article files (for bart the cased text bart_cased).',
      `${labels.length} sentence labels by annotators frank-0, frank-1, frank-2 (FineSurE factuality_labels: 1 → unfaithful, 0 → faithful) ` +
        `for ${new Set(labels.map((l) => l.summaryId)).size} summaries. Error types: EntE → entity, RelE → relation, OutE → not_in_source, CircE/CorefE/LinkE/GramE/OtherE → other (the code is kept in the note).`,
    ];
    if (splitMismatch.length > 0) {
      notes.push(
        `${splitMismatch.length} summaries got no sentence labels because FineSurE's sentences differ from the gold split: ${listForNote(splitMismatch, '; ')}.`,
      );
    }
    if (misalignedTypes > 0) {
      notes.push(
        `${misalignedTypes} annotator × summary lists of factuality_types are longer than the sentences (two codes for one sentence): their error types are left empty.`,
      );
    }
    if (predictions.length > 0) {
      notes.push(
        `${predictions.length} sentence predictions of "${FRANK_JUDGE}" kept for the judges (pred_faithfulness_labels 1 = error → hard 0; raw = llm_output).`,
      );
    }
    if (skippedPredictions.length > 0) {
      const places = skippedPredictions.map(
        (x) => `${x.file} line ${x.line ?? '?'} (${x.summaryId}): ${x.expected} sentences, ${x.found} predictions`,
      );
      notes.push(
        `${skippedPredictions.length} record(s) imported without their "${FRANK_JUDGE}" predictions: pred_faithfulness_labels does not have one prediction per sentence ` +
          `(the judge merged or split sentences; FineSurE's scoring skips such records too): ${listForNote(places, '; ')}.`,
      );
    }
    for (const [file, count] of repeatedRecords)
      notes.push(`${file}: ${count} record(s) also in another FineSurE file (identical), read once.`);
    if (fromFineSurEOnly.length > 0) {
      notes.push(
        `${fromFineSurEOnly.length} summaries have no article file and were imported from FineSurE (document = its transcript, units = its sentences): ${listForNote(fromFineSurEOnly)}.`,
      );
    }
    if (derivedLabels.length > 0) {
      notes.push(
        `${derivedLabels.length} summaries have no Factuality record; their global label is derived from the majority sentence labels: ${listForNote(derivedLabels)}.`,
      );
    }
    if (rebuilt.length > 0)
      notes.push(
        `${rebuilt.length} summaries whose lines could not be located in the summary text use the lines joined by spaces: ${listForNote(rebuilt)}.`,
      );
    if (skippedNoText.length > 0)
      notes.push(
        `${skippedNoText.length} annotation records skipped: no article file or FineSurE record with their text (${listForNote(skippedNoText)}).`,
      );
    if (unusedArticles > 0) notes.push(`${unusedArticles} article file(s) had no annotated summary and were not used.`);

    const filesUsed = files
      .map((f) => f.path)
      .filter((p) => usedArticles.has(p) || annotationFiles.has(p) || fineSurEFiles.has(p));
    return { kind: 'frank', summaries, labels, predictions, filesUsed, notes, predictionsSkipped: skippedPredictions };
  },
};
