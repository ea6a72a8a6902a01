// @vitest-environment happy-dom
/**
 * The Analysis views print figures through the one formatter (renderer/format.ts): on a real
 * analysis of a small project (few labels, so every interval has n ≤ 5; a judge that differs on
 * exactly one sentence; a dataset without human labels) no cell writes its n twice, no count
 * reads "1 sentences" or "(s)", a verb agrees ("1 sentence differs"), and an undefined ε₀ says
 * "undefined" once. The accuracy and scaffold blocks likewise, from report fixtures.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { AccuracySection } from '../../../renderer/components/accuracy/AccuracyTables';
import { DatasetSection } from '../../../renderer/components/analysis/DatasetSection';
import { ScaffoldAnalysis } from '../../../renderer/components/scaffold/ScaffoldAnalysis';
import { analyzeProject } from '../../../shared/analysis';
import type { AnalysisDataset, AnalysisSummary, Estimate } from '../../../shared/analysis';
import type { AccuracyBlock } from '../../../shared/accuracy/report';
import { SCAFFOLD_METRICS, type ScaffoldMetric } from '../../../shared/scaffold/metrics';
import type { ScaffoldBlock, ScaffoldMeans } from '../../../shared/scaffold/report';
import type { MetricComparison } from '../../../shared/stats/system-comparison';

afterEach(cleanup);

const F = 'faithful' as const;
const U = 'unfaithful' as const;

/** Summaries of two sentences; the judge agrees with the people everywhere but one sentence. */
function summaries(
  labels: Array<[typeof F | typeof U | null, typeof F | typeof U | null]>,
  judgeFlips: number,
): AnalysisSummary[] {
  return labels.map((pair, g) => ({
    summaryId: `s${g}`,
    docId: `d${g}`,
    globalLabel: pair.every((l) => l !== U) ? 1 : 0,
    annotated: pair.some((l) => l !== null),
    units: pair.map((human, i) => {
      const hard: 0 | 1 = (human === U ? 0 : 1) ^ (g === judgeFlips && i === 0 ? 1 : 0) ? 1 : 0;
      return {
        index: i,
        text: `Sentence ${i} of ${g}.`,
        human,
        humanStatus: human === null ? 'none' : 'single',
        judges: { judge: { hard: hard as 0 | 1, soft: null } },
      };
    }),
  }));
}

const LABELED: AnalysisDataset = {
  name: 'small',
  judges: ['judge'],
  summaries: summaries(
    [
      [F, F],
      [F, U],
      [U, U],
    ],
    0,
  ),
};
const UNLABELED: AnalysisDataset = {
  name: 'bare',
  judges: ['judge'],
  summaries: summaries(
    [
      [null, null],
      [null, null],
    ],
    -1,
  ),
};

const report = analyzeProject([LABELED, UNLABELED], { bootstrap: 200, seed: 0, cap: 25 });

