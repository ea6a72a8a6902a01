/** FRANK as shipped in test/fixtures/benchmarks/frank: articles, human annotations, FineSurE files. */
import { describe, expect, it } from 'vitest';
import { FRANK_JUDGE, frankParser } from '../../../shared/formats/frank';
import type { ImportBatch } from '../../../shared/formats/types';
import { folder, headOf, problemsOf, sample, source, text } from './helpers';

const FRANK = sample('frank');
const all = folder(FRANK);
const selected = frankParser.select!(all.map(headOf));
const batch: ImportBatch = frankParser.parse(
  all.filter((f) => selected.includes(f.path)),
  {},
);

const CNN = '7bd0f51cb4745f01c3c69c0eead3ec9c5cdebc51';

describe('FRANK: the real sample folder', () => {
  it('selects the parts by content: 51 article files, the annotations list, 3 FineSurE files', () => {
    expect(selected.filter((p) => p.startsWith('articles-json/'))).toHaveLength(51);
    expect(selected.filter((p) => !p.startsWith('articles-json/'))).toEqual([
      'finesure-format/fact-checking-raw-data.finesure.json',
      'finesure-format/frank-data-100.json',
      'finesure-format/frank-data-sample-10.json',
      'human_annotations.shared-subset.json',
    ]);
    // The metric scores file and the licenses are not FRANK parts Loupe reads.
    expect(selected).not.toContain('baseline_factuality_metrics_outputs.shared-subset.json');
    expect(batch.filesUsed).toEqual(selected);
  });

  it('counts match an independent count', () => {
    // Checked with python over the same files: 229 human_annotations records (125 cnndm, 104 bbc),
    // 96 with Factuality == 1.0; 110 distinct (doc_id, model) FineSurE records, of which 107 have
    // `sentences` equal to <system>_lines after removing ASCII quotes and collapsing spaces;
    // their 3 annotators × sentences = 573 labels (156 with label 1); 41 annotator lists of
    // factuality_types are longer than the sentences; 10 judged records with 30 sentences.
    expect(batch.summaries).toHaveLength(229);
    expect(new Set(batch.summaries.map((s) => s.docId)).size).toBe(51);
    expect(batch.summaries.filter((s) => s.meta.source === 'cnndm')).toHaveLength(125);
    expect(batch.summaries.filter((s) => s.label === 1)).toHaveLength(96);
    expect(batch.labels).toHaveLength(573);
    expect(batch.labels.filter((l) => l.label === 'unfaithful')).toHaveLength(156);
    expect(new Set(batch.labels.map((l) => l.summaryId)).size).toBe(107);
    expect(batch.predictions).toHaveLength(30);
    expect(new Set(batch.summaries.map((s) => s.dataset))).toEqual(new Set(['frank']));
    expect(new Set(batch.labels.map((l) => l.annotator))).toEqual(new Set(['frank-0', 'frank-1', 'frank-2']));
  });

  it('maps FRANK error codes where the meaning is clear, and leaves misaligned type lists empty', () => {
    // python: aligned codes on label-1 sentences: EntE 46, OutE 30, RelE 6, CircE 13, GramE 9,
    // CorefE 4, LinkE 2, OtherE 1; the other 45 unfaithful labels come from misaligned lists.
    const byType = new Map<string | null, number>();
    for (const l of batch.labels.filter((x) => x.label === 'unfaithful'))
      byType.set(l.errorType, (byType.get(l.errorType) ?? 0) + 1);
    expect(Object.fromEntries(byType)).toEqual({ entity: 46, not_in_source: 30, relation: 6, other: 29, null: 45 });
    expect(batch.labels.filter((l) => l.label === 'faithful' && l.errorType !== null)).toEqual([]);
  });

  it('a CNN/DM bart summary: cased text, gold lines, global label, meta', () => {
    const bart = batch.summaries.find((s) => s.summaryId === `${CNN}:bart`);
    expect(bart).toEqual({
      dataset: 'frank',
      docId: CNN,
      document: expect.stringMatching(/^A spring snowstorm and icy roads caught Colorado drivers by surprise Friday/),
      summaryId: `${CNN}:bart`,
      summary:
        'No serious injuries were reported in the crashes on U.S. Highway 36 between Boulder and Denver , but tow-truck drivers were kept busy hauling away damaged cars . In Aurora , near Denver , one person died after being thrown from an Oldsmobile Bravada that lost control and rolled on an icy stretch of Interstate 225 .',
      label: 1,
      sentences: [
        'No serious injuries were reported in the crashes on U.S. Highway 36 between Boulder and Denver , but tow-truck drivers were kept busy hauling away damaged cars .',
        'In Aurora , near Denver , one person died after being thrown from an Oldsmobile Bravada that lost control and rolled on an icy stretch of Interstate 225 .',
      ],
      meta: { source: 'cnndm', split: 'valid', model: 'bart', factuality: 1, summaryField: 'bart_cased' },
      source: { file: `articles-json/${CNN}.json` },
    });
    expect(bart?.document).toHaveLength(5365);
  });

  it('the s2s summary of the same document: per-annotator labels, error types, judge predictions, once', () => {
    const labels = batch.labels.filter((l) => l.summaryId === `${CNN}:s2s`);
    // In fact-checking-raw-data (line 9) and frank-data-sample-10: emitted once.
    expect(labels).toHaveLength(9);
    expect(labels.map((l) => [l.annotator, l.sentenceIndex, l.label, l.errorType, l.note])).toEqual([
      ['frank-0', 0, 'unfaithful', 'other', 'FRANK GramE'],
      ['frank-0', 1, 'unfaithful', 'entity', 'FRANK EntE'],
      ['frank-0', 2, 'unfaithful', 'entity', 'FRANK EntE'],
      ['frank-1', 0, 'unfaithful', 'relation', 'FRANK RelE'],
      ['frank-1', 1, 'faithful', null, null],
      ['frank-1', 2, 'faithful', null, null],
      ['frank-2', 0, 'unfaithful', 'other', 'FRANK GramE'],
      ['frank-2', 1, 'faithful', null, null],
      ['frank-2', 2, 'faithful', null, null],
    ]);
    expect(labels[0]?.source).toEqual({ file: 'finesure-format/fact-checking-raw-data.finesure.json', line: 9 });
    expect(labels.every((l) => l.dataset === 'frank' && l.phase === 'annotation')).toBe(true);
    const predictions = batch.predictions.filter((p) => p.summaryId === `${CNN}:s2s`);
    expect(predictions.map((p) => [p.sentenceIndex, p.hard, p.soft, p.judge])).toEqual([
      [0, 0, null, FRANK_JUDGE],
      [1, 0, null, FRANK_JUDGE],
      [2, 0, null, FRANK_JUDGE],
    ]);
    expect(predictions[0]?.raw).toMatch(/^```json/);
    expect(batch.summaries.find((s) => s.summaryId === `${CNN}:s2s`)?.label).toBe(0);
  });

  it('an XSum summary whose annotator gave two codes for one sentence: that error type stays empty', () => {
    const labels = batch.labels.filter((l) => l.summaryId === '35933239:BERTS2S');
    expect(labels.map((l) => [l.annotator, l.label, l.errorType])).toEqual([
      ['frank-0', 'unfaithful', 'relation'],
      ['frank-1', 'unfaithful', 'entity'],
      ['frank-2', 'unfaithful', null],
    ]);
    expect(labels[0]?.source).toEqual({ file: 'finesure-format/frank-data-100.json', line: 1 });
    const summary = batch.summaries.find((s) => s.summaryId === '35933239:BERTS2S');
    expect(summary?.sentences).toEqual([
      'the fbi has said it will help the san bernardino killer to access iphones used by the san bernardino victims.',
    ]);
    expect(summary?.meta).toEqual({ source: 'bbc', split: 'test', model: 'BERTS2S', factuality: 0 });
  });

  it('summaries whose FineSurE sentences differ from the gold split get no labels, and the notes say which', () => {
    for (const id of [`a9df46183d0ebd5e9076f89c815f007623a12273:bart`, '34148931:PtGen', '37480920:TranS2S']) {
      expect(batch.labels.filter((l) => l.summaryId === id)).toEqual([]);
      expect(batch.summaries.some((s) => s.summaryId === id)).toBe(true);
    }
    expect(batch.notes.join('\n')).toContain('3 summaries got no sentence labels because FineSurE');
    // Quote-only differences still match: FineSurE stripped the quotes around "no regrets".
    expect(batch.labels.filter((l) => l.summaryId === '34148931:BERTS2S')).toHaveLength(3);
  });
});

describe('FRANK: other layouts and bad input', () => {
  const fineSurELine = (over: Record<string, unknown>) =>
    JSON.stringify({
      doc_id: 'doc-x',
      source: 'bbc',
      split: 'test',
      model: 'PtGen',
      transcript: 'The club said the striker would miss two matches.',
      reference: 'ref',
      sentences: ['the striker will miss two matches.', 'he was injured in training.'],
      raw_annotations: {
        annotator_0: { factuality_labels: [0, 1], factuality_types: ['NoE', 'OutE'] },
        annotator_1: { factuality_labels: [0, 1], factuality_types: ['NoE', 'OutE'] },
        annotator_2: { factuality_labels: [0, 0], factuality_types: ['NoE', 'NoE'] },
      },
      ...over,
    });

  it('a summary only in a FineSurE file is imported from it, with a derived label', () => {
    const parsed = frankParser.parse([text('extra.jsonl', fineSurELine({}))], {});
    expect(parsed.summaries).toEqual([
      {
        dataset: 'frank',
        docId: 'doc-x',
        document: 'The club said the striker would miss two matches.',
        summaryId: 'doc-x:PtGen',
        summary: 'the striker will miss two matches. he was injured in training.',
        // Sentence 2 has a majority (2 of 3) error label.
        label: 0,
        sentences: ['the striker will miss two matches.', 'he was injured in training.'],
        meta: {
          source: 'bbc',
          split: 'test',
          model: 'PtGen',
          factuality: null,
          documentFrom: 'FineSurE transcript (ASCII double quotes removed by FineSurE)',
          labelDerived: 'no Factuality record: 1 when no sentence has a majority error label, else 0',
        },
        source: { file: 'extra.jsonl', line: 1 },
      },
    ]);
    expect(parsed.labels.map((l) => [l.annotator, l.sentenceIndex, l.label, l.errorType])).toEqual([
      ['frank-0', 0, 'faithful', null],
      ['frank-0', 1, 'unfaithful', 'not_in_source'],
      ['frank-1', 0, 'faithful', null],
      ['frank-1', 1, 'unfaithful', 'not_in_source'],
      ['frank-2', 0, 'faithful', null],
      ['frank-2', 1, 'faithful', null],
    ]);
    expect(parsed.notes.join('\n')).toContain('1 summaries have no article file and were imported from FineSurE');
  });

  it('options.dataset renames the dataset of summaries, labels and predictions', () => {
    const parsed = frankParser.parse(
      [source(sample('frank', 'finesure-format', 'fact-checking-raw-data.finesure.json'))],
      { dataset: 'frank-small' },
    );
    expect(parsed.summaries).toHaveLength(10);
    expect(new Set([...parsed.summaries, ...parsed.labels, ...parsed.predictions].map((x) => x.dataset))).toEqual(
      new Set(['frank-small']),
    );
  });

  it('article files alone are not enough, and it says so', () => {
    const articleOnly = all.filter((f) => f.path.startsWith('articles-json/')).slice(0, 2);
    expect(problemsOf(() => frankParser.parse(articleOnly, {}))).toEqual([
      {
        file: articleOnly[0]!.path,
        expected: expect.stringContaining('FRANK human annotations'),
        found: 'only 2 article file(s)',
      },
    ]);
  });

  it('broken JSON, misaligned labels, bad Factuality, duplicate and conflicting records: every problem, with place', () => {
    const fineSurE = [
      fineSurELine({}),
      '{"doc_id": "broken",',
      fineSurELine({
        model: 'TranS2S',
        raw_annotations: { annotator_0: { factuality_labels: [1], factuality_types: ['EntE'] } },
      }),
    ].join('\n');
    const conflicting = fineSurELine({
      raw_annotations: { annotator_0: { factuality_labels: [1, 1], factuality_types: ['EntE', 'EntE'] } },
    });
    const annotations = JSON.stringify(
      [
        { hash: 'doc-x', model_name: 'PtGen', dataset: 'bbc', split: 'test', Factuality: 0.5 },
        { hash: 'doc-x', model_name: 'TConvS2S', dataset: 'bbc', split: 'test', Factuality: 1.5 },
        { hash: 'doc-x', model_name: 'PtGen', dataset: 'bbc', split: 'test', Factuality: 0.5 },
      ],
      null,
      4,
    );
    const problems = problemsOf(() =>
      frankParser.parse(
        [text('a.jsonl', fineSurE), text('b.jsonl', conflicting), text('human_annotations.json', annotations)],
        {},
      ),
    );
    expect(problems).toEqual([
      {
        file: 'a.jsonl',
        line: 2,
        expected: 'one complete JSON object on this line',
        found: expect.stringContaining('invalid JSON'),
      },
      {
        file: 'a.jsonl',
        line: 3,
        field: 'raw_annotations.annotator_0.factuality_labels',
        expected: 'one label per sentence (2)',
        found: '1 labels',
      },
      {
        file: 'b.jsonl',
        line: 1,
        field: 'raw_annotations',
        expected: 'the same sentences and annotations as a.jsonl line 1 (same doc_id and model)',
        found: 'different ones',
      },
      { file: 'human_annotations.json', record: 2, field: 'Factuality', expected: 'a value ≤ 1', found: '1.5' },
      {
        file: 'human_annotations.json',
        record: 3,
        expected: 'one record per (hash, model_name)',
        found: 'doc-x / PtGen again (first in human_annotations.json record 1)',
      },
    ]);
  });

  it('a JSON file that is no FRANK part is named', () => {
    const problems = problemsOf(() =>
      frankParser.parse([text('other.json', '{"x": 1}'), text('extra.jsonl', fineSurELine({}))], {}),
    );
    expect(problems).toEqual([
      {
        file: 'other.json',
        line: 1,
        expected: 'a FRANK part: an articles-json file, the human annotations list, or FineSurE JSON Lines',
        found: '{"x":1}',
      },
    ]);
  });
});

describe('FRANK: bundled judge predictions that do not fit their record', () => {
  const RAW = sample('frank', 'finesure-format', 'fact-checking-raw-data.finesure.json');
  const realLines = source(RAW).text.split('\n');
  /** The real FineSurE result file with one record's judge reply merged: one prediction short. */
  function withMergedReply(lineNumber: number): {
    file: ReturnType<typeof text>;
    summaryId: string;
    sentences: number;
  } {
    const lines = [...realLines];
    const record = JSON.parse(lines[lineNumber - 1]!) as {
      doc_id: string;
      model: string;
      sentences: string[];
      pred_faithfulness_labels: number[];
    };
    record.pred_faithfulness_labels = record.pred_faithfulness_labels.slice(1);
    lines[lineNumber - 1] = JSON.stringify(record);
    return {
      file: text('fact-checking-raw-data.finesure.json', lines.join('\n')),
      summaryId: `${record.doc_id}:${record.model}`,
      sentences: record.sentences.length,
    };
  }

  it('imports the record with its labels, leaves out only its predictions, and lists (file, line, expected, found)', () => {
    const { file, summaryId, sentences } = withMergedReply(3);
    const parsed = frankParser.parse([file], {});
    expect(parsed.summaries).toHaveLength(10);
    // 30 predictions in the real file; the record's 3 are left out, the other 9 records keep theirs.
    expect(sentences).toBe(3);
    expect(parsed.predictions).toHaveLength(27);
    expect(parsed.predictions.filter((p) => p.summaryId === summaryId)).toEqual([]);
    expect(parsed.labels.filter((l) => l.summaryId === summaryId)).toHaveLength(3 * sentences);
    expect(parsed.predictionsSkipped).toEqual([
      {
        file: 'fact-checking-raw-data.finesure.json',
        line: 3,
        summaryId,
        field: 'pred_faithfulness_labels',
        expected: 3,
        found: 2,
      },
    ]);
    expect(parsed.summaries.find((s) => s.summaryId === summaryId)?.meta.predictionsSkipped).toEqual([
      {
        judge: FRANK_JUDGE,
        file: 'fact-checking-raw-data.finesure.json',
        line: 3,
        field: 'pred_faithfulness_labels',
        expected: 3,
        found: 2,
      },
    ]);
    expect(parsed.notes.join('\n')).toContain(`1 record(s) imported without their "${FRANK_JUDGE}" predictions`);
    expect(parsed.notes.join('\n')).toContain(
      `fact-checking-raw-data.finesure.json line 3 (${summaryId}): 3 sentences, 2 predictions`,
    );
  });

  it('a file without such records lists none', () => {
    expect(frankParser.parse([source(RAW)], {}).predictionsSkipped).toEqual([]);
  });

  it('structural problems still reject the whole file: a wrong type next to the merged reply', () => {
    const { file } = withMergedReply(3);
    const lines = file.text.split('\n');
    lines[4] = lines[4]!.replace('"pred_faithfulness_labels": [', '"pred_faithfulness_labels": ["x", ');
    const problems = problemsOf(() => frankParser.parse([text(file.path, lines.join('\n'))], {}));
    expect(problems).toEqual([
      { file: file.path, line: 5, field: 'pred_faithfulness_labels.0', expected: 'one of 0, 1', found: '"x"' },
    ]);
  });
});
