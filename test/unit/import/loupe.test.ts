/** Loupe's own formats: `summaries` and `labels`, JSONL and CSV, good and bad input. */
import { describe, expect, it } from 'vitest';
import { labelsParser } from '../../../shared/formats/labels';
import { summariesParser } from '../../../shared/formats/summaries';
import { fixture, problemsOf, source, text } from './helpers';

const DOC = 'The council approved the new bridge on Tuesday.';
const line = (o: Record<string, unknown>) => JSON.stringify(o);
const good = (over: Record<string, unknown> = {}) =>
  line({ dataset: 'd', doc_id: 'doc', document: DOC, summary_id: 's1', summary: 'A bridge was approved.', ...over });

describe('summaries: JSONL', () => {
  const batch = summariesParser.parse([source(fixture('summaries.jsonl'))], {});

  it('reads every record, with physical line numbers (blank line 3 skipped)', () => {
    expect(batch.kind).toBe('summaries');
    expect(batch.summaries.map((s) => [s.summaryId, s.source.line])).toEqual([
      ['d1-a', 1],
      ['d1-b', 2],
      ['7', 4],
    ]);
    expect(batch.labels).toEqual([]);
    expect(batch.filesUsed).toEqual(['summaries.jsonl']);
  });

  it('keeps label, given sentences and meta as given', () => {
    const [first, second, third] = batch.summaries;
    expect(first).toEqual({
      dataset: 'demo-news',
      docId: 'd1',
      document:
        'The council approved the new bridge on Tuesday. Construction starts in May and will cost 12 million euros.',
      summaryId: 'd1-a',
      summary: 'The council approved a bridge. Work begins in May.',
      label: 1,
      sentences: ['The council approved a bridge.', 'Work begins in May.'],
      meta: { system: 'model-x' },
      source: { file: 'summaries.jsonl', line: 1 },
    });
    expect(second?.label).toBe(0);
    expect(second?.sentences).toBeNull();
    // Integer ids become strings; no label means null.
    expect(third?.docId).toBe('7');
    expect(third?.label).toBeNull();
    expect(third?.meta).toEqual({});
  });

  it('options.dataset overrides the file and may replace a missing dataset', () => {
    const noDataset = line({ doc_id: 'doc', document: DOC, summary_id: 's1', summary: 'A bridge was approved.' });
    const parsed = summariesParser.parse([text('x.jsonl', `${good()}\n${noDataset.replace('s1', 's2')}`)], {
      dataset: 'mine',
    });
    expect(parsed.summaries.map((s) => s.dataset)).toEqual(['mine', 'mine']);
    const problems = problemsOf(() => summariesParser.parse([text('x.jsonl', noDataset)], {}));
    expect(problems).toEqual([
      {
        file: 'x.jsonl',
        line: 1,
        field: 'dataset',
        expected: expect.stringContaining('dataset name'),
        found: 'nothing',
      },
    ]);
  });
});

describe('summaries: CSV', () => {
  const batch = summariesParser.parse([source(fixture('summaries.csv'))], {});

  it('reads rows with the line where each starts (cells span two lines)', () => {
    expect(batch.summaries.map((s) => [s.summaryId, s.source.line, s.label])).toEqual([
      ['s1', 2, 1],
      ['s2', 4, 0],
      ['s3', 6, null],
    ]);
  });

  it('decodes the JSON cells and keeps the document text (line breaks as LF)', () => {
    const first = batch.summaries[0];
    expect(first?.document).toBe('The mayor said the park will reopen in June.\nNew benches were installed.');
    expect(first?.sentences).toEqual(['The park reopens in June.', 'It has new benches.']);
    expect(first?.meta).toEqual({ system: 'gold' });
    expect(batch.summaries[2]?.sentences).toBeNull();
  });

  it('rejects a wrong header, naming the missing column', () => {
    const problems = problemsOf(() =>
      summariesParser.parse([text('bad.csv', 'dataset,doc,document,summary_id,summary\nd,1,x,s,y\n')], {}),
    );
    expect(problems).toEqual([
      {
        file: 'bad.csv',
        line: 1,
        field: 'doc_id',
        expected: expect.stringContaining('a column named "doc_id"'),
        found: '"dataset,doc,document,summary_id,summary"',
      },
    ]);
  });

  it('reports wrong labels, bad JSON cells and wrong cell counts at their lines', () => {
    const csv = [
      'dataset,doc_id,document,summary_id,summary,label,sentences',
      'd,doc,Some text.,s1,A summary.,yes,',
      'd,doc,Some text.,s2,A summary.,1,[not json',
      'd,doc,Some text.,s3,A summary.',
      'd,doc,Some text.,s4,"Two. Lines.",0,"[""Two."", ""Missing.""]"',
    ].join('\n');
    const problems = problemsOf(() => summariesParser.parse([text('bad.csv', csv)], {}));
    expect(problems).toEqual([
      { file: 'bad.csv', line: 2, field: 'label', expected: 'one of 0, 1', found: '"yes"' },
      {
        file: 'bad.csv',
        line: 3,
        field: 'sentences',
        expected: expect.stringContaining('a JSON list of strings'),
        found: '"[not json"',
      },
      { file: 'bad.csv', line: 4, expected: '7 cells as in the header', found: '5 cells' },
      {
        file: 'bad.csv',
        line: 5,
        field: 'sentences.1',
        expected: 'sentences that each occur in the summary, in order',
        found: '"Missing."',
      },
    ]);
  });
});

