/** FaithBench parser (shared/formats/faithbench.ts) on the real batches and on small made-up files. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS } from '../../helpers/benchmarks';
import type { HumanLabel } from '../../../shared/domain';
import { faithbenchParser } from '../../../shared/formats/faithbench';
import {
  ImportValidationError,
  type ImportBatch,
  type ImportProblem,
  type SourceFile,
} from '../../../shared/formats/types';
import { SPLITTER, splitSentences } from '../../../shared/split/sentences';
import Database from 'better-sqlite3';
import { openProjectDatabase } from '../../../db/open';
import { Repository } from '../../../db/repository';
import { runImport } from '../../../electron/core/imports/run';
import { tempDir } from '../../helpers/tmp';

const SAMPLE_DATA = BENCHMARKS;

function releaseFile(name: string): SourceFile {
  return {
    path: `faithbench/${name}`,
    text: readFileSync(join(SAMPLE_DATA, 'faithbench', 'data_for_release', name), 'utf8'),
  };
}

interface RawSample {
  sample_id: number;
  summary: string;
  annotations: Array<{ label: string[] }>;
}

/** Labels of one summary, per annotator, in sentence order. */
function labelsBy(batch: ImportBatch, summaryId: string): Record<string, HumanLabel[]> {
  const result: Record<string, HumanLabel[]> = {};
  for (const label of batch.labels.filter((l) => l.summaryId === summaryId)) {
    (result[label.annotator] ??= [])[label.sentenceIndex] = label.label;
  }
  return result;
}

function problemsOf(run: () => unknown): ImportProblem[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ImportValidationError) return error.problems;
    throw error;
  }
  throw new Error('expected an ImportValidationError');
}

/** A one-sample FaithBench file around `summary` with the given span annotations. */
function oneSample(summary: string, annotations: Array<Record<string, unknown>>, path = 'tiny.json'): SourceFile {
  const sample = {
    sample_id: 0,
    source: 'The council met on Tuesday. It approved the bridge.',
    summary,
    annotations: annotations.map((a, i) => ({ annot_id: i, annotator_id: 'x', note: '', ...a })),
    metadata: { summarizer: 'test/model', 'gpt-4-turbo': 1, raw_sample_id: 9 },
  };
  return { path, text: JSON.stringify({ samples: [sample] }) };
}

function span(annotator: string, label: string[], start: number, end: number): Record<string, unknown> {
  return { annotator_name: annotator, label, summary_start: start, summary_end: end };
}

