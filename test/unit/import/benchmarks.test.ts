/** TofuEval, XSumFaith, CoGenSumm, SummEdits (real samples) and HaluEval (fixture). */
import { describe, expect, it } from 'vitest';
import { cogensummParser } from '../../../shared/formats/cogensumm';
import { haluevalParser } from '../../../shared/formats/halueval';
import { summeditsParser } from '../../../shared/formats/summedits';
import { tofuEvalErrorType, tofuevalParser } from '../../../shared/formats/tofueval';
import { xsumfaithParser } from '../../../shared/formats/xsumfaith';
import { fixture, folder, problemsOf, sample, source, text } from './helpers';

describe('TofuEval', () => {
  const mediasum = source(sample('tofueval', 'factual_consistency', 'mediasum_factual_eval_dev.csv'));
  const meetingbank = source(sample('tofueval', 'factual_consistency', 'meetingbank_factual_eval_dev.csv'));
  const batch = tofuevalParser.parse([mediasum, meetingbank], {});

  it('counts match an independent count', () => {
    // python csv.DictReader: mediasum 1,813 rows in 626 (doc_id, topic, model_name) groups,
    // meetingbank 1,624 rows in 617 groups. Four groups have sent_idx gaps (mediasum 2 with 2 rows,
    // meetingbank 2 with 1 + 3 rows) and one meetingbank row is repeated verbatim:
    // mediasum 624 summaries / 1,809 labels (369 all "yes"), meetingbank 615 / 1,619 (405 all "yes").
    const of = (dataset: string) => batch.summaries.filter((s) => s.dataset === dataset);
    expect(of('tofueval-mediasum')).toHaveLength(624);
    expect(of('tofueval-meetingbank')).toHaveLength(615);
    expect(batch.labels.filter((l) => l.dataset === 'tofueval-mediasum')).toHaveLength(1809);
    expect(batch.labels.filter((l) => l.dataset === 'tofueval-meetingbank')).toHaveLength(1619);
    expect(of('tofueval-mediasum').filter((s) => s.label === 1)).toHaveLength(369);
    expect(of('tofueval-meetingbank').filter((s) => s.label === 1)).toHaveLength(405);
    expect(batch.summaries.every((s) => s.document === null)).toBe(true);
    expect(batch.filesUsed).toEqual([mediasum.path, meetingbank.path]);
  });

  it('one summary field by field: sentences in sent_idx order, derived label, multi-line note', () => {
    const id = 'NPR-5615:model_B:Presidential helicopter cost';
    const summary = batch.summaries.find((s) => s.summaryId === id);
    const sentences = [
      'The cost of the new presidential helicopter is more than $400 million each, making it more expensive than Air Force One.',
      'The helicopter is being built to protect the president and provide better communications, with the ability to go 300 miles without refueling.',
      'The project is over budget and overdue, with 28 helicopters planned for use by the president, vice president, and other top leaders.',
      'The current fleet is almost 40 years old and will be retired in 2017.',
    ];
    expect(summary).toEqual({
      dataset: 'tofueval-mediasum',
      docId: 'NPR-5615',
      document: null,
      summaryId: id,
      summary: sentences.join(' '),
      label: 0,
      sentences,
      meta: {
        topic: 'Presidential helicopter cost',
        model: 'model_B',
        annotationId: '1',
        labelDerived: 'all sentences "yes" → 1, else 0',
        sentenceErrorTypes: ['Nuanced Meaning Shift', null, null, null],
      },
      source: { file: mediasum.path, line: 7 },
    });
    const labels = batch.labels.filter((l) => l.summaryId === id);
    expect(labels.map((l) => [l.sentenceIndex, l.label, l.errorType, l.source.line])).toEqual([
      [0, 'unfaithful', 'other', 7],
      [1, 'faithful', null, 9],
      [2, 'faithful', null, 10],
      [3, 'faithful', null, 11],
    ]);
    expect(labels[0]).toMatchObject({
      annotator: 'tofueval-expert',
      phase: 'annotation',
      note: '1. The cost in around $400 million each, not "more than"\n2. The cost of Air Force One is roughly the same as one of these helicopters.',
    });
  });

  it('maps error types only where clear; a mixed list becomes other', () => {
    expect(tofuEvalErrorType('Extrinsic Information')).toBe('not_in_source');
    expect(tofuEvalErrorType('Mis-Referencing')).toBe('entity');
    expect(tofuEvalErrorType('Contradiction')).toBe('relation');
    expect(tofuEvalErrorType('Reasoning Error')).toBe('other');
    expect(tofuEvalErrorType('Mis-Referencing, Extrinsic Information')).toBe('other');
    expect(tofuEvalErrorType('')).toBeNull();
    const mixed = batch.labels.find(
      (l) => l.summaryId === "CNN-262980:model_D:Jeb Bush and Trump's immigration stance" && l.sentenceIndex === 0,
    );
    expect(mixed).toMatchObject({ label: 'unfaithful', errorType: 'other', source: { line: 500 } });
  });

  it('skips summaries with missing sentence rows and names them; reads a verbatim repeat once', () => {
    expect(
      batch.summaries.some((s) => s.summaryId === 'CNN-164885:model_C:Cuban celebration and government gathering'),
    ).toBe(false);
    const notes = batch.notes.join('\n');
    expect(notes).toContain('4 summaries skipped because sentence rows are missing');
    expect(notes).toContain('CNN-164885:model_C:Cuban celebration and government gathering (sent_idx 1, 3)');
    expect(notes).toContain('1 row(s) repeated verbatim were read once.');
    const repeated = batch.summaries.find(
      (s) => s.summaryId === 'LongBeachCC_10172017_17-0944:Model-Extra:Incident on Blue Line train',
    );
    expect(repeated?.sentences).toHaveLength(3);
  });

  it('options.dataset replaces the name taken from the file name', () => {
    const one = tofuevalParser.parse([mediasum], { dataset: 'tofu' });
    expect(new Set(one.summaries.map((s) => s.dataset))).toEqual(new Set(['tofu']));
  });

  it('bad rows: wrong label, bad index, conflicting repeat, wrong header', () => {
    const header = 'doc_id,annotation_id,topic,model_name,sent_idx,summ_sent,sent_label,exp,type';
    const csv = [
      header,
      'd1,1,Topic,model_A,1,First sentence.,yes,,',
      'd1,1,Topic,model_A,2,Second sentence.,maybe,,',
      'd1,1,Topic,model_A,0,Zeroth sentence.,yes,,',
      'd1,1,Topic,model_A,1,A different first sentence.,yes,,',
      'd1,2,Topic,model_A,3,Third sentence.,no,"why",Contradiction',
      'd1,1,Topic,model_B,1,,yes,,',
    ].join('\r\n');
    expect(problemsOf(() => tofuevalParser.parse([text('mediasum_bad.csv', csv)], {}))).toEqual([
      { file: 'mediasum_bad.csv', line: 3, field: 'sent_label', expected: 'one of "yes", "no"', found: '"maybe"' },
      {
        file: 'mediasum_bad.csv',
        line: 4,
        field: 'sent_idx',
        expected: 'a whole number ≥ 1 (sent_idx is 1-based)',
        found: '"0"',
      },
      {
        file: 'mediasum_bad.csv',
        line: 5,
        field: 'sent_idx',
        expected: 'one row per sentence of summary "d1:model_A:Topic"',
        found: 'sent_idx 1 again with different content (first on line 2)',
      },
      {
        file: 'mediasum_bad.csv',
        line: 6,
        field: 'annotation_id',
        expected: 'one annotation_id per summary ("1" as on line 2)',
        found: '"2"',
      },
      { file: 'mediasum_bad.csv', line: 7, field: 'summ_sent', expected: 'a non-empty sentence', found: '""' },
    ]);
    expect(
      problemsOf(() =>
        tofuevalParser.parse([text('x.csv', 'doc_id,topic,model_name,sent_idx,summ_sent,sent_label\n')], {}),
      ),
    ).toEqual([
      {
        file: 'x.csv',
        line: 1,
        field: 'annotation_id',
        expected: expect.stringContaining('a column named "annotation_id"'),
        found: '"doc_id,topic,model_name,sent_idx,summ_sent,sent_label"',
      },
    ]);
  });
});

