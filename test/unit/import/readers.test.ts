/** The shared readers: physical line numbers in CSV and JSON, and the problem cap. */
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../../shared/formats/csv';
import { parseJsonDocument, parseJsonLines, PROBLEM_CAP, ProblemCollector } from '../../../shared/formats/jsonl';
import { text } from './helpers';

const columns = { required: ['a', 'b'] };

describe('readCsv', () => {
  it('gives each row the physical line where it starts, with CRLF, blank lines and multi-line cells', () => {
    const problems = new ProblemCollector();
    const table = readCsv(
      text('t.csv', '\uFEFFa,b\r\n1,"x\r\ny"\r\n\r\n2,z\r\n"three\r\nline\r\ncell",k\r\n4,w'),
      columns,
      problems,
    );
    expect(problems.problems).toEqual([]);
    expect(table?.rows.map((r) => [r.line, r.values.a, r.values.b])).toEqual([
      [2, '1', 'x\ny'],
      [5, '2', 'z'],
      [6, 'three\nline\ncell', 'k'],
      [9, '4', 'w'],
    ]);
  });

  it('an unclosed quote is reported at the row where it opens', () => {
    const problems = new ProblemCollector();
    expect(readCsv(text('t.csv', 'a,b\n1,2\n\n3,"never closed\n4,5\n'), columns, problems)).toBeUndefined();
    expect(problems.problems).toEqual([
      {
        file: 't.csv',
        line: 4,
        expected: 'a closing quote for the field opened on this row',
        found: expect.stringContaining('Quote Not Closed'),
      },
    ]);
  });

  it('a stray quote is reported at its line', () => {
    const problems = new ProblemCollector();
    readCsv(text('t.csv', 'a,b\r\n1,2\r\n3,"x"y\r\n'), columns, problems);
    expect(problems.problems.map((p) => [p.line, p.expected])).toEqual([[3, 'well-formed CSV']]);
  });

  it('header problems: a missing and a repeated column; extra columns are reported as ignored', () => {
    const problems = new ProblemCollector();
    expect(readCsv(text('t.csv', 'a,a,c\n1,2,3\n'), columns, problems)).toBeUndefined();
    expect(problems.problems.map((p) => [p.line, p.field, p.expected])).toEqual([
      [1, 'a', 'each column name once in the header'],
      [1, 'b', 'a column named "b" in the header (required: a, b)'],
    ]);
    const ok = readCsv(text('t.csv', 'a,b,extra\n1,2,3\n'), columns, new ProblemCollector());
    expect(ok?.ignored).toEqual(['extra']);
  });

  it('an empty file has no header', () => {
    const problems = new ProblemCollector();
    readCsv(text('t.csv', ''), columns, problems);
    expect(problems.problems).toEqual([
      { file: 't.csv', line: 1, expected: 'a header row with the columns a, b', found: 'an empty file' },
    ]);
  });
});

describe('JSON readers', () => {
  it('JSON Lines: CRLF and blank lines keep physical numbering; every broken line is reported', () => {
    const problems = new ProblemCollector();
    const lines = parseJsonLines(text('x.jsonl', '{"a": 1}\r\n\r\n{"a": \r\n{"a": 3}\r\nnot json\r\n'), problems);
    expect(lines).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 4, value: { a: 3 } },
    ]);
    expect(problems.problems.map((p) => p.line)).toEqual([3, 5]);
  });

  it('a JSON document: the syntax error is reported at its line', () => {
    const problems = new ProblemCollector();
    expect(parseJsonDocument(text('x.json', '[\n  {"a": 1},\n  {"a": 2,}\n]'), problems)).toBeUndefined();
    expect(problems.problems).toEqual([
      { file: 'x.json', line: 3, expected: 'valid JSON', found: expect.stringContaining('invalid JSON') },
    ]);
  });

  it('the collector keeps the first problems in file order and counts the rest', () => {
    const problems = new ProblemCollector();
    for (let i = PROBLEM_CAP + 5; i >= 1; i -= 1) problems.add({ file: 'f', line: i, expected: 'x' });
    expect(problems.full).toBe(true);
    expect(problems.overflow).toBe(5);
    expect(() => problems.throwIfAny()).toThrow(/at least 205 problems found; the first 200 are listed/);
    expect(problems.problems[0]?.line).toBe(6);
  });
});