describe('FaithBench release batches 1–2', () => {
  const files = [releaseFile('batch_1.json'), releaseFile('batch_2.json')];
  const batch = faithbenchParser.parse(files, {});
  const raw = files.flatMap((f) => (JSON.parse(f.text) as { samples: RawSample[] }).samples);

  it('reads 100 summaries, 72 with annotations, 254 spans', () => {
    expect(batch.kind).toBe('faithbench');
    expect(batch.summaries).toHaveLength(100);
    expect(batch.summaries.filter((s) => (s.meta.span_annotations as number) > 0)).toHaveLength(72);
    expect(batch.summaries.reduce((n, s) => n + (s.meta.span_annotations as number), 0)).toBe(254);
    expect(new Set(batch.labels.map((l) => l.summaryId)).size).toBe(72);
    expect(batch.predictions).toEqual([]);
    expect(batch.filesUsed).toEqual(['faithbench/batch_1.json', 'faithbench/batch_2.json']);
  });

  it('keeps the summary unchanged and gives its loupe-rules split as the sentences', () => {
    const first = batch.summaries[0];
    expect(first?.summaryId).toBe('batch_1-0');
    expect(first?.summary).toBe(raw[0]?.summary);
    expect(first?.summary.startsWith(' ')).toBe(true);
    for (const summary of batch.summaries) {
      expect(summary.sentences).toEqual(splitSentences(summary.summary).map((s) => s.text));
      expect(summary.dataset).toBe('faithbench');
    }
    expect(new Set(batch.summaries.map((s) => s.summaryId)).size).toBe(100);
  });

  it('gives one document id per source passage (10 passages)', () => {
    const ids = new Set(batch.summaries.map((s) => s.docId));
    expect(ids.size).toBe(10);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    const byDocument = new Map(batch.summaries.map((s) => [s.document, s.docId]));
    expect(byDocument.size).toBe(10);
  });

  it('derives the global label: 0 exactly when some span is Unwanted*', () => {
    const expected = raw.map((s) => (s.annotations.some((a) => a.label.some((l) => l.startsWith('Unwanted'))) ? 0 : 1));
    expect(batch.summaries.map((s) => s.label)).toEqual(expected);
    expect(expected.filter((l) => l === 0)).toHaveLength(59);
    for (const summary of batch.summaries) expect(summary.meta.label_derived).toBe(true);
  });

  it('keeps the summarizer and the summary-level judge scores in meta', () => {
    const meta = batch.summaries[0]?.meta;
    expect(meta?.summarizer).toBe('mistralai/Mistral-7B-Instruct-v0.3');
    expect(meta?.raw_sample_id).toBe(15);
    expect(meta?.summary_judges).toEqual({
      hhemv1: 0.9995,
      'hhem-2.1': 0.52694,
      'hhem-2.1-english': 0.98313,
      trueteacher: 1,
      true_nli: 1,
      'gpt-3.5-turbo': 1,
      'gpt-4-turbo': 1,
      gpt_4o: 1,
    });
    expect(meta?.splitter).toEqual({ name: 'loupe-rules', version: '1' });
  });

  it('labels only for annotators who marked a span on that summary, none for unannotated summaries', () => {
    expect(labelsBy(batch, 'batch_1-26')).toEqual({}); // no annotations at all
    expect(Object.keys(labelsBy(batch, 'batch_1-22'))).toEqual(['faithbench:forrest']); // one Benign span by forrest
    expect(batch.notes.join('\n')).toMatch(/28 of 100 summaries have no span annotations/);
    for (const label of batch.labels) {
      expect(label.phase).toBe('annotation');
      expect(label.annotator).toMatch(/^faithbench:/);
    }
  });

  // Hand-checked: printed splitSentences(summary) offsets next to each annotation's
  // summary_start/summary_end and summary_span, then read which sentences each span covers.
  it('batch_1-11: spans over several sentences; a span ending where the next sentence starts stops there', () => {
    // Sentences start/end: [1,60) [61,140) [141,230) [231,292) [293,418) [419,550).
    // forrest: Unwanted [293,550). Renyi Qu: Unwanted.Intrinsic [61,141) ("… album. " with the
    // trailing space, touching sentence 2 at 141), Unwanted.Extrinsic [141,550).
    expect(labelsBy(batch, 'batch_1-11')).toEqual({
      'faithbench:forrest': ['faithful', 'faithful', 'faithful', 'faithful', 'unfaithful', 'unfaithful'],
      'faithbench:Renyi Qu': ['faithful', 'unfaithful', 'unfaithful', 'unfaithful', 'unfaithful', 'unfaithful'],
    });
    const renyi = batch.labels.filter((l) => l.summaryId === 'batch_1-11' && l.annotator === 'faithbench:Renyi Qu');
    expect(renyi.map((l) => l.errorType)).toEqual([
      null,
      null,
      'not_in_source',
      'not_in_source',
      'not_in_source',
      'not_in_source',
    ]);
  });

  it('batch_1-12: a Benign span is not an error; a span touching the next sentence does not reach it', () => {
    // Sentences: [0,76) [77,171) [173,240) "1. …" [243,336) "2. …" [339,450) [451,555).
    // Renyi Qu: Unwanted.Extrinsic [0,77) = "I apologize, … provided. " → sentence 0 only.
    // forrest: Benign [340,451) → nothing.
    expect(labelsBy(batch, 'batch_1-12')).toEqual({
      'faithbench:forrest': Array(6).fill('faithful'),
      'faithbench:Renyi Qu': ['unfaithful', 'faithful', 'faithful', 'faithful', 'faithful', 'faithful'],
    });
  });

  it('batch_2-42: Questionable alone gives unclear, Unwanted from another annotator stays unfaithful', () => {
    // Sentences: 0 "Here's a concise summary…:", 1 "A crash occurred … 2:00 PM.", 2 "One person died, …",
    // 3 "The road was closed, …", 4 "Police Scotland is currently investigating the incident." [305,361).
    // Erana: Unwanted.Extrinsic on 2, Questionable [305,361) on 4. Weisi and Miaoran: Unwanted on 2 and 4.
    expect(labelsBy(batch, 'batch_2-42')).toEqual({
      'faithbench:Miaoran': ['faithful', 'faithful', 'unfaithful', 'faithful', 'unfaithful'],
      'faithbench:Weisi': ['faithful', 'faithful', 'unfaithful', 'faithful', 'unfaithful'],
      'faithbench:Erana': ['faithful', 'faithful', 'unfaithful', 'faithful', 'unclear'],
    });
    const erana = batch.labels.find(
      (l) => l.summaryId === 'batch_2-42' && l.annotator === 'faithbench:Erana' && l.sentenceIndex === 4,
    );
    expect(erana?.note).toContain('equates what police said to what they are doing');
  });

  it('batch_2-46: Unwanted beats Questionable in the same sentence', () => {
    // Sentences: [0,41) intro, [43,192) "A road incident … stated).", [193,273) "The road was closed, …".
    // Miaoran: Questionable [138,191) and Unwanted [90,99) both in 1; Unwanted [244,273) in 2.
    // Erana: Benign [43,58) + Unwanted.Extrinsic [101,192) in 1; Unwanted [193,238) + Questionable [244,272) in 2.
    // Weisi: Unwanted.Extrinsic [43,191) in 1.
    expect(labelsBy(batch, 'batch_2-46')).toEqual({
      'faithbench:Miaoran': ['faithful', 'unfaithful', 'unfaithful'],
      'faithbench:Erana': ['faithful', 'unfaithful', 'unfaithful'],
      'faithbench:Weisi': ['faithful', 'unfaithful', 'faithful'],
    });
  });

  it('uses the dataset name given by the user', () => {
    const named = faithbenchParser.parse([releaseFile('batch_1.json')], { dataset: 'fb-dev' });
    expect(new Set(named.summaries.map((s) => s.dataset))).toEqual(new Set(['fb-dev']));
    expect(new Set(named.labels.map((l) => l.dataset))).toEqual(new Set(['fb-dev']));
  });

  it('states the span → label mapping for the import dialog', () => {
    expect(faithbenchParser.mapping).toMatch(/Unwanted.*unfaithful.*Questionable.*unclear.*Benign/s);
  });
});

