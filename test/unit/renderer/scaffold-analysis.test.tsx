// @vitest-environment happy-dom
/**
 * The Analysis view's scaffold block, from a fixture report block the contract's schema accepts:
 * per source a table of the nine metrics per system (mean ± CI half-width with n, "n = k, too few
 * for an interval" under 5 summaries, "undefined" where the denominator was 0), the comparison per
 * metric by one source (shared ranks, paired difference CIs, the saturated badge, the source
 * picker), and the spread chart, in which a saturated metric's systems sit together, exported as
 * SVG and PNG.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ScaffoldAnalysis } from '../../../renderer/components/scaffold/ScaffoldAnalysis';
import { exportHooks } from '../../../renderer/charts/export';
import type { Estimate } from '../../../shared/analysis/types';
import { SCAFFOLD_METRICS, type ScaffoldMetric } from '../../../shared/scaffold/metrics';
import { ScaffoldBlockSchema, type ScaffoldBlock, type ScaffoldMeans } from '../../../shared/scaffold/report';
import type { MetricComparison, SystemComparison } from '../../../shared/stats/system-comparison';

const est = (value: number, half: number, n: number): Estimate => ({
  value,
  ci: [value - half, value + half],
  n,
  replicates_dropped: 0,
  too_few: false,
});
const SYSTEMS = ['gpt-4o', 'internal-s', 'llama'] as const;

/** Per system and metric its mean (null: undefined, every summary had a 0 denominator). FPS spreads; F is saturated. */
const MEANS: Record<(typeof SYSTEMS)[number], Record<ScaffoldMetric, number | null>> = {
  'gpt-4o': { f: 0.95, fc: 0.7, qc: 0.8, main_fc: 0.75, supp_fc: 0.6, fact_focus: 0.9, fps: 0.6, qps: 0.5, eps: 0.7 },
  'internal-s': {
    f: 0.96,
    fc: 0.5,
    qc: 0.6,
    main_fc: 0.5,
    supp_fc: 0.3,
    fact_focus: 0.85,
    fps: 0.33,
    qps: 0.3,
    eps: 0.44,
  },
  llama: { f: 0.94, fc: 0.45, qc: null, main_fc: 0.45, supp_fc: 0.3, fact_focus: 0.8, fps: 0.3, qps: null, eps: 0.4 },
};

function means(system: (typeof SYSTEMS)[number]): ScaffoldMeans {
  const row = MEANS[system];
  return {
    n_summaries: 12,
    ...(Object.fromEntries(SCAFFOLD_METRICS.map((m) => [m, row[m] === null ? null : est(row[m]!, 0.05, 12)])) as Record<
      ScaffoldMetric,
      Estimate | null
    >),
  };
}

function comparison(metric: ScaffoldMetric): MetricComparison {
  const defined = SYSTEMS.filter((s) => MEANS[s][metric] !== null);
  const sorted = [...defined].sort((a, b) => MEANS[b][metric]! - MEANS[a][metric]!);
  const separable = (a: string, b: string) =>
    Math.abs(MEANS[a as 'llama'][metric]! - MEANS[b as 'llama'][metric]!) > 0.1;
  // Shared ranks: a system joins the group above it when they are not separable (these means chain in order).
  const ranks: Record<string, number> = {};
  sorted.forEach((s, i) => (ranks[s] = i > 0 && !separable(sorted[i - 1]!, s) ? ranks[sorted[i - 1]!]! : i + 1));
  const values = defined.map((s) => MEANS[s][metric]!);
  const spread = values.length ? Math.max(...values) - Math.min(...values) : null;
  return {
    by_system: Object.fromEntries(
      SYSTEMS.map((s) => [s, MEANS[s][metric] === null ? null : est(MEANS[s][metric]!, 0.05, 12)]),
    ),
    differences: defined.flatMap((a, i) =>
      defined.slice(i + 1).map((b) => ({ a, b, ...est(MEANS[a][metric]! - MEANS[b][metric]!, 0.1, 6) })),
    ),
    ranks: defined.length >= 2 ? ranks : null,
    ranking_note: defined.length >= 2 ? null : 'fewer than two systems with a value',
    spread,
    noise: 0.05,
    saturated: spread === null ? null : spread <= 0.05,
  };
}

const COMPARISON: SystemComparison = {
  source: 'human',
  systems: [...SYSTEMS],
  n_documents: 6,
  metrics: Object.fromEntries(SCAFFOLD_METRICS.map((m) => [m, comparison(m)])),
};
const BLOCK: ScaffoldBlock = {
  sources: {
    human: {
      per_summary: [
        {
          summary_id: 's1',
          doc_id: 'd1',
          system: 'gpt-4o',
          scaffold_version: 2,
          n_aligners: 2,
          n_unresolved: 0,
          f: 1,
          fc: 0.7,
          qc: 0.8,
          main_fc: 0.75,
          supp_fc: 0.6,
          fact_focus: 1,
          fps: 0.6,
          qps: 0.5,
          eps: 0.7,
        },
      ],
      by_system: Object.fromEntries(SYSTEMS.map((s) => [s, means(s)])),
      means: means('gpt-4o'),
    },
  },
  comparison: COMPARISON,
  comparison_sources: [
    { source: 'human', n_documents: 6 },
    { source: 'gpt-4.1', n_documents: 6 },
  ],
  comparison_note: null,
  notes: ['People: 2 annotators, resolved item by item.'],
};

