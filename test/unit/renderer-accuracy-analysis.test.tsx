// @vitest-environment happy-dom
/**
 * The Analysis view's accuracy block (issue 11 item 6): from a fixture report block (checked by
 * the contract's own schema), one table per source with faithfulness, completeness and
 * conciseness overall and per system, each with its interval and n, "—" where the source has no
 * such labels, the unit each conciseness figure counts, and the judge-vs-people errors.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { AccuracySection } from '../../renderer/components/accuracy/AccuracyTables';
import { AccuracyBlockSchema, type AccuracyBlock, type SourceAccuracy } from '../../shared/accuracy/report';
import type { Estimate } from '../../shared/analysis/types';

afterEach(cleanup);

const est = (value: number, ci: [number, number], n: number): Estimate => ({ value, ci, n, replicates_dropped: 0 });

/** The card's two worked examples as two systems: faithfulness 1.0 / 0.5, completeness 1.0 / 0.25. */
const human: SourceAccuracy = {
  n_summaries: 2,
  n_failed: 0,
  faithfulness: est(0.75, [0.5, 1], 2),
  completeness: est(0.625, [0.25, 1], 2),
  conciseness: est(0.7, [0.4, 1], 2),
  conciseness_unit: 'claims',
  sentence_conciseness: null,
  per_summary: [
    { summary_id: 'good', doc_id: 'd1', system: 'sys-a', faithfulness: 1, completeness: 1, conciseness: 1, sentence_conciseness: null, failed: false },
    { summary_id: 'bad', doc_id: 'd1', system: 'sys-b', faithfulness: 0.5, completeness: 0.25, conciseness: 0.4, sentence_conciseness: null, failed: false },
  ],
  by_system: {
    'sys-a': { n_summaries: 1, n_failed: 0, faithfulness: est(1, [1, 1], 1), completeness: est(1, [1, 1], 1), conciseness: est(1, [1, 1], 1), sentence_conciseness: null },
    'sys-b': { n_summaries: 1, n_failed: 0, faithfulness: est(0.5, [0.5, 0.5], 1), completeness: est(0.25, [0.25, 0.25], 1), conciseness: est(0.4, [0.4, 0.4], 1), sentence_conciseness: null },
  },
};

/** A judge with claim verdicts only (no alignment): completeness and conciseness are "—". */
const judge: SourceAccuracy = {
  n_summaries: 3,
  n_failed: 1,
  faithfulness: est(0.5, [0, 1], 3),
  completeness: null,
  conciseness: null,
  conciseness_unit: null,
  sentence_conciseness: est(0.333, [0, 0.667], 3),
  per_summary: [],
  by_system: {},
};

const block: AccuracyBlock = {
  sources: { qwen: judge, human },
  claim_judges: { qwen: { claim_error: { value: 0.2, ci: [0.1, 0.35], n: 10, replicates_dropped: 0, n_summaries: 2 } } },
  keyfact_judges: {},
  claim_units: { judges: {}, review_queue: [], human_faithful_sentences: 0 },
  notes: ['People’s labels resolved by the majority rule.'],
};

describe('the accuracy tables', () => {
  it('the fixture is a report block the contract accepts', () => {
    expect(AccuracyBlockSchema.safeParse(block).success).toBe(true);
  });

  it('shows people first, each figure with its interval and n, overall and per system', () => {
    render(<AccuracySection accuracy={block} />);
    const tables = screen.getAllByTestId('accuracy-source');
    expect(tables.map((t) => t.getAttribute('data-source'))).toEqual(['human', 'qwen']);
    const rows = within(tables[0]!).getAllByTestId('accuracy-row');
    expect(rows.map((r) => r.getAttribute('data-system'))).toEqual(['All systems', 'sys-a', 'sys-b']);
    const overall = rows[0]!;
    expect(within(overall).getByTestId('accuracy-faithfulness').textContent).toContain('0.750 [0.500, 1.000]');
    expect(within(overall).getByTestId('accuracy-faithfulness').textContent).toContain('n = 2 summaries');
    expect(within(overall).getByTestId('accuracy-completeness').textContent).toContain('0.625');
    const bad = rows[2]!;
    expect(within(bad).getByTestId('accuracy-faithfulness').textContent).toContain('0.500');
    expect(within(bad).getByTestId('accuracy-completeness').textContent).toContain('0.250');
    expect(within(bad).getByTestId('accuracy-completeness').textContent).toContain('n = 1 summary');
    expect(tables[0]!.querySelector('[data-role="table-about"]')!.textContent).toContain('claims conveying a key fact / claims');
  });

  it('writes "—" where a source has no such labels and counts failed calls', () => {
    render(<AccuracySection accuracy={block} />);
    const judgeTable = screen.getAllByTestId('accuracy-source')[1]!;
    const overall = within(judgeTable).getAllByTestId('accuracy-row')[0]!;
    expect(within(overall).getByTestId('accuracy-completeness').textContent).toBe('—');
    expect(within(overall).getByTestId('accuracy-conciseness').textContent).toBe('—');
    expect(within(overall).getByTestId('accuracy-sentence-conciseness').textContent).toContain('0.333');
    expect(judgeTable.querySelector('[data-role="table-about"]')!.textContent).toContain('1 failed system call, 0.0 on all three');
  });

  it('puts each source’s name as a heading above its own table, naming it (never a caption under it)', () => {
    render(<AccuracySection accuracy={block} />);
    const section = screen.getByTestId('accuracy-section');
    expect(section.querySelector('caption')).toBeNull();
    const titled = [...section.querySelectorAll('section.titled-table')];
    expect(titled.map((t) => t.querySelector('h4')!.textContent)).toEqual(['People (human labels)', 'qwen', 'Judges vs people']);
    for (const block of titled) {
      const heading = block.querySelector('h4')!;
      const table = block.querySelector('table')!;
      // The heading comes first in the document, and it is what the table is called.
      expect(heading.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      expect(table.getAttribute('aria-labelledby')).toBe(heading.id);
      expect(screen.getByRole('table', { name: heading.textContent! })).toBe(table);
    }
  });

  it('compares each judge with the people at claim and key-fact level', () => {
    render(<AccuracySection accuracy={block} />);
    const row = within(screen.getByTestId('accuracy-judges')).getByTestId('accuracy-judge-row');
    expect(row.getAttribute('data-judge')).toBe('qwen');
    expect(within(row).getByTestId('accuracy-claim-error').textContent).toContain('0.200 [0.100, 0.350]');
    expect(within(row).getByTestId('accuracy-claim-error').textContent).toContain('n = 10 claims in 2 summaries');
    expect(within(row).getByTestId('accuracy-alignment-error').textContent).toBe('—');
    expect(screen.getByTestId('accuracy-notes').textContent).toContain('majority rule');
  });
});