describe('FaithBench span → sentence mapping', () => {
  // Sentences: "One two." [0,8) and "Three four." [9,20); offset 8 is the space between them.
  const summary = 'One two. Three four.';

  it('a span touching a sentence edge does not count; one character inside does', () => {
    const batch = faithbenchParser.parse(
      [
        oneSample(summary, [
          span('ends-at-start', ['Unwanted'], 0, 9), // [0,9) reaches the space, not "Three"
          span('starts-at-end', ['Unwanted'], 8, 20), // starts on the space after "two."
          span('one-char', ['Unwanted'], 7, 10), // "." of sentence 0 and "T" of sentence 1
        ]),
      ],
      {},
    );
    expect(labelsBy(batch, 'tiny-0')).toEqual({
      'faithbench:ends-at-start': ['unfaithful', 'faithful'],
      'faithbench:starts-at-end': ['faithful', 'unfaithful'],
      'faithbench:one-char': ['unfaithful', 'unfaithful'],
    });
  });

  it('a span on the white space between sentences labels nothing and is reported', () => {
    const batch = faithbenchParser.parse([oneSample(summary, [span('gap', ['Unwanted'], 8, 9)])], {});
    expect(labelsBy(batch, 'tiny-0')).toEqual({ 'faithbench:gap': ['faithful', 'faithful'] });
    expect(batch.notes.join('\n')).toMatch(/1 of 1 spans cover only white space/);
  });

  it('per annotator: Unwanted* > Questionable > faithful, Benign ignored', () => {
    const batch = faithbenchParser.parse(
      [
        oneSample(summary, [
          span('ann', ['Questionable'], 0, 3),
          span('ann', ['Unwanted', 'Unwanted.Intrinsic'], 4, 7),
          span('ann', ['Questionable'], 9, 14),
          span('ben', ['Benign'], 0, 20),
          span('mixed', ['Benign', 'Questionable'], 9, 14),
        ]),
      ],
      {},
    );
    expect(labelsBy(batch, 'tiny-0')).toEqual({
      'faithbench:ann': ['unfaithful', 'unclear'],
      'faithbench:ben': ['faithful', 'faithful'],
      'faithbench:mixed': ['faithful', 'unclear'],
    });
    expect(batch.summaries[0]?.label).toBe(0);
  });

  it('Questionable or Benign spans only: global label 1; no spans: 1 and no sentence labels', () => {
    const questionable = faithbenchParser.parse([oneSample(summary, [span('q', ['Questionable'], 0, 3)])], {});
    expect(questionable.summaries[0]?.label).toBe(1);
    const none = faithbenchParser.parse([oneSample(summary, [])], {});
    expect(none.summaries[0]?.label).toBe(1);
    expect(none.labels).toEqual([]);
  });

  it('Unwanted.Extrinsic alone sets the error type "not_in_source"; Intrinsic sets none', () => {
    const batch = faithbenchParser.parse(
      [
        oneSample(summary, [
          span('a', ['Unwanted', 'Unwanted.Extrinsic'], 0, 3),
          span('a', ['Unwanted', 'Unwanted.Intrinsic'], 9, 14),
        ]),
      ],
      {},
    );
    expect(batch.labels.map((l) => l.errorType)).toEqual(['not_in_source', null]);
  });
});

