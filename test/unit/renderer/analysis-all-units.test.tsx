// @vitest-environment happy-dom
/**
 * The Analysis view on one-sentence summaries and its human reference: a dataset section built from the real pure analysis shows the judge-error table over
 * every annotated sentence (ε̂, confusion, recall, specificity with their n) and the agreement
 * table even when no summary has two sentences, says the diagnostic does not apply, and names the
 * reference with its n.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { DatasetSection } from '../../../renderer/components/analysis/DatasetSection';
import { analyzeProject, type AnalysisDataset, type AnalysisSummary } from '../../../shared/analysis';
import type { HumanLabel } from '../../../shared/domain';

afterEach(cleanup);

/** 12 one-sentence summaries, two annotators who agree except on s3, a judge that misses every fourth. */
function xsumLike(): AnalysisDataset {
  const summaries: AnalysisSummary[] = Array.from({ length: 12 }, (_, g) => {
    const a: HumanLabel = g % 3 === 0 ? 'unfaithful' : 'faithful';
    const b: HumanLabel = g === 3 ? 'faithful' : a;
    const agreed = a === b;
    return {
      summaryId: `s${g}`,
      docId: `d${g}`,
      globalLabel: a === 'faithful' ? 1 : 0,
      annotated: true,
      units: [
        {
          index: 0,
          text: `The one sentence of summary ${g}.`,
          human: agreed ? a : null,
          humanStatus: agreed ? 'agreed' : 'disagreement',
          ratings: { ann: a, bob: b },
          judges: { qwen: { hard: g % 4 === 0 ? (a === 'faithful' ? 0 : 1) : a === 'faithful' ? 1 : 0, soft: null } },
        },
      ],
    };
  });
  return { name: 'xsum', summaries, judges: ['qwen'] };
}

describe('the Analysis view on one-sentence summaries', () => {
  const report = analyzeProject([xsumLike()], { bootstrap: 100, seed: 0, cap: 25 });
  const data = report.datasets[0]!;

  it('shows the all-units judge-error table and agreement, and says the diagnostic does not apply', () => {
    render(<DatasetSection dataset={data} bootstrap={100} index={0} />);
    const row = within(screen.getByTestId('all-units-table')).getByTestId('all-units-row');
    const judge = data.all_units.judges.qwen!;
    expect(judge.epsilon_hat.n).toBe(11); // s3 is unresolved
    const cells = within(row).getAllByRole('cell');
    expect(cells[0]!.textContent).toContain(judge.epsilon_hat.value!.toFixed(3));
    expect(cells[0]!.textContent).toContain(`n = ${judge.epsilon_hat.n} sentences`);
    expect(cells.slice(1, 5).map((c) => c.textContent)).toEqual(
      [judge.confusion.tp, judge.confusion.fp, judge.confusion.tn, judge.confusion.fn].map(String),
    );
    expect(cells[5]!.textContent).toContain(`n = ${judge.recall.n} unfaithful sentence`);
    expect(screen.getByTestId('all-units-facts').textContent).toContain(
      '12 annotated summaries (12 with one sentence)',
    );
    expect(screen.getByTestId('agreement-table')).toBeTruthy();
    expect(screen.getByTestId('empty-summaries').textContent).toMatch(/diagnostic does not apply/);
    expect(screen.queryByTestId('verdict-table')).toBeNull();
  });

  it('names the human reference with its annotators and labels', () => {
    render(<DatasetSection dataset={data} bootstrap={100} index={0} />);
    const facts = screen.getByTestId('facts-reference');
    expect(facts.getAttribute('data-rule')).toBe('unanimous');
    expect(facts.textContent).toContain('2 annotators, 24 labels');
    expect(facts.textContent).toContain('ann: 12; bob: 12');
  });
});