let downloads: Array<{ fileName: string; blob: Blob }>;
beforeEach(() => {
  downloads = [];
  vi.spyOn(exportHooks, 'download').mockImplementation((fileName, blob) => void downloads.push({ fileName, blob }));
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** App. G.7's direct score: every system near 9.9 (the paper's Fig. 2), and a judge checked against people. */
const DIRECT: MetricComparison = {
  by_system: Object.fromEntries(SYSTEMS.map((system, i) => [system, est(9.88 + i * 0.01, 0.08, 12)])),
  differences: [{ a: 'gpt-4o', b: 'internal-s', ...est(-0.01, 0.1, 6) }],
  ranks: { 'gpt-4o': 1, 'internal-s': 1, llama: 1 },
  ranking_note: null,
  spread: 0.02,
  noise: 0.08,
  saturated: true,
};
const WITH_DIRECT: ScaffoldBlock = {
  ...BLOCK,
  sources: {
    ...BLOCK.sources,
    'gpt-4.1': {
      ...BLOCK.sources.human!,
      means: { ...means('gpt-4o'), direct_score: est(9.9, 0.05, 12) },
      vs_people: {
        facts: {
          n_items: 40,
          n_differ: 6,
          error: { value: 0.15, ci: [0.05, 0.25], n: 6, replicates_dropped: 0, too_few: false },
        },
        questions: null,
        attributes: {
          n_items: 18,
          n_differ: 2,
          error: { value: 0.111, ci: null, n: 4, replicates_dropped: 0, too_few: true },
        },
      },
    },
  },
  comparison: { ...COMPARISON, metrics: { ...COMPARISON.metrics, direct_score: DIRECT } },
  direct_score_judge: 'gpt-4.1',
};

describe('the scaffold block of the Analysis view', () => {
  it('adds the direct score beside the nine metrics (saturated, collapsed on the chart) and the judge-vs-people errors', () => {
    expect(ScaffoldBlockSchema.safeParse(WITH_DIRECT).success).toBe(true);
    render(<ScaffoldAnalysis scaffold={WITH_DIRECT} dataset="screens" />);
    const judgeTable = screen.getByTestId('scaffold-means-gpt-4.1');
    expect(judgeTable.querySelector('tr[data-system="all systems"] td[data-metric="direct_score"]')!.textContent).toBe(
      '9.90 ± 0.05 (n = 12)',
    );
    // People's table has no direct score: no such column.
    expect(screen.getByTestId('scaffold-means-human').querySelector('td[data-metric="direct_score"]')).toBeNull();
    const vs = screen.getByTestId('scaffold-vs-people-gpt-4.1');
    expect(vs.querySelector('tr[data-kind="facts"]')!.textContent).toContain('6 of 40');
    expect(vs.querySelector('tr[data-kind="questions"]')!.textContent).toContain('no overlap');
    expect(vs.querySelector('tr[data-kind="attributes"]')!.textContent).toContain(
      '11.1% (n = 4, too few for an interval)',
    );
    expect(screen.getByTestId('saturated-direct_score')).toBeTruthy();
    const svg = screen.getByTestId('scaffold-spread-svg');
    const row = svg.querySelector('[data-metric="direct_score"]')!;
    expect(row.getAttribute('data-saturated')).toBe('true');
    const fpsXs = [...svg.querySelectorAll('[data-metric="fps"] circle, [data-metric="fps"] rect')].map((m) =>
      Number(m.getAttribute('cx') ?? Number(m.getAttribute('x')) + 3.5),
    );
    const directXs = [...row.querySelectorAll('circle, rect')].map((m) =>
      Number(m.getAttribute('cx') ?? Number(m.getAttribute('x')) + 3.5),
    );
    expect(directXs).toHaveLength(3);
    // On the 0–1 axis as score ÷ 10: near the right end, spread far narrower than FPS's.
    expect(Math.min(...directXs)).toBeGreaterThan(Math.max(...fpsXs));
    expect(Math.max(...directXs) - Math.min(...directXs)).toBeLessThan((Math.max(...fpsXs) - Math.min(...fpsXs)) / 5);
  });

  it('the fixture is a report block the contract accepts', () => {
    expect(ScaffoldBlockSchema.safeParse(BLOCK).success).toBe(true);
  });

  it('tabulates the nine metrics per system with mean ± CI and n, and "undefined" where the denominator is 0', () => {
    render(<ScaffoldAnalysis scaffold={BLOCK} dataset="screens" />);
    const table = screen.getByTestId('scaffold-means-human');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'System',
      'Summaries',
      'F',
      'FC',
      'QC',
      'Main FC',
      'Supp FC',
      'Fact Focus',
      'FPS',
      'QPS',
      'EPS',
    ]);
    const llama = table.querySelector('tr[data-system="llama"]')!;
    expect(llama.querySelector('td[data-metric="fps"]')!.textContent).toBe('0.30 ± 0.05 (n = 12)');
    expect(llama.querySelector('td[data-metric="qc"]')!.textContent).toBe('undefined');
    expect(table.querySelector('tr[data-system="all systems"]')).not.toBeNull();
    expect(screen.getByTestId('scaffold-notes').textContent).toContain('2 annotators');
    // A figure on fewer than 5 summaries: the value and "n = k, too few for an interval", never "± 0.00".
    const thin: ScaffoldBlock = {
      ...BLOCK,
      sources: {
        human: {
          ...BLOCK.sources.human!,
          by_system: {
            solo: {
              ...means('llama'),
              n_summaries: 1,
              fps: { value: 0.67, ci: null, n: 1, replicates_dropped: 0, too_few: true },
            },
          },
        },
      },
    };
    cleanup();
    render(<ScaffoldAnalysis scaffold={thin} dataset="screens" />);
    expect(
      screen.getByTestId('scaffold-means-human').querySelector('tr[data-system="solo"] td[data-metric="fps"]')!
        .textContent,
    ).toBe('0.67 (n = 1, too few for an interval)');
  });

  it('compares systems per metric: shared ranks, paired difference CIs, and the saturated badge on F only', () => {
    render(<ScaffoldAnalysis scaffold={BLOCK} dataset="screens" />);
    const table = screen.getByTestId('scaffold-comparison');
    const row = (m: string) => table.querySelector(`tr[data-metric="${m}"]`)!;
    // FPS: gpt-4o is separable from both; internal-s and llama (0.33 vs 0.30) share a rank.
    expect(row('fps').querySelector('[data-role="ranking"]')!.textContent).toBe(
      '1. gpt-4o · 2. internal-s (shared) · 2. llama (shared)',
    );
    const pairs = [...row('fps').querySelectorAll('[data-role="pair"]')].map((p) => p.textContent);
    expect(pairs[0]).toBe('gpt-4o − internal-s: +0.270 [0.170, 0.370] (6 documents)');
    expect(pairs[2]).toBe('internal-s − llama: +0.030 [−0.070, 0.130] (6 documents)');
    expect((within(table).getByTestId('scaffold-comparison-source') as HTMLSelectElement).value).toBe('people');
    expect(within(table).getByTestId('saturated-f')).toBeTruthy();
    expect(SCAFFOLD_METRICS.filter((m) => row(m).getAttribute('data-saturated') === 'true')).toEqual(['f']);
  });

  it('draws the spread chart: every defined system mean per metric, the saturated one collapsed, and exports it', async () => {
    render(<ScaffoldAnalysis scaffold={BLOCK} dataset="screens" />);
    const figure = screen.getByTestId('scaffold-spread-chart');
    const svg = within(figure).getByTestId('scaffold-spread-svg');
    const rows = [...svg.querySelectorAll('[data-role="metric-row"]')];
    expect(rows.map((r) => r.getAttribute('data-metric'))).toEqual([...SCAFFOLD_METRICS]);
    const xs = (metric: string) =>
      [
        ...svg.querySelectorAll(
          `[data-metric="${metric}"] [data-role="system-point"] circle, [data-metric="${metric}"] [data-role="system-point"] rect`,
        ),
      ].map((m) => Number(m.getAttribute('cx') ?? Number(m.getAttribute('x')) + 3.5));
    const width = (values: number[]) => Math.max(...values) - Math.min(...values);
    expect(xs('fps')).toHaveLength(3);
    expect(xs('qps')).toHaveLength(2); // llama's QPS is undefined: no point
    expect(width(xs('f'))).toBeLessThan(width(xs('fps')) / 5);
    expect(svg.querySelector('[data-metric="f"]')!.getAttribute('data-saturated')).toBe('true');
    expect(svg.querySelector('[data-metric="f"] text')!.textContent).toBe('F (saturated)');

    fireEvent.click(within(figure).getByTestId('chart-export-svg'));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]!.fileName).toBe('loupe-screens-scaffold-spread.svg');
    const text = await downloads[0]!.blob.text();
    expect(text.startsWith('<?xml')).toBe(true);
    expect(text).toContain('FPS');
    expect(text).not.toContain('data-');

    const context = { fillStyle: '', fillRect: vi.fn(), scale: vi.fn(), drawImage: vi.fn() };
    vi.spyOn(exportHooks, 'loadImage').mockImplementation(async () => ({}) as CanvasImageSource);
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => context as never);
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((callback: BlobCallback, type?: string) =>
      callback(new Blob(['png'], { type })),
    );
    fireEvent.click(within(figure).getByTestId('chart-export-png'));
    await waitFor(() => expect(downloads).toHaveLength(2));
    expect(downloads[1]!.fileName).toBe('loupe-screens-scaffold-spread.png');
    expect(downloads[1]!.blob.type).toBe('image/png');
  });
});