describe('FaithBench problems', () => {
  it('broken JSON', () => {
    const [problem, ...rest] = problemsOf(() =>
      faithbenchParser.parse([{ path: 'b.json', text: '{"samples": [' }], {}),
    );
    expect(rest).toEqual([]);
    expect(problem?.file).toBe('b.json');
    expect(problem?.expected).toMatch(/^valid JSON/);
  });

  it('missing samples', () => {
    expect(problemsOf(() => faithbenchParser.parse([{ path: 'b.json', text: '{"items": []}' }], {}))).toEqual([
      {
        file: 'b.json',
        field: 'samples',
        expected: 'a FaithBench file: an object {"samples": [...]}',
        found: 'nothing',
      },
    ]);
  });

  it('missing and empty summaries, named by record and field', () => {
    const text = JSON.stringify({
      samples: [
        { sample_id: 0, source: 'S.', annotations: [] },
        { sample_id: 1, source: 'S.', summary: '   ', annotations: [] },
        { sample_id: 2, source: 'S.', summary: 'Fine.', annotations: [] },
      ],
    });
    const problems = problemsOf(() => faithbenchParser.parse([{ path: 'b.json', text }], {}));
    expect(problems.map((p) => [p.file, p.record, p.field])).toEqual([
      ['b.json', 1, 'summary'],
      ['b.json', 2, 'summary'],
    ]);
    expect(problems[0]?.expected).toMatch(/summary text/);
  });

  it('span offsets out of range, reversed, or not matching summary_span', () => {
    const summary = 'One two. Three four.'; // 20 characters
    const problems = problemsOf(() =>
      faithbenchParser.parse(
        [
          oneSample(summary, [
            span('a', ['Unwanted'], 0, 21),
            span('a', ['Unwanted'], -1, 3),
            span('a', ['Unwanted'], 5, 5),
            { ...span('a', ['Unwanted'], 0, 3), summary_span: 'Two' },
          ]),
        ],
        {},
      ),
    );
    expect(problems.map((p) => [p.record, p.field])).toEqual([
      [1, 'annotations[0].summary_end'],
      [1, 'annotations[1].summary_start'],
      [1, 'annotations[2].summary_end'],
      [1, 'annotations[3].summary_span'],
    ]);
    expect(problems[0]?.expected).toContain('at most 20');
    expect(problems[0]?.found).toBe('21');
    expect(problems[3]?.expected).toContain('"One"');
  });

  it('unknown labels, missing annotator, missing annotations list', () => {
    const problems = problemsOf(() =>
      faithbenchParser.parse([oneSample('One two.', [span('a', ['Wrong'], 0, 3), span('', ['Benign'], 0, 3)])], {}),
    );
    expect(problems.map((p) => p.field)).toEqual(['annotations[0].label', 'annotations[1].annotator_name']);
    expect(problems[0]?.expected).toContain('Unwanted.Extrinsic');
    const noList = JSON.stringify({ samples: [{ sample_id: 0, source: 'S.', summary: 'A.' }] });
    expect(
      problemsOf(() => faithbenchParser.parse([{ path: 'b.json', text: noList }], {})).map((p) => p.field),
    ).toEqual(['annotations']);
  });

  it('duplicate sample ids in a file, and two files with the same name', () => {
    const text = JSON.stringify({
      samples: [
        { sample_id: 3, source: 'S.', summary: 'A.', annotations: [] },
        { sample_id: 3, source: 'S.', summary: 'B.', annotations: [] },
      ],
    });
    expect(
      problemsOf(() => faithbenchParser.parse([{ path: 'b.json', text }], {})).map((p) => [p.record, p.field]),
    ).toEqual([[2, 'sample_id']]);
    const twice = problemsOf(() =>
      faithbenchParser.parse([oneSample('A.', [], 'x/batch_1.json'), oneSample('A.', [], 'y/batch_1.json')], {}),
    );
    expect(twice.map((p) => [p.file, p.found])).toEqual([['y/batch_1.json', 'batch_1-0']]);
  });

  it('reports every problem of every file at once', () => {
    const problems = problemsOf(() =>
      faithbenchParser.parse(
        [{ path: 'a.json', text: 'nope' }, oneSample('One.', [span('a', ['Unwanted'], 0, 9)], 'b.json')],
        {},
      ),
    );
    expect(problems.map((p) => p.file)).toEqual(['a.json', 'b.json']);
  });
});

