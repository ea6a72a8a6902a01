// @vitest-environment happy-dom
/**
 * App. D in the Analysis view's accuracy block: the `claim_units` figures (min and mean of a
 * sentence's claim verdicts against its human label, with Pearson, Spearman, Kendall and ROC-AUC
 * and their intervals, per judge) as a table beside the accuracy tables, and the review queue's
 * count; nothing to show (no claim verdicts) shows no table.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { AccuracySection } from '../../../renderer/components/accuracy/AccuracyTables';
import { AccuracyBlockSchema, type AccuracyBlock, type ClaimAggregationCell } from '../../../shared/accuracy/report';
import type { Estimate } from '../../../shared/analysis/types';

afterEach(cleanup);

const est = (value: number | null, ci: [number, number] | null, n: number): Estimate => ({
  value,
  ci,
  n,
  replicates_dropped: 0,
  too_few: false,
});
const cell = (pearson: number, spearman: number, kendall: number, auc: number | null): ClaimAggregationCell => ({
  pearson: est(pearson, [pearson - 0.1, pearson + 0.1], 12),
  spearman: est(spearman, [spearman - 0.1, spearman + 0.1], 12),
  kendall: est(kendall, [kendall - 0.1, kendall + 0.1], 12),
  roc_auc: est(auc, auc === null ? null : [auc - 0.05, auc + 0.05], 12),
});

const base: AccuracyBlock = {
  sources: {},
  claim_judges: {},
  keyfact_judges: {},
  claim_units: {
    judges: {
      qwen: { n_sentences: 12, min: cell(0.61, 0.58, 0.5, 0.8), mean: cell(0.44, 0.4, 0.33, null) },
      gpt: { n_sentences: 9, min: cell(0.2, 0.25, 0.2, 0.6), mean: cell(0.3, 0.31, 0.25, 0.65) },
    },
    review_queue: [
      {
        summary_id: 's1',
        sentence_index: 0,
        sentence: 'The city approved 2.4 million euros.',
        flagged_claims: ['The budget is 2.4 million euros.'],
      },
      {
        summary_id: 's3',
        sentence_index: 2,
        sentence: 'Works start in March.',
        flagged_claims: ['Works start in March.'],
      },
    ],
    human_faithful_sentences: 7,
  },
  comparison: null,
  comparison_sources: [],
  comparison_note: null,
  notes: [],
};

describe('App. D claim units in the Analysis view', () => {
  it('the fixture is a report block the contract accepts', () => {
    expect(AccuracyBlockSchema.safeParse(base).success).toBe(true);
  });

  it('shows min and mean per judge with each correlation and its interval, and the review queue count', () => {
    render(<AccuracySection accuracy={base} />);
    const section = screen.getByTestId('accuracy-claim-units');
    const rows = within(section).getAllByTestId('claim-units-row');
    expect(rows.map((r) => [r.getAttribute('data-judge'), r.getAttribute('data-aggregation')])).toEqual([
      ['gpt', 'min'],
      ['gpt', 'mean'],
      ['qwen', 'min'],
      ['qwen', 'mean'],
    ]);
    const qwenMin = rows[2]!;
    expect(qwenMin.textContent).toContain('12');
    expect(within(qwenMin).getByTestId('claim-units-pearson').textContent).toBe('0.610 [0.510, 0.710]');
    expect(within(qwenMin).getByTestId('claim-units-kendall').textContent).toBe('0.500 [0.400, 0.600]');
    expect(within(qwenMin).getByTestId('claim-units-roc_auc').textContent).toBe('0.800 [0.750, 0.850]');
    // An undefined figure (one class only) says so, as everywhere in the Analysis view: never 0.
    expect(within(rows[3]!).getByTestId('claim-units-roc_auc').textContent).toBe('undefined');
    expect(within(section).getByTestId('claim-units-queue').textContent).toBe(
      'Review queue: 2 human-faithful sentences where every judge flags a claim, of 7 with every verdict.',
    );
  });

  it('no claim verdicts: no table', () => {
    render(
      <AccuracySection
        accuracy={{ ...base, claim_units: { judges: {}, review_queue: [], human_faithful_sentences: 0 } }}
      />,
    );
    expect(screen.queryByTestId('accuracy-claim-units')).toBeNull();
  });
});