describe('XSumFaith', () => {
  const xsum = folder(sample('xsumfaith'));
  const batch = xsumfaithParser.parse(xsum, {});

  it('counts match an independent count', () => {
    // python: 130 (bbcid, system) pairs in the hallucination CSV, 26 bbcids, 3 workers each;
    // per worker: 75 only NULL, 175 only extrinsic, 140 with an intrinsic span; majority of workers
    // with no span: 25 summaries (19 with 0 of 3 workers marking, 6 with 1 of 3).
    expect(batch.summaries).toHaveLength(130);
    expect(new Set(batch.summaries.map((s) => s.docId)).size).toBe(26);
    expect(batch.labels).toHaveLength(390);
    const types = batch.labels.map((l) => l.errorType ?? l.label);
    expect(types.filter((t) => t === 'faithful')).toHaveLength(75);
    expect(types.filter((t) => t === 'not_in_source')).toHaveLength(175);
    expect(types.filter((t) => t === 'other')).toHaveLength(140);
    expect(batch.summaries.filter((s) => s.label === 1)).toHaveLength(25);
    expect(batch.summaries.filter((s) => s.meta.gold === true)).toHaveLength(26);
    expect(batch.summaries.every((s) => s.document === null && s.sentences?.length === 1)).toBe(true);
  });

  it('one summary field by field: apostrophe unescaped, worker labels with spans, is_factual in meta', () => {
    const summaryText =
      'australia\'s prime minister tony abbott has said his country has " no regrets " over the controversial immigration policy.';
    expect(batch.summaries.find((s) => s.summaryId === '34148931:BERTS2S')).toEqual({
      dataset: 'xsumfaith',
      docId: '34148931',
      document: null,
      summaryId: '34148931:BERTS2S',
      summary: summaryText,
      label: 0,
      sentences: [summaryText],
      meta: {
        system: 'BERTS2S',
        gold: false,
        workers: 3,
        workersFaithful: 0,
        isFactual: { wid_0: 'no', wid_1: 'no', wid_2: 'no' },
      },
      source: { file: 'hallucination_annotations_xsum_summaries.shared-subset.csv', line: 2 },
    });
    expect(
      batch.labels
        .filter((l) => l.summaryId === '34148931:BERTS2S')
        .map((l) => [l.annotator, l.label, l.errorType, l.note, l.source.line]),
    ).toEqual([
      [
        'xsumfaith:wid_0',
        'unfaithful',
        'not_in_source',
        'extrinsic: "prime minister tony"; extrinsic: "no regrets"',
        2,
      ],
      [
        'xsumfaith:wid_1',
        'unfaithful',
        'not_in_source',
        'extrinsic: "prime minister tony"; extrinsic: "no regrets"',
        4,
      ],
      [
        'xsumfaith:wid_2',
        'unfaithful',
        'not_in_source',
        'extrinsic: "prime minister tony"; extrinsic: "no regrets"',
        6,
      ],
    ]);
    const faithful = batch.labels.filter((l) => l.summaryId === '38345826:BERTS2S');
    expect(faithful.map((l) => [l.label, l.errorType, l.note])).toEqual([
      ['faithful', null, null],
      ['faithful', null, null],
      ['faithful', null, null],
    ]);
    expect(batch.summaries.find((s) => s.summaryId === '38345826:BERTS2S')?.label).toBe(1);
  });

  it('takes documents from FRANK article files with the same bbcid when they are given', () => {
    const withArticles = xsumfaithParser.parse([...xsum, ...folder(sample('frank', 'articles-json'))], {});
    expect(withArticles.summaries.filter((s) => s.document !== null)).toHaveLength(130);
    expect(withArticles.summaries.find((s) => s.docId === '38345826')?.document).toMatch(
      /^It also warns that Britain may have to allow EU-registered boats/,
    );
    // 26 BBC article files used of the 51 given.
    expect(withArticles.filesUsed.filter((p) => p.endsWith('.json'))).toHaveLength(26);
  });

  it('bad input: unknown hallucination type, factuality file alone (a row whose summary differs is only skipped)', () => {
    const header =
      'bbcid,system,summary,hallucination_type,hallucinated_span,hallucinated_span_start,hallucinated_span_end,worker_id';
    const csv = [
      header,
      '1,PtGen,a summary.,extrinsic,a,1,2,wid_0',
      '1,PtGen,another summary.,NULL,NULL,-1,-1,wid_1',
      '1,PtGen,a summary.,made-up,x,1,2,wid_2',
    ].join('\r\n');
    expect(problemsOf(() => xsumfaithParser.parse([text('h.csv', csv)], {}))).toEqual([
      {
        file: 'h.csv',
        line: 4,
        field: 'hallucination_type',
        expected: 'one of "intrinsic", "extrinsic", "NULL"',
        found: '"made-up"',
      },
    ]);
    const factuality = xsum.filter((f) => f.path.startsWith('factuality'));
    expect(problemsOf(() => xsumfaithParser.parse(factuality, {}))).toEqual([
      {
        file: factuality[0]!.path,
        expected: expect.stringContaining('hallucination annotations CSV'),
        found: 'only the factuality CSV',
      },
    ]);
  });
});

