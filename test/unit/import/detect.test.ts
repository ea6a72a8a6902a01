/** Format detection on every real sample, file by file and folder by folder, and on the fixtures. */
import { describe, expect, it } from 'vitest';
import { detectKind, parserFor, PARSERS } from '../../../shared/formats/registry';
import { IMPORT_KINDS } from '../../../shared/formats/types';
import { fixture, folder, headOf, sample, source } from './helpers';

const headsOf = (dir: string) => folder(sample(dir)).map(headOf);

describe('detectKind', () => {
  it('has one parser per import kind', () => {
    expect(PARSERS.map((p) => p.kind).sort()).toEqual([...IMPORT_KINDS].sort());
    expect(parserFor('tofueval').kind).toBe('tofueval');
  });

  it.each([
    ['frank', 'frank'],
    ['tofueval', 'tofueval'],
    ['xsumfaith', 'xsumfaith'],
    ['cogensumm', 'cogensumm'],
    ['summedits', 'summedits'],
    ['faithbench', 'faithbench'],
  ] as const)('recognises the real %s folder', (dir, kind) => {
    expect(detectKind(headsOf(dir))).toEqual({ kind });
  });

  it('recognises every real file on its own, and knows the files that are no import', () => {
    const expected: Record<string, string> = {
      'frank/human_annotations.shared-subset.json': 'frank',
      'frank/finesure-format/frank-data-100.json': 'frank',
      'frank/finesure-format/frank-data-sample-10.json': 'frank',
      'frank/finesure-format/fact-checking-raw-data.finesure.json': 'frank',
      'frank/articles-json/21326309.json': 'frank',
      'frank/articles-json/132e50805378d42b2996fdd648d1da78c60d235d.json': 'frank',
      'frank/baseline_factuality_metrics_outputs.shared-subset.json': 'unknown',
      'tofueval/factual_consistency/mediasum_factual_eval_dev.csv': 'tofueval',
      'tofueval/factual_consistency/meetingbank_factual_eval_dev.csv': 'tofueval',
      'tofueval/document_ids_dev_test_split.json': 'unknown',
      'tofueval/topic_category/mediasum_topic_category.json': 'unknown',
      'xsumfaith/hallucination_annotations_xsum_summaries.shared-subset.csv': 'xsumfaith',
      'xsumfaith/factuality_annotations_xsum_summaries.shared-subset.csv': 'xsumfaith',
      'cogensumm/test_see17_org.json': 'cogensumm',
      'cogensumm/README.txt': 'unknown',
      'summedits/summedits_samsum.json': 'summedits',
      'summedits/LICENSE.txt': 'unknown',
      'faithbench/data_for_release/batch_1.json': 'faithbench',
      'faithbench/data_for_release/batch_2.json': 'faithbench',
    };
    const detected: Record<string, string> = {};
    for (const path of Object.keys(expected)) {
      const result = detectKind([headOf(source(sample(path), path))]);
      detected[path] =
        'kind' in result ? result.kind : 'unknown' in result ? 'unknown' : `ambiguous: ${result.ambiguous.join(', ')}`;
    }
    expect(detected).toEqual(expected);
  });

  it('recognises the fixtures: Loupe summaries and labels by their columns, HaluEval', () => {
    const kinds = ['summaries.jsonl', 'summaries.csv', 'labels.jsonl', 'labels.csv', 'halueval-sample.jsonl'].map(
      (name) => detectKind([headOf(source(fixture(name)))]),
    );
    expect(kinds).toEqual([
      { kind: 'summaries' },
      { kind: 'summaries' },
      { kind: 'labels' },
      { kind: 'labels' },
      { kind: 'halueval' },
    ]);
  });

  it('is ambiguous when the columns do not tell summaries from labels', () => {
    expect(detectKind([{ path: 'x.jsonl', head: '{"summary_id": "s1"}\n' }])).toEqual({
      ambiguous: ['summaries', 'labels'],
    });
    expect(detectKind([{ path: 'x.csv', head: 'summary_id,annotator\ns1,ana\n' }])).toEqual({
      ambiguous: ['summaries', 'labels'],
    });
  });

  it('is ambiguous for two benchmarks at once, and unknown for anything else', () => {
    expect(detectKind([...headsOf('frank'), ...headsOf('xsumfaith')])).toEqual({ ambiguous: ['frank', 'xsumfaith'] });
    expect(detectKind([{ path: 'notes.txt', head: 'hello' }])).toEqual({ unknown: true });
    expect(detectKind([])).toEqual({ unknown: true });
  });

  it('XSumFaith CSVs next to FRANK article files are XSumFaith (the articles only supply documents)', () => {
    const heads = [...headsOf('xsumfaith'), ...folder(sample('frank', 'articles-json')).map(headOf)];
    expect(detectKind(heads)).toEqual({ kind: 'xsumfaith' });
    expect(parserFor('xsumfaith').select!(heads)).toHaveLength(2 + 51);
  });

  it('HaluEval whose first document fills the whole head: told by the file name only', () => {
    const head = `{"document": "${'word '.repeat(2000)}`.slice(0, 8192);
    expect(detectKind([{ path: 'data/summarization_data.json', head }])).toEqual({ kind: 'halueval' });
    expect(detectKind([{ path: 'data/other.jsonl', head }])).toEqual({ unknown: true });
  });

  it('long first records: FineSurE and SummEdits are still recognised from their leading keys', () => {
    const longText = 'word '.repeat(3000);
    const fineSurE = JSON.stringify({
      doc_id: 'h',
      source: 'cnndm',
      split: 'test',
      model: 'bart',
      transcript: longText,
      sentences: ['a.'],
      raw_annotations: {},
    });
    expect(detectKind([{ path: 'frank-data.json', head: fineSurE.slice(0, 8192) }])).toEqual({ kind: 'frank' });
    const summEdits = JSON.stringify(
      [
        {
          id: 'news_1_og',
          doc: longText,
          summary: 's',
          label: 1,
          original_summary: 's',
          edit_types: [],
          split: 'test',
        },
      ],
      null,
      2,
    );
    expect(detectKind([{ path: 'summedits_news.json', head: summEdits.slice(0, 8192) }])).toEqual({
      kind: 'summedits',
    });
    expect(detectKind([{ path: 'other.json', head: summEdits.slice(0, 8192) }])).toEqual({ kind: 'summedits' });
  });
});

describe('predictions versus labels', () => {
  it('tells a judge predictions file from a human labels file by its columns', () => {
    expect(
      detectKind([{ path: 'p.jsonl', head: '{"summary_id": "s1", "sentence_index": 0, "judge": "j", "hard": 1}\n' }]),
    ).toEqual({ kind: 'predictions' });
    expect(detectKind([{ path: 'p.csv', head: 'summary_id,sentence_index,judge,hard,soft\ns1,0,j,1,0.9\n' }])).toEqual({
      kind: 'predictions',
    });
    expect(
      detectKind([
        { path: 'l.jsonl', head: '{"summary_id": "s1", "sentence_index": 0, "label": "faithful", "annotator": "a"}\n' },
      ]),
    ).toEqual({ kind: 'labels' });
  });
});
