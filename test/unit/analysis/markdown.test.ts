import { describe, expect, it } from 'vitest';
import { analyzeProject, renderMarkdown } from '../../../shared/analysis';
import type { AnalysisDataset, AnalysisReport } from '../../../shared/analysis';

const LONG = 'This sentence has more than five words.';

const dataset: AnalysisDataset = {
  name: 'News | sample',
  judges: ['judge|x'],
  summaries: [
    // Suspicious (global 1, the judge flags sentence 1) with ids that need escaping.
    {
      summaryId: 's|1',
      docId: 'd|1',
      globalLabel: 1,
      annotated: false,
      units: [0, 1].map((i) => ({
        index: i,
        text: LONG,
        human: null,
        humanStatus: 'none' as const,
        judges: { 'judge|x': { hard: (i === 0 ? 1 : 0) as 0 | 1, soft: null } },
      })),
    },
    {
      summaryId: 's2',
      docId: 'd2',
      globalLabel: 1,
      annotated: false,
      units: [0, 1].map((i) => ({
        index: i,
        text: LONG,
        human: null,
        humanStatus: 'none' as const,
        judges: { 'judge|x': { hard: 1 as const, soft: null } },
      })),
    },
    {
      summaryId: 's3',
      docId: 'd3',
      globalLabel: 0,
      annotated: false,
      units: [0, 1].map((i) => ({
        index: i,
        text: LONG,
        human: null,
        humanStatus: 'none' as const,
        judges: { 'judge|x': { hard: 0 as const, soft: null } },
      })),
    },
  ],
};

describe('renderMarkdown', () => {
  const report = analyzeProject([dataset], { bootstrap: 50, seed: 0, cap: 25 });
  const markdown = renderMarkdown(report);

  it('escapes table cells and shows undefined values as —', () => {
    expect(markdown).toContain('## News | sample');
    expect(markdown).toContain('| judge\\|x |');
    expect(markdown).toContain('| d\\|1 | s\\|1 | 1 | not reviewed |');
    // No soft labels: the soft columns are undefined; no human labels: ε̂ and p̂ undefined.
    expect(markdown).toMatch(/\| judge\\\|x \| [^|]+ \| [^|]+ \| — \| — \| 3 \|/);
    expect(markdown).toContain('- p̂ = — (n = 0 units, 0 summaries)');
    expect(markdown).toContain('ε₀ = undefined (p̂ is missing (no usable human label))');
  });

  it('bolds the higher of min and mean as displayed; equal displays get no bold', () => {
    // min = (0, 1, 0) and mean = (½, 1, 0) against Y = (1, 1, 0): mean is higher.
    const cells = report.datasets[0]!.judges['judge|x']!.correlations.hard;
    const min = cells.min.pearson.value!;
    const mean = cells.mean.pearson.value!;
    expect(mean).toBeGreaterThan(min);
    // Three summaries: too few for an interval, the value shown with its n (docs/methods.md, "Too few to estimate").
    const few = '\\(n = 3, too few for an interval\\)';
    expect(markdown).toMatch(new RegExp(`\\| ${min.toFixed(2)} ${few} \\| \\*\\*${mean.toFixed(2)} ${few}\\*\\* \\|`));
    // Equal displayed values: force a tie in a copy of the report.
    const tied = structuredClone(report) as AnalysisReport;
    const tiedCells = tied.datasets[0]!.judges['judge|x']!.correlations.hard;
    tiedCells.mean.pearson = { ...tiedCells.mean.pearson, value: 0.5012 };
    tiedCells.min.pearson = { ...tiedCells.min.pearson, value: 0.4991 };
    const tiedMarkdown = renderMarkdown(tied);
    expect(tiedMarkdown).toMatch(
      /\| 0\.50 \(n = 3, too few for an interval\) \| 0\.50 \(n = 3, too few for an interval\) \|/,
    );
  });

  it('never prints a negative zero', () => {
    const negative = structuredClone(report) as AnalysisReport;
    negative.datasets[0]!.judges['judge|x']!.correlations.hard.min.pearson.value = -0.0001;
    expect(renderMarkdown(negative)).not.toContain('-0.00');
  });

  it('is deterministic', () => {
    expect(renderMarkdown(analyzeProject([dataset], { bootstrap: 50, seed: 0, cap: 25 }))).toBe(markdown);
  });
});