/** The phrases the issue found, and their kin: any count of one with a plural noun, "(s)", n twice. */
function badPhrases(text: string): string[] {
  const bad = [
    ...text.matchAll(
      /\b1 (sentences|summaries|judges|labels|units|documents|docs|annotators|replicates|claims|key facts|decisions)\b/g,
    ),
    ...text.matchAll(/\(s\)/g),
    ...text.matchAll(/undefined\s+undefined/g),
    ...text.matchAll(/\(n ?= ?[\d,]+\)\s*\(n ?=/g),
    ...text.matchAll(/\b1 sentence differ\b/g),
  ];
  return bad.map((m) => m[0]);
}

/** Each cell says each of its n at most once (a bare "n = k" counts as the same n as any other). */
function cellsWithTwoNs(root: HTMLElement): string[] {
  return [...root.querySelectorAll('td')]
    .map((td) => td.textContent ?? '')
    .filter((text) => {
      const nouns = [...text.matchAll(/\bn ?= ?[\d,]+( [a-z]+)?/g)].map((m) => m[1] ?? '');
      return nouns.length > 1 && (nouns.includes('') || new Set(nouns).size < nouns.length);
    });
}

describe('figures on a real analysis of a small project', () => {
  it('the fixture has what the strings are about: small n, one differing sentence, an undefined ε₀', () => {
    const [small, bare] = report.datasets;
    expect(small!.all_units.judges.judge!.recall.n).toBeLessThanOrEqual(5);
    // Three annotated summaries: too few for an interval (docs/methods.md, "Too few to estimate").
    expect(small!.all_units.judges.judge!.recall).toMatchObject({ ci: null, too_few: true });
    expect(small!.disagreements.human_vs_judge.judge).toHaveLength(1);
    expect(bare!.epsilon0_status).toBe('undefined');
  });

  it('writes each n once, plurals that agree, and "undefined" once for ε₀', () => {
    report.datasets.forEach((dataset, index) =>
      render(<DatasetSection dataset={dataset} bootstrap={200} index={index} />),
    );
    const sections = screen.getAllByTestId('dataset-section');
    for (const section of sections) {
      expect(badPhrases(section.textContent ?? '')).toEqual([]);
      expect(cellsWithTwoNs(section)).toEqual([]);
    }
    const small = sections[0]!;
    expect(within(small).getByTestId('human-vs-judge').querySelector('summary')!.textContent).toBe(
      'Human vs judge: 1 sentence differs',
    );
    const epsilon0 = within(sections[1]!).getByTestId('facts-epsilon0').textContent!;
    expect(epsilon0.match(/undefined/g)).toHaveLength(1);
    // p̂ names its n beside it once, with its noun.
    expect(within(small).getByTestId('facts-p-hat').textContent!.match(/n =/g)).toHaveLength(1);
  });
});

const est = (value: number, half: number, n: number): Estimate => ({
  value,
  ci: [value - half, value + half],
  n,
  replicates_dropped: 0,
  too_few: false,
});
const tooFew = (value: number | null, n: number): Estimate => ({
  value,
  ci: null,
  n,
  replicates_dropped: 0,
  too_few: value !== null,
});

describe('accuracy and scaffold blocks', () => {
  it('an accuracy cell with n ≤ 5 says "n = 5 summaries" once (not "(n = 5)" then "n = 5 summaries")', () => {
    const figures = {
      n_summaries: 5,
      n_failed: 0,
      faithfulness: est(0.445, 0.3, 5),
      completeness: est(0.5, 0.1, 1),
      conciseness: null,
    };
    const block: AccuracyBlock = {
      sources: { human: { ...figures, conciseness_basis: null, per_summary: [], by_system: { t5: figures } } },
      claim_judges: { gpt: { claim_error: { ...est(0.2, 0.1, 4), n_summaries: 1 } } },
      keyfact_judges: {},
      claim_units: { judges: {}, review_queue: [], human_faithful_sentences: 0 },
      comparison: null,
      comparison_sources: [],
      comparison_note: null,
      notes: [],
    };
    render(<AccuracySection accuracy={block} />);
    const section = screen.getByTestId('accuracy-section');
    expect(cellsWithTwoNs(section)).toEqual([]);
    expect(badPhrases(section.textContent ?? '')).toEqual([]);
    const overall = within(section).getAllByTestId('accuracy-row')[0]!;
    expect(within(overall).getByTestId('accuracy-faithfulness').textContent).toBe(
      '0.445 [0.145, 0.745]n = 5 summaries',
    );
    expect(within(overall).getByTestId('accuracy-completeness').textContent).toBe('0.500 [0.400, 0.600]n = 1 summary');
    expect(within(section).getByTestId('accuracy-claim-error').textContent).toBe(
      '0.200 [0.100, 0.300]n = 4 claims in 1 summary',
    );
  });

  it('a scaffold cell says its n once, and a pair over one document says "1 document"', () => {
    const means = (n: number): ScaffoldMeans => ({
      n_summaries: n,
      ...(Object.fromEntries(SCAFFOLD_METRICS.map((m) => [m, est(0.5, 0.1, n)])) as Record<ScaffoldMetric, Estimate>),
    });
    const comparison = (m: ScaffoldMetric): MetricComparison => ({
      by_system: { a: est(0.6, 0.1, 3), b: est(0.4, 0.1, 3) },
      differences: [{ a: 'a', b: 'b', ...(m === 'fact_focus' ? tooFew(null, 0) : tooFew(m === 'fps' ? 0.2 : 0.1, 1)) }],
      ranks: null,
      ranking_note: 'fewer than 5 paired documents',
      spread: 0.2,
      noise: 0.1,
      saturated: false,
    });
    const block: ScaffoldBlock = {
      sources: { human: { per_summary: [], by_system: { a: means(3), b: means(3) }, means: means(6) } },
      comparison: {
        source: 'human',
        systems: ['a', 'b'],
        n_documents: 1,
        metrics: Object.fromEntries(SCAFFOLD_METRICS.map((m) => [m, comparison(m)])),
      },
      comparison_sources: [{ source: 'human', n_documents: 1 }],
      comparison_note: null,
      notes: [],
    };
    render(<ScaffoldAnalysis scaffold={block} dataset="d" />);
    const table = screen.getByTestId('scaffold-means-human');
    expect(table.querySelector('tr[data-system="a"] td[data-metric="fps"]')!.textContent).toBe('0.50 ± 0.10 (n = 3)');
    expect(cellsWithTwoNs(screen.getByTestId('scaffold-analysis'))).toEqual([]);
    const pair = screen.getByTestId('scaffold-comparison').querySelector('[data-metric="fps"] [data-role="pair"]')!;
    expect(pair.textContent).toBe('a − b: +0.200 (n = 1, too few for an interval)');
    const undefinedPair = screen
      .getByTestId('scaffold-comparison')
      .querySelector('[data-metric="fact_focus"] [data-role="pair"]')!;
    expect(undefinedPair.textContent).toBe('a − b: undefined (0 documents)');
    expect(badPhrases(screen.getByTestId('scaffold-analysis').textContent ?? '')).toEqual([]);
  });
});
