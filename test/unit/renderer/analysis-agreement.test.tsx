// @vitest-environment happy-dom
/**
 * The Analysis view's agreement table: a dataset section built from a report of the
 * real pure analysis shows one row for the humans (Fleiss), one per annotator pair (Cohen), one per
 * judge against the humans, each cell value ± half-width with n, and states the unclear choice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { DatasetSection } from '../../../renderer/components/analysis/DatasetSection';
import { AgreementTable } from '../../../renderer/components/analysis/AgreementTable';
import { analyzeProject, type AnalysisDataset, type AnalysisSummary } from '../../../shared/analysis';
import type { HumanLabel } from '../../../shared/domain';

afterEach(cleanup);

function dataset(): AnalysisDataset {
  const summaries: AnalysisSummary[] = Array.from({ length: 10 }, (_, g) => {
    const units = Array.from({ length: 3 }, (_, i) => {
      const a: HumanLabel = (g + i) % 4 === 0 ? 'unfaithful' : 'faithful';
      const b: HumanLabel = (g * 3 + i) % 7 === 0 ? (a === 'faithful' ? 'unfaithful' : 'faithful') : a;
      const c: HumanLabel = g === 4 && i === 1 ? 'unclear' : a;
      const ratings: Record<string, HumanLabel> = g < 6 ? { alice: a, bob: b, carol: c } : { alice: a };
      const values = Object.values(ratings);
      const agreed = values.every((v) => v === values[0]);
      return {
        index: i,
        text: `Sentence ${i} of summary ${g}.`,
        human: agreed ? values[0]! : (null as HumanLabel | null),
        humanStatus: agreed
          ? values.length > 1
            ? ('agreed' as const)
            : ('single' as const)
          : ('disagreement' as const),
        ratings,
        judges: { qwen: { hard: (g + 2 * i) % 5 === 0 ? (0 as const) : (1 as const), soft: null } },
      };
    });
    return { summaryId: `s${g}`, docId: `d${g}`, globalLabel: g % 2 === 0 ? 1 : 0, units, annotated: true };
  });
  return { name: 'tiny', summaries, judges: ['qwen'] };
}

describe('the agreement table of the Analysis view', () => {
  const report = analyzeProject([dataset()], { bootstrap: 100, seed: 0, cap: 25 });
  const data = report.datasets[0]!;

  it('is part of the dataset section: humans, pairs and each judge vs humans, value ± half-width, n', () => {
    render(<DatasetSection dataset={data} bootstrap={100} index={0} />);
    const table = screen.getByTestId('agreement-table');
    const rows = within(table).getAllByTestId('agreement-row');
    expect(rows.map((row) => row.getAttribute('data-kind'))).toEqual(['humans', 'pair', 'pair', 'pair', 'judge']);
    expect(rows[0]!.textContent).toContain('Humans (3 annotators)');
    expect(rows[0]!.textContent).toContain('Fleiss');
    const alpha = data.agreement.humans.krippendorff_alpha;
    const half = ((alpha.ci![1] - alpha.ci![0]) / 2).toFixed(3);
    expect(within(rows[0]!).getAllByRole('cell')[2]!.textContent).toBe(
      `${alpha.value!.toFixed(3).replace('-', '−')} ± ${half}`,
    );
    expect(within(rows[0]!).getAllByRole('cell').at(-1)!.textContent).toBe(String(data.agreement.humans.n_units));
    expect(rows[1]!.textContent).toContain('alice vs bob');
    expect(rows[1]!.textContent).toContain('Cohen');
    expect(rows[4]!.textContent).toContain('qwen vs humans');
    expect(within(rows[4]!).getAllByRole('cell').at(-1)!.textContent).toBe(String(data.agreement.judges.qwen!.n_units));
    expect(screen.getByTestId('agreement-unclear').textContent).toMatch(
      /Unclear is excluded: two categories; 1 unit an annotator rated unclear leaves the human figures/,
    );
  });

  it('writes "undefined" for a figure without a value, never 0', () => {
    // One annotator only: no unit has two ratings, every multi-rater figure is undefined.
    const single = dataset();
    for (const s of single.summaries) for (const u of s.units) u.ratings = { alice: u.ratings!.alice! };
    const agreement = analyzeProject([single], { bootstrap: 20 }).datasets[0]!.agreement;
    render(<AgreementTable agreement={agreement} />);
    const rows = screen.getAllByTestId('agreement-row');
    expect(rows.map((row) => row.getAttribute('data-kind'))).toEqual(['humans', 'judge']);
    expect(within(rows[0]!).getAllByRole('cell')[0]!.textContent).toBe('undefined');
  });
});
