/**
 * Lone UTF-16 surrogates: a JSON escape such as "\uD800" with no low half is
 * valid JSON but has no UTF-8 form, so SQLite would store U+FFFD and a re-import of the same file
 * would fail as "different text". Every JSON reader refuses it with file, line and field.
 */
import { describe, expect, it } from 'vitest';
import { cogensummParser } from '../../../shared/formats/cogensumm';
import { faithbenchParser } from '../../../shared/formats/faithbench';
import { frankParser } from '../../../shared/formats/frank';
import { labelsParser } from '../../../shared/formats/labels';
import { predictionsParser } from '../../../shared/formats/predictions';
import { summariesParser } from '../../../shared/formats/summaries';
import { findLoneSurrogate, findRawLoneSurrogate } from '../../../shared/formats/surrogates';
import { problemsOf, text } from './helpers';

const LONE = /"\\uD800" on its own|"\\uDC00" on its own/;

describe('findLoneSurrogate', () => {
  it('finds a high half alone, a low half alone, and a high half at the end of a string', () => {
    expect(findLoneSurrogate('{"a": "x\\uD800y"}')).toEqual({ path: ['a'], line: 1, unit: '\\uD800', inKey: false });
    expect(findLoneSurrogate('{"a": ["ok", "\\udc00"]}')).toEqual({
      path: ['a', 1],
      line: 1,
      unit: '\\uDC00',
      inKey: false,
    });
    expect(findLoneSurrogate('{\n"a": {"b": "end\\uD800"}\n}')).toEqual({
      path: ['a', 'b'],
      line: 2,
      unit: '\\uD800',
      inKey: false,
    });
    expect(findLoneSurrogate('{"a": "\\uD800\\u0041"}')?.unit).toBe('\\uD800');
  });

  it('names a lone surrogate in a key by the object that holds it', () => {
    expect(findLoneSurrogate('{"meta": {"k\\uD800": 1}}')).toEqual({
      path: ['meta'],
      line: 1,
      unit: '\\uD800',
      inKey: true,
    });
  });

  it('accepts pairs (escaped, raw, or mixed), an escaped backslash before "u", and plain text', () => {
    expect(findLoneSurrogate('{"a": "\\uD83D\\uDE00"}')).toBeNull();
    expect(findLoneSurrogate('{"a": "😀"}')).toBeNull();
    expect(findLoneSurrogate('{"a": "\\uD83D\uDE00"}')).toBeNull();
    expect(JSON.parse('{"a": "\\uD83D\uDE00"}')).toEqual({ a: '😀' });
    // "\\uD800" is a backslash followed by the letters uD800, not an escape.
    expect(findLoneSurrogate('{"a": "\\\\uD800"}')).toBeNull();
    expect(findLoneSurrogate('{"a": "Café", "b": [1, 2, {"c": null}]}')).toBeNull();
  });

  it('matches what JSON.parse makes of the same text (the string really holds a lone surrogate)', () => {
    const value = (JSON.parse('{"a": "x\\uD800y"}') as { a: string }).a;
    expect(value.charCodeAt(1)).toBe(0xd800);
    // What SQLite would store: the UTF-8 encoder replaces it.
    expect(new TextDecoder().decode(new TextEncoder().encode(value))).toBe('x\uFFFDy');
  });

  it('finds raw lone surrogates in plain text by line', () => {
    expect(findRawLoneSurrogate('a\nb\uD800c')).toEqual({ line: 2, unit: '\\uD800' });
    expect(findRawLoneSurrogate('a\n😀')).toBeNull();
  });
});

