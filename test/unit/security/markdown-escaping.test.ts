/**
 * The Markdown analysis report escapes every dataset, judge and annotator name
 * and every doc/summary id it prints, so a hostile name (`<img src=x onerror=alert(1)>`, a table
 * pipe, a backtick, a link, a line break) stays text wherever the report is rendered.
 */
import { describe, expect, it } from 'vitest';
import { analyzeProject, renderMarkdown } from '../../../shared/analysis';
import type { AnalysisDataset, AnalysisUnit } from '../../../shared/analysis';
import type { HumanLabel } from '../../../shared/domain';

const LONG = 'This sentence has more than five words.';
const DATASET = '<img src=x onerror=alert(1)>|ds';
const JUDGE_A = '<script>alert(1)</script>|j';
const JUDGE_B = '`code`|[x](javascript:alert(1))';
const ANN_A = '<img src=y onerror=alert(2)>';
const ANN_B = 'ann|two\n# injected heading';
const DOC = '<iframe src=//evil>|d';
const SUMMARY = '<b onclick=alert(3)>s</b>|1';

function unit(index: number, hardA: 0 | 1, hardB: 0 | 1, a: HumanLabel, b: HumanLabel): AnalysisUnit {
  return {
    index,
    text: LONG,
    human: a === b ? a : null,
    humanStatus: a === b ? 'agreed' : 'disagreement',
    ratings: { [ANN_A]: a, [ANN_B]: b },
    judges: { [JUDGE_A]: { hard: hardA, soft: null }, [JUDGE_B]: { hard: hardB, soft: null } },
  };
}

const dataset: AnalysisDataset = {
  name: DATASET,
  judges: [JUDGE_A, JUDGE_B],
  summaries: [
    // Global label faithful, both judges flag sentence 1: listed as suspicious with its hostile ids.
    {
      summaryId: SUMMARY,
      docId: DOC,
      globalLabel: 1,
      annotated: true,
      units: [unit(0, 1, 1, 'faithful', 'faithful'), unit(1, 0, 0, 'unfaithful', 'faithful')],
    },
    {
      summaryId: 's2',
      docId: 'd2',
      globalLabel: 1,
      annotated: true,
      units: [unit(0, 1, 1, 'faithful', 'faithful'), unit(1, 1, 0, 'faithful', 'faithful')],
    },
    {
      summaryId: 's3',
      docId: 'd3',
      globalLabel: 0,
      annotated: true,
      units: [unit(0, 0, 0, 'unfaithful', 'unfaithful'), unit(1, 0, 1, 'unfaithful', 'faithful')],
    },
  ],
};

/** Table cells of a Markdown row: split on pipes that are not backslash-escaped. */
const cellsOf = (row: string) =>
  row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/);

describe('Markdown report escaping', () => {
  const markdown = renderMarkdown(analyzeProject([dataset], { bootstrap: 20, seed: 0, cap: 25 }));

  it('prints every name and id (they are all in the report) as escaped text', () => {
    expect(markdown).toContain('## &lt;img src=x onerror=alert(1)&gt;|ds');
    expect(markdown).toContain('| &lt;script&gt;alert(1)&lt;/script&gt;\\|j |');
    expect(markdown).toContain('| &#96;code&#96;\\|&#91;x&#93;(javascript:alert(1)) |');
    expect(markdown).toContain('| &lt;img src=y onerror=alert(2)&gt; vs ann\\|two # injected heading |');
    expect(markdown).toContain('| &lt;iframe src=//evil&gt;\\|d | &lt;b onclick=alert(3)&gt;s&lt;/b&gt;\\|1 |');
  });

  it('contains no raw tag, code span, link or injected line', () => {
    expect(markdown).not.toMatch(/<[A-Za-z/!?]/);
    expect(markdown).not.toContain('`');
    expect(markdown).not.toContain('](');
    expect(markdown).not.toMatch(/^# injected/m);
  });

  it('keeps every table row as wide as its header: no name splits a cell', () => {
    const lines = markdown.split('\n');
    let tables = 0;
    lines.forEach((line, i) => {
      if (!/^\|( --- \|)+$/.test(line)) return;
      tables += 1;
      const width = cellsOf(lines[i - 1]!).length;
      for (let j = i + 1; j < lines.length && lines[j]!.startsWith('|'); j += 1)
        expect(cellsOf(lines[j]!), lines[j]).toHaveLength(width);
    });
    expect(tables).toBeGreaterThanOrEqual(5);
  });
});