describe('CoGenSumm', () => {
  const file = source(sample('cogensumm', 'test_see17_org.json'));
  const batch = cogensummParser.parse([file], {});

  it('counts match an independent count', () => {
    // python json: 100 summaries (92 Correct, 8 Incorrect), 275 sentences: 265 Correct, 8 Incorrect, 2 Unclear.
    expect(batch.summaries).toHaveLength(100);
    expect(batch.summaries.filter((s) => s.label === 1)).toHaveLength(92);
    expect(batch.labels).toHaveLength(275);
    expect(batch.labels.filter((l) => l.label === 'unfaithful')).toHaveLength(8);
    expect(batch.labels.filter((l) => l.label === 'unclear')).toHaveLength(2);
    expect(batch.summaries.every((s) => s.document === null && s.dataset === 'cogensumm')).toBe(true);
  });

  it('a summary with an Unclear fragment, field by field', () => {
    const hash = '3ad0320476e8dda3a00604efdcf766e91766c815';
    const sentences = [
      'gov.',
      'mike pence said on tuesday that the state will fix the religious freedom restoration act, or rfra, so it will not discriminate against gays and lesbians.',
      'pence is making the right call.',
    ];
    expect(batch.summaries.find((s) => s.summaryId === hash)).toEqual({
      dataset: 'cogensumm',
      docId: hash,
      document: null,
      summaryId: hash,
      summary: sentences.join(' '),
      label: 1,
      sentences,
      meta: { source: 'cnndm', originalLabel: 'Correct', system: 'see17_org', split: 'test' },
      source: { file: 'cogensumm/test_see17_org.json', line: 428 },
    });
    expect(
      batch.labels.filter((l) => l.summaryId === hash).map((l) => [l.sentenceIndex, l.label, l.annotator]),
    ).toEqual([
      [0, 'unclear', 'cogensumm'],
      [1, 'faithful', 'cogensumm'],
      [2, 'faithful', 'cogensumm'],
    ]);
  });

  it('bad input: a wrong label, a sentence gap and broken JSON are reported with lines', () => {
    const bad = JSON.stringify(
      {
        ['a'.repeat(40)]: { label: 'Wrong', sents: { '0': { label: 'Correct', text: 'x.' } } },
        ['b'.repeat(40)]: {
          label: 'Correct',
          sents: { '0': { label: 'Correct', text: 'x.' }, '2': { label: 'Correct', text: 'y.' } },
        },
        ['c'.repeat(40)]: { label: 'Correct', sents: { '0': { label: 'correct', text: '' } } },
      },
      null,
      1,
    );
    expect(problemsOf(() => cogensummParser.parse([text('c.json', bad)], {}))).toEqual([
      { file: 'c.json', line: 2, field: 'label', expected: 'one of "Correct", "Incorrect"', found: '"Wrong"' },
      {
        file: 'c.json',
        line: 11,
        field: 'sents',
        expected: 'sentences numbered "0", "1", … in order without gaps',
        found: 'keys ["0","2"]',
      },
      {
        file: 'c.json',
        line: 24,
        field: 'sents.0.label',
        expected: 'one of "Correct", "Incorrect", "Unclear"',
        found: '"correct"',
      },
      { file: 'c.json', line: 24, field: 'sents.0.text', expected: 'a non-empty sentence', found: '""' },
    ]);
    expect(
      problemsOf(() => cogensummParser.parse([text('c.json', '{\n "x": {\n  "label": "Correct",\n }\n}')], {})),
    ).toEqual([{ file: 'c.json', line: 4, expected: 'valid JSON', found: expect.stringContaining('invalid JSON') }]);
  });
});