describe('every JSON reader refuses a lone surrogate with file, line and field', () => {
  const row = (over: Record<string, unknown>) =>
    JSON.stringify({
      doc_id: 'd1',
      document: 'The council met.',
      summary_id: 's1',
      summary: 'The council met.',
      ...over,
    });

  it('JSON Lines (summaries): the line and the field', () => {
    const body = `${row({})}\n${row({ summary_id: 's2', summary: 'The council met.' }).replace('met.",', 'met.\\uD800",')}\n`;
    // The replacement hits the document field of line 2 (the first "met.",).
    expect(problemsOf(() => summariesParser.parse([text('news.jsonl', body)], { dataset: 'news' }))).toEqual([
      {
        file: 'news.jsonl',
        line: 2,
        field: 'document',
        expected: expect.stringContaining('lone UTF-16 surrogates'),
        found: expect.stringMatching(LONE),
      },
    ]);
  });

  it('JSON Lines (labels, predictions): the same rule through the shared reader', () => {
    const label = JSON.stringify({ summary_id: 's1', sentence_index: 0, label: 'faithful', annotator: 'ann' }).replace(
      '"ann"',
      '"ann\\uDC00"',
    );
    expect(problemsOf(() => labelsParser.parse([text('labels.jsonl', label)], {}))).toEqual([
      {
        file: 'labels.jsonl',
        line: 1,
        field: 'annotator',
        expected: expect.any(String),
        found: expect.stringMatching(LONE),
      },
    ]);
    const prediction = JSON.stringify({ summary_id: 's1', sentence_index: 0, judge: 'j', hard: 1 }).replace(
      '"j"',
      '"j\\uD800"',
    );
    expect(problemsOf(() => predictionsParser.parse([text('p.jsonl', `\n${prediction}`)], {}))).toEqual([
      { file: 'p.jsonl', line: 2, field: 'judge', expected: expect.any(String), found: expect.stringMatching(LONE) },
    ]);
  });

  it('a JSON document holding a list (FRANK human annotations): the record and its line', () => {
    const list = JSON.stringify(
      [
        { hash: 'h1', model_name: 'bart', Factuality: 1 },
        { hash: 'h2', model_name: 'pgn\\uD800', Factuality: 1 },
      ],
      null,
      4,
    ).replace('pgn\\\\uD800', 'pgn\\uD800');
    const problems = problemsOf(() => frankParser.parse([text('human_annotations.json', list)], {}));
    expect(problems).toEqual([
      {
        file: 'human_annotations.json',
        line: 9,
        record: 2,
        field: 'model_name',
        expected: expect.any(String),
        found: expect.stringMatching(LONE),
      },
    ]);
  });

  it('a JSON document holding an object (CoGenSumm): the path and line', () => {
    const doc =
      '{\n "abc": {"label": "Correct", "sents": {"0": {"label": "Correct", "text": "It \\uD800 rained."}}}\n}';
    expect(problemsOf(() => cogensummParser.parse([text('test_see17_org.json', doc)], {}))).toEqual([
      {
        file: 'test_see17_org.json',
        line: 2,
        field: 'abc.sents.0.text',
        expected: expect.any(String),
        found: expect.stringMatching(LONE),
      },
    ]);
  });

  it('FaithBench (its own JSON reader): the sample as record, the field inside it', () => {
    const sample = {
      sample_id: 0,
      source: 'The council met.',
      summary: 'The council met.',
      annotations: [{ annotator_name: 'a', label: ['Unwanted'], summary_start: 0, summary_end: 3, note: 'x' }],
      metadata: { summarizer: 'm' },
    };
    const body = JSON.stringify({ samples: [sample, { ...sample, sample_id: 1 }] }, null, 1).replace(
      /"note": "x"([^]*)"note": "x"/,
      '"note": "x"$1"note": "x\\uD800"',
    );
    const problems = problemsOf(() => faithbenchParser.parse([text('batch_9.json', body)], {}));
    expect(problems).toEqual([
      {
        file: 'batch_9.json',
        line: expect.any(Number),
        record: 2,
        field: 'annotations[0].note',
        expected: expect.any(String),
        found: expect.stringMatching(LONE),
      },
    ]);
    expect(body.split('\n')[problems[0]!.line! - 1]).toContain('\\uD800');
  });

  it('CSV: a JSON cell (meta) is checked; raw cells are text and cannot spell a surrogate', () => {
    const csv =
      'doc_id,document,summary_id,summary,meta\nd1,The council met.,s1,The council met.,"{""by"": ""x\\uD800""}"\n';
    expect(problemsOf(() => summariesParser.parse([text('news.csv', csv)], { dataset: 'news' }))).toEqual([
      { file: 'news.csv', line: 2, field: 'meta.by', expected: expect.any(String), found: expect.stringMatching(LONE) },
    ]);
    // A raw cell holding the six characters \uD800 is just text, imported as written.
    const raw = 'doc_id,document,summary_id,summary\nd1,The council met.,s1,The council met \\uD800.\n';
    expect(summariesParser.parse([text('raw.csv', raw)], { dataset: 'news' }).summaries[0]?.summary).toBe(
      'The council met \\uD800.',
    );
  });
});