describe('summaries: bad input imports nothing and lists every problem', () => {
  it('duplicate summary ids name both lines; empty summary; wrong label; broken JSON; missing field', () => {
    const body = [
      good(),
      good({ summary: '   ', summary_id: 's2' }),
      good({ summary_id: 's3', label: 2 }),
      '{"dataset": "d", "doc_id": "doc", ',
      '',
      good({ summary_id: 's1', summary: 'Another one.' }),
      line({ dataset: 'd', doc_id: 'doc', summary_id: 's5', summary: 'No document.' }),
      good({ summary_id: 's6', document: 'A different text for the same doc_id.' }),
    ].join('\n');
    const problems = problemsOf(() => summariesParser.parse([text('bad.jsonl', body)], {}));
    expect(problems).toEqual([
      { file: 'bad.jsonl', line: 2, field: 'summary', expected: 'a non-empty summary', found: '"   "' },
      { file: 'bad.jsonl', line: 3, field: 'label', expected: 'one of 0, 1', found: '2' },
      {
        file: 'bad.jsonl',
        line: 4,
        expected: 'one complete JSON object on this line',
        found: expect.stringContaining('invalid JSON'),
      },
      {
        file: 'bad.jsonl',
        line: 6,
        field: 'summary_id',
        expected: 'a summary_id used once in dataset "d"',
        found: '"s1" again (first on line 1)',
      },
      {
        file: 'bad.jsonl',
        line: 7,
        field: 'document',
        expected: 'a non-empty document text (required)',
        found: 'nothing',
      },
      {
        file: 'bad.jsonl',
        line: 8,
        field: 'document',
        expected: 'the same document text for doc_id "doc" as on line 1',
        found: 'a different text',
      },
    ]);
  });

  it('the same summary_id in two datasets is fine; across two files of one dataset it is not', () => {
    const ok = summariesParser.parse([text('a.jsonl', `${good()}\n${good({ dataset: 'other' })}`)], {});
    expect(ok.summaries).toHaveLength(2);
    const problems = problemsOf(() => summariesParser.parse([text('a.jsonl', good()), text('b.jsonl', good())], {}));
    expect(problems).toEqual([
      {
        file: 'b.jsonl',
        line: 1,
        field: 'summary_id',
        expected: 'a summary_id used once in dataset "d"',
        found: '"s1" again (first on a.jsonl line 1)',
      },
    ]);
  });

  it('a JSON list is not JSON Lines', () => {
    expect(problemsOf(() => summariesParser.parse([text('list.json', `[${good()}]`)], {}))).toEqual([
      { file: 'list.json', line: 1, expected: 'JSON Lines (one summary object per line) or CSV', found: 'a JSON list' },
    ]);
  });

  it('stops at 200 problems and says there were more', () => {
    const body = Array.from({ length: 250 }, (_, i) => good({ summary_id: `s${i}`, label: 'x' })).join('\n');
    try {
      summariesParser.parse([text('many.jsonl', body)], {});
      throw new Error('should have failed');
    } catch (error) {
      const problems = (error as { problems: unknown[] }).problems;
      expect(problems).toHaveLength(200);
      expect((error as Error).message).toMatch(
        /^Nothing was imported: at least 200 problems found; the first 200 are listed\./,
      );
    }
  });
});

