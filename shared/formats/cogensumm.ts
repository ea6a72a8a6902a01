/**
 * CoGenSumm (Falke et al., 2019; test_*_org.json as vendored by QAGS):
 * `{ <cnndm story hash>: { label, sents: { "0": { label, text }, … } } }`.
 * Sentence labels Correct / Incorrect / Unclear; documents are not included.
 * The release is a folder of such files, one per system (`test_see17_org.json`,
 * `test_chen18_reranked.json`, …) over the same stories: one dataset, one summary per story and
 * file, the system named by the file.
 */
import { z } from 'zod';
import type { HumanLabel } from '../domain';
import { describeValue, lineAt, parseJsonDocument, ProblemCollector, validateRecord } from './jsonl';
import { nonEmptyText } from './summaries';
import type { FileHead, FormatParser, ImportedLabel, ImportedSummary } from './types';
import { detectPerFile } from './detection';

const SENTENCE_LABELS: Record<string, HumanLabel> = {
  Correct: 'faithful',
  Incorrect: 'unfaithful',
  Unclear: 'unclear',
};

const CoGenSummRecordSchema = z.object({
  label: z.enum(['Correct', 'Incorrect']),
  sents: z.record(
    z.string(),
    z.object({ label: z.enum(['Correct', 'Incorrect', 'Unclear']), text: nonEmptyText('a non-empty sentence') }),
  ),
});

export const COGENSUMM_ANNOTATOR = 'cogensumm';

/** The system and split a release file names: `test_chen18_reranked.json` → chen18_reranked, test. */
export function coGenSummSystem(path: string): { system: string; split: string | null } {
  const stem = (path.split(/[\\/]/).pop() ?? path).replace(/\.json$/i, '');
  const named = /^(test|val)_(.+)$/.exec(stem);
  return named ? { system: named[2]!, split: named[1]! } : { system: stem, split: null };
}

function coGenSummScore(file: FileHead): 0 | 1 | 2 {
  // An object keyed by story hashes whose first value has a label and sentences.
  if (/^\uFEFF?\s*\{\s*"[0-9a-f]{40}"\s*:\s*\{/.test(file.head) && /"sents"\s*:\s*\{/.test(file.head)) return 2;
  return 0;
}

export const cogensummParser: FormatParser = {
  kind: 'cogensumm',
  description: 'CoGenSumm (Falke et al. 2019; JSON object: hash → {label, sents})',
  mapping:
    'Sentence labels Correct → faithful, Incorrect → unfaithful, Unclear → unclear (annotator "cogensumm"); summary label Correct → 1, Incorrect → 0; documents are not included.',

  ...detectPerFile((f) => coGenSummScore(f)),

  parse(files, options) {
    const problems = new ProblemCollector();
    const summaries: ImportedSummary[] = [];
    const labels: ImportedLabel[] = [];
    const dataset = options.dataset ?? 'cogensumm';
    // One summary per story and system: a story may come once from each file.
    const firstFileOfSummary = new Map<string, string>();
    // One file keeps the story hash as the summary id; a folder of systems adds the system to it.
    const severalFiles = files.length > 1;

    for (const file of files) {
      const { system, split } = coGenSummSystem(file.path);
      const data = parseJsonDocument(file, problems);
      if (data === undefined) continue;
      if (data === null || typeof data !== 'object' || Array.isArray(data)) {
        problems.add({
          file: file.path,
          line: 1,
          expected: 'a JSON object: story hash → {label, sents}',
          found: describeValue(data, 40),
        });
        continue;
      }
      // The file is an object, so the key's line is the useful position. Keys come in file order:
      // search onwards from the previous one and count lines incrementally (large files stay linear).
      let cursor = 0;
      let cursorLine = 1;
      for (const [hash, value] of Object.entries(data as Record<string, unknown>)) {
        if (problems.full) break;
        const at = file.text.indexOf(JSON.stringify(hash), cursor);
        if (at >= 0) {
          cursorLine += lineAt(file.text.slice(cursor, at), at - cursor) - 1;
          cursor = at;
        }
        const place = { file: file.path, ...(at >= 0 ? { line: cursorLine } : {}) };
        const record = validateRecord(CoGenSummRecordSchema, value, place, problems);
        if (!record) continue;
        const summaryId = severalFiles ? `${hash}:${system}` : hash;
        const earlier = firstFileOfSummary.get(summaryId);
        if (earlier) {
          problems.add({
            ...place,
            expected: `each story hash once per system (the system is named by the file: "${system}")`,
            found: `"${hash}" again (first in ${earlier})`,
          });
          continue;
        }
        firstFileOfSummary.set(summaryId, file.path);
        const keys = Object.keys(record.sents);
        const expectedKeys = keys.map((_, i) => String(i));
        const outOfOrder = keys.findIndex((k, i) => k !== expectedKeys[i]);
        if (keys.length === 0 || outOfOrder >= 0) {
          problems.add({
            ...place,
            field: 'sents',
            expected: 'sentences numbered "0", "1", … in order without gaps',
            found: keys.length === 0 ? 'no sentences' : `keys ${describeValue(keys)}`,
          });
          continue;
        }
        const sentences = keys.map((k) => record.sents[k]!);
        summaries.push({
          dataset,
          docId: hash,
          document: null,
          summaryId,
          summary: sentences.map((s) => s.text).join(' '),
          label: record.label === 'Correct' ? 1 : 0,
          sentences: sentences.map((s) => s.text),
          meta: { source: 'cnndm', originalLabel: record.label, system, split },
          source: place,
        });
        sentences.forEach((s, index) => {
          labels.push({
            dataset,
            summaryId,
            sentenceIndex: index,
            label: SENTENCE_LABELS[s.label]!,
            annotator: COGENSUMM_ANNOTATOR,
            phase: 'annotation',
            errorType: null,
            note: null,
            source: place,
          });
        });
      }
    }
    problems.throwIfAny();
    const count = (l: HumanLabel) => labels.filter((x) => x.label === l).length;
    const notes = [
      `${summaries.length} summaries (${summaries.filter((s) => s.label === 1).length} Correct, ${summaries.filter((s) => s.label === 0).length} Incorrect) with ${labels.length} sentence labels: ` +
        `${count('faithful')} faithful, ${count('unfaithful')} unfaithful, ${count('unclear')} unclear (annotator "${COGENSUMM_ANNOTATOR}").`,
      'Documents are not included (CNN/DailyMail story hashes only): every summary is imported with its document missing; attach documents before annotating.',
      'The summary text is the given sentences joined by single spaces; the sentence split is kept as given.',
    ];
    const systems = [...new Set(summaries.map((s) => s.meta.system as string))];
    notes.push(
      severalFiles
        ? `${files.length} files, one system each (named by the file): ${systems.join(', ')}; summary id "<story hash>:<system>", document id the story hash (shared by the systems).`
        : `System "${systems[0] ?? coGenSummSystem(files[0]?.path ?? '').system}" (named by the file); summary id = the story hash.`,
    );
    return { kind: 'cogensumm', summaries, labels, predictions: [], filesUsed: files.map((f) => f.path), notes };
  },
};