describe('SummEdits', () => {
  const file = source(sample('summedits', 'summedits_samsum.json'));
  const batch = summeditsParser.parse([file], {});

  it('counts match an independent count', () => {
    // python json: 664 records, 664 distinct ids, 22 distinct docs (= 22 id prefixes), 242 label 1, 422 label 0.
    expect(batch.summaries).toHaveLength(664);
    expect(new Set(batch.summaries.map((s) => s.docId)).size).toBe(22);
    expect(batch.summaries.filter((s) => s.label === 1)).toHaveLength(242);
    expect(batch.labels).toEqual([]);
    expect(new Set(batch.summaries.map((s) => s.dataset))).toEqual(new Set(['summedits-samsum']));
  });

  it('one record field by field', () => {
    expect(batch.summaries[1]).toEqual({
      dataset: 'summedits-samsum',
      docId: 'samsum_train_13731241',
      document:
        'Ann: Darling, buy some butter. . Mike: Ok. . Mike: Do we have any milk? . Ann: I will check... . Ann: Yes, There is some in fridge. ',
      summaryId: 'samsum_train_13731241_0',
      summary:
        'Ann orders Mike to buy butter and Mike confirms it. Later, Mike asks Ann if there is any milk, and after examining, Ann confirms that there is some in the fridge.',
      label: 0,
      sentences: null,
      meta: {
        editTypes: [],
        split: 'evaluation',
        originalSummary:
          'Ann asks Mike to buy butter and Mike confirms it. Later, Mike asks Ann if there is any milk, and after checking, Ann confirms that there is some in the fridge.',
      },
      source: { file: 'summedits/summedits_samsum.json', record: 2 },
    });
    expect(batch.summaries[23]?.meta.editTypes).toEqual(expect.arrayContaining([expect.any(String)]));
  });

  it('bad input: duplicate id, empty summary, wrong label, missing doc', () => {
    const record = (o: Record<string, unknown>) => ({ id: 'x_1', doc: 'A: hi', summary: 'A greets.', label: 1, ...o });
    const bad = JSON.stringify([
      record({}),
      record({ summary: ' ', id: 'x_2' }),
      record({ id: 'x_3', label: '1' }),
      record({ id: 'x_1' }),
      { id: 'x_5', summary: 's', label: 0 },
    ]);
    expect(problemsOf(() => summeditsParser.parse([text('summedits_bad.json', bad)], {}))).toEqual([
      { file: 'summedits_bad.json', record: 2, field: 'summary', expected: 'a non-empty summary', found: '" "' },
      { file: 'summedits_bad.json', record: 3, field: 'label', expected: 'one of 0, 1', found: '"1"' },
      {
        file: 'summedits_bad.json',
        record: 4,
        field: 'id',
        expected: 'an id used once',
        found: '"x_1" again (first in summedits_bad.json record 1)',
      },
      {
        file: 'summedits_bad.json',
        record: 5,
        field: 'doc',
        expected: 'a non-empty document text (required)',
        found: 'nothing',
      },
    ]);
  });
});