describe('FaithBench detection', () => {
  const head = (path: string, text: string) => ({ path, head: text.slice(0, 8192) });

  it('is certain for the release batches and says no to other JSON', () => {
    const batch1 = releaseFile('batch_1.json');
    expect(faithbenchParser.sniff([head(batch1.path, batch1.text)])).toBe(2);
    const frank = readFileSync(join(SAMPLE_DATA, 'frank', 'articles-json', '21326309.json'), 'utf8');
    expect(faithbenchParser.sniff([head('21326309.json', frank)])).toBe(0);
    expect(faithbenchParser.sniff([head('x.json', '{"samples": [{"annotations": []}]}')])).toBe(0);
  });

  it('selects only the batch files of a folder', () => {
    const batch1 = releaseFile('batch_1.json');
    const batch2 = releaseFile('batch_2.json');
    const license = readFileSync(join(SAMPLE_DATA, 'faithbench', 'LICENSE'), 'utf8');
    const files = [head(batch1.path, batch1.text), head('faithbench/LICENSE', license), head(batch2.path, batch2.text)];
    expect(faithbenchParser.sniff(files)).toBe(2);
    expect(faithbenchParser.select?.(files)).toEqual(['faithbench/batch_1.json', 'faithbench/batch_2.json']);
  });
});

describe('FaithBench split provenance', () => {
  const project = () => new Repository(openProjectDatabase(Database, join(tempDir(), 'p.loupe'), { create: true }));
  const release = (name: string) => join(SAMPLE_DATA, 'faithbench', 'data_for_release', name);

  it('the parser says Loupe split the summaries, with the splitter version', () => {
    const batch = faithbenchParser.parse([releaseFile('batch_1.json')], {});
    expect(new Set(batch.summaries.map((s) => JSON.stringify(s.splitter)))).toEqual(
      new Set([JSON.stringify({ name: 'loupe-rules', version: SPLITTER.version })]),
    );
  });

  it('the stored units record loupe-rules and its version, not "given" with the batch file', async () => {
    const repo = project();
    const result = await runImport(repo, { source: { type: 'path', path: release('batch_1.json') } });
    expect(result.kind).toBe('faithbench');
    expect(repo.review.splitters('faithbench')).toEqual([
      { dataset: 'faithbench', splitter: 'loupe-rules', version: SPLITTER.version, units: result.unitsAdded },
    ]);
  });

  it('a benchmark that ships its split keeps "given" with its file (CoGenSumm)', async () => {
    const repo = project();
    const result = await runImport(repo, {
      source: { type: 'path', path: join(SAMPLE_DATA, 'cogensumm', 'test_see17_org.json') },
      as: 'cogensumm',
      dataset: 'cg',
    });
    expect(repo.review.splitters('cg')).toEqual([
      { dataset: 'cg', splitter: 'given', version: 'test_see17_org.json', units: result.unitsAdded },
    ]);
  });
});