describe('labels', () => {
  it('reads JSONL with defaults (phase annotation, no error type, dataset null when absent)', () => {
    const batch = labelsParser.parse([source(fixture('labels.jsonl'))], {});
    expect(batch.kind).toBe('labels');
    expect(batch.labels).toEqual([
      {
        dataset: 'demo-news',
        summaryId: 'd1-a',
        sentenceIndex: 0,
        label: 'faithful',
        annotator: 'ana',
        phase: 'annotation',
        errorType: null,
        note: null,
        source: { file: 'labels.jsonl', line: 1 },
      },
      {
        dataset: 'demo-news',
        summaryId: 'd1-a',
        sentenceIndex: 1,
        label: 'unfaithful',
        annotator: 'ana',
        phase: 'annotation',
        errorType: 'number_or_date',
        note: 'the document says May, not June',
        source: { file: 'labels.jsonl', line: 2 },
      },
      {
        dataset: null,
        summaryId: 'd1-b',
        sentenceIndex: 0,
        label: 'unclear',
        annotator: 'ben',
        phase: 'review',
        errorType: null,
        note: null,
        source: { file: 'labels.jsonl', line: 3 },
      },
    ]);
  });

  it('reads CSV; the same unit by the same annotator in another phase is a different label', () => {
    const batch = labelsParser.parse([source(fixture('labels.csv'))], { dataset: 'chosen' });
    expect(
      batch.labels.map((l) => [
        l.dataset,
        l.summaryId,
        l.sentenceIndex,
        l.label,
        l.phase,
        l.errorType,
        l.note,
        l.source.line,
      ]),
    ).toEqual([
      ['chosen', 's1', 0, 'faithful', 'annotation', null, null, 2],
      ['chosen', 's1', 1, 'unfaithful', 'annotation', 'entity', 'wrong "park"', 3],
      ['chosen', 's1', 1, 'faithful', 'review', null, null, 4],
    ]);
  });

  it('is strict about labels, indexes, error types and duplicates, and names the allowed values', () => {
    const l = (o: Record<string, unknown>) =>
      line({ summary_id: 's1', sentence_index: 0, label: 'faithful', annotator: 'ana', ...o });
    const body = [
      l({}),
      l({ label: 'Faithful', sentence_index: 1 }),
      l({ sentence_index: -1 }),
      l({ sentence_index: 2, label: 'faithful', error_type: 'entity' }),
      l({ sentence_index: 3, label: 'unfaithful', error_type: 'typo' }),
      l({ sentence_index: 4, phase: 'adjudication' }),
      l({}),
      line({ summary_id: 's1', sentence_index: 5, label: 'faithful' }),
    ].join('\n');
    const problems = problemsOf(() => labelsParser.parse([text('labels.jsonl', body)], {}));
    expect(problems).toEqual([
      {
        file: 'labels.jsonl',
        line: 2,
        field: 'label',
        expected: 'one of "faithful", "unfaithful", "unclear"',
        found: '"Faithful"',
      },
      {
        file: 'labels.jsonl',
        line: 3,
        field: 'sentence_index',
        expected: 'a whole number ≥ 0 (0 = first sentence)',
        found: '-1',
      },
      {
        file: 'labels.jsonl',
        line: 4,
        field: 'error_type',
        expected: 'no error_type unless label is "unfaithful" (label is "faithful")',
        found: '"entity"',
      },
      {
        file: 'labels.jsonl',
        line: 5,
        field: 'error_type',
        expected:
          'one of "entity", "relation", "number_or_date", "not_in_source", "attribution", "overstatement", "boilerplate", "other"',
        found: '"typo"',
      },
      {
        file: 'labels.jsonl',
        line: 6,
        field: 'phase',
        expected: 'one of "annotation", "review"',
        found: '"adjudication"',
      },
      {
        file: 'labels.jsonl',
        line: 7,
        field: 'sentence_index',
        expected: 'one label per (dataset, summary_id, sentence_index, annotator, phase)',
        found: 'a second label for summary "s1" sentence 0 by "ana" (annotation); first on line 1',
      },
      { file: 'labels.jsonl', line: 8, field: 'annotator', expected: 'a string (required)', found: 'nothing' },
    ]);
  });

  it('CSV: a wrong header and a non-numeric index are reported with line and field', () => {
    expect(
      problemsOf(() =>
        labelsParser.parse([text('l.csv', 'summary_id,sentence,label,annotator\ns1,0,faithful,ana\n')], {}),
      ),
    ).toEqual([
      {
        file: 'l.csv',
        line: 1,
        field: 'sentence_index',
        expected: expect.stringContaining('a column named "sentence_index"'),
        found: '"summary_id,sentence,label,annotator"',
      },
    ]);
    expect(
      problemsOf(() =>
        labelsParser.parse(
          [text('l.csv', 'summary_id,sentence_index,label,annotator\ns1,first,faithful,ana\ns1,,faithful,ana\n')],
          {},
        ),
      ),
    ).toEqual([
      {
        file: 'l.csv',
        line: 2,
        field: 'sentence_index',
        expected: 'a whole number ≥ 0 (0 = first sentence)',
        found: '"first"',
      },
      {
        file: 'l.csv',
        line: 3,
        field: 'sentence_index',
        expected: 'a whole number ≥ 0 (0 = first sentence)',
        found: '""',
      },
    ]);
  });

  it('broken JSON is reported at its physical line, and scanning goes on', () => {
    const body = `${line({ summary_id: 's1', sentence_index: 0, label: 'faithful', annotator: 'a' })}\n\n{"summary_id": "s1",\n${line({ summary_id: 's1', sentence_index: 1, label: 'nope', annotator: 'a' })}`;
    const problems = problemsOf(() => labelsParser.parse([text('x.jsonl', body)], {}));
    expect(problems.map((p) => [p.line, p.field])).toEqual([
      [3, undefined],
      [4, 'label'],
    ]);
  });
});