describe('HaluEval (fixture in the release format)', () => {
  const batch = haluevalParser.parse([source(fixture('halueval-sample.jsonl'))], {});

  it('two summaries per line with global labels 1 and 0 and ids from line numbers', () => {
    expect(batch.summaries).toHaveLength(12);
    expect(batch.summaries.map((s) => [s.summaryId, s.docId, s.label]).slice(0, 4)).toEqual([
      ['1-right', 'line-1', 1],
      ['1-hallucinated', 'line-1', 0],
      ['2-right', 'line-2', 1],
      ['2-hallucinated', 'line-2', 0],
    ]);
    expect(new Set(batch.summaries.map((s) => s.dataset))).toEqual(new Set(['halueval']));
  });

  it('keeps the escaped quote and drops the trailing line break', () => {
    const first = batch.summaries[0];
    expect(first).toEqual({
      dataset: 'halueval',
      docId: 'line-1',
      document: expect.stringMatching(/^Lyon, France \(CNN\)Investigators examining the derailment/),
      summaryId: '1-right',
      summary:
        'Driver reported a signal fault minutes before the derailment near Lyon, investigators say. Rail operator says "we are looking at every piece of equipment on that line" . Eleven passengers were treated in hospital; the line stays closed until Monday.',
      label: 1,
      sentences: null,
      meta: { variant: 'right' },
      source: { file: 'halueval-sample.jsonl', line: 1 },
    });
    expect(batch.notes.join('\n')).toContain('6 summaries had surrounding white space');
  });

  it('bad input: broken JSON and a missing hallucinated summary, at their lines', () => {
    const body = [
      JSON.stringify({ document: 'Doc.', right_summary: 'Right.', hallucinated_summary: 'Wrong.' }),
      '{"document": "Doc.", "right_summary": "Right."',
      JSON.stringify({ document: 'Doc.', right_summary: 'Right.' }),
      JSON.stringify({ document: '', right_summary: 'Right.', hallucinated_summary: 'Wrong.' }),
    ].join('\n');
    expect(problemsOf(() => haluevalParser.parse([text('summarization_data.json', body)], {}))).toEqual([
      {
        file: 'summarization_data.json',
        line: 2,
        expected: 'one complete JSON object on this line',
        found: expect.stringContaining('invalid JSON'),
      },
      {
        file: 'summarization_data.json',
        line: 3,
        field: 'hallucinated_summary',
        expected: 'a non-empty hallucinated summary (required)',
        found: 'nothing',
      },
      {
        file: 'summarization_data.json',
        line: 4,
        field: 'document',
        expected: 'a non-empty document text',
        found: '""',
      },
    ]);
  });
});
