// @vitest-environment happy-dom
/**
 * The Analysis view's accuracy block: from a fixture report block (checked by the contract's own
 * schema), one table per source with faithfulness, completeness and one conciseness (on the
 * source's basis) overall and per system, each with its interval and n ("n = k, too few for an
 * interval" under 5 summaries), "—" where the source has no such labels, the judge-vs-people
 * errors, and the comparison of systems with its source picker.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { AccuracySection } from '../../../renderer/components/accuracy/AccuracyTables';
import { AccuracyBlockSchema, type AccuracyBlock, type SourceAccuracy } from '../../../shared/accuracy/report';
import type { Estimate } from '../../../shared/analysis/types';

afterEach(cleanup);

const est = (value: number, ci: [number, number], n: number): Estimate => ({
  value,
  ci,
  n,
  replicates_dropped: 0,
  too_few: false,
});
/** A figure on fewer than 5 summaries: the point value, no interval. */
const few = (value: number, n: number): Estimate => ({ value, ci: null, n, replicates_dropped: 0, too_few: true });

/** Two systems of six summaries each: faithfulness 1.0 / 0.5, completeness 1.0 / 0.25. */
const human: SourceAccuracy = {
  n_summaries: 12,
  n_failed: 0,
  faithfulness: est(0.75, [0.5, 1], 12),
  completeness: est(0.625, [0.25, 1], 12),
  conciseness: est(0.7, [0.4, 1], 12),
  conciseness_basis: 'claims',
  per_summary: [
    {
      summary_id: 'good',
      doc_id: 'd1',
      system: 'sys-a',
      faithfulness: 1,
      completeness: 1,
      conciseness: 1,
      conciseness_basis: 'claims',
      failed: false,
    },
    {
      summary_id: 'bad',
      doc_id: 'd1',
      system: 'sys-b',
      faithfulness: 0.5,
      completeness: 0.25,
      conciseness: 0.4,
      conciseness_basis: 'claims',
      failed: false,
    },
  ],
  by_system: {
    'sys-a': {
      n_summaries: 6,
      n_failed: 0,
      faithfulness: est(1, [1, 1], 6),
      completeness: est(1, [1, 1], 6),
      conciseness: est(1, [1, 1], 6),
    },
    'sys-b': {
      n_summaries: 6,
      n_failed: 0,
      faithfulness: est(0.5, [0.4, 0.6], 6),
      completeness: est(0.25, [0.1, 0.4], 6),
      conciseness: est(0.4, [0.3, 0.5], 6),
    },
  },
};

/** A judge with claim verdicts and sentence-level conciseness on three summaries (too few for intervals), no key-fact coverage. */
const judge: SourceAccuracy = {
  n_summaries: 3,
  n_failed: 1,
  faithfulness: few(0.5, 3),
  completeness: null,
  conciseness: few(0.333, 3),
  conciseness_basis: 'sentences',
  per_summary: [],
  by_system: {},
};

const block: AccuracyBlock = {
  sources: { qwen: judge, human },
  claim_judges: {
    qwen: {
      claim_error: { value: 0.2, ci: [0.1, 0.35], n: 10, replicates_dropped: 0, too_few: false, n_summaries: 6 },
    },
  },
  keyfact_judges: {},
  claim_units: { judges: {}, review_queue: [], human_faithful_sentences: 0 },
  comparison: {
    source: 'human',
    systems: ['sys-a', 'sys-b'],
    n_documents: 6,
    metrics: {
      faithfulness: {
        by_system: { 'sys-a': est(1, [1, 1], 6), 'sys-b': est(0.5, [0.4, 0.6], 6) },
        differences: [
          { a: 'sys-a', b: 'sys-b', value: 0.5, ci: [0.4, 0.6], n: 6, replicates_dropped: 0, too_few: false },
        ],
        ranks: { 'sys-a': 1, 'sys-b': 2 },
        ranking_note: null,
        spread: 0.5,
        noise: 0.05,
        saturated: false,
      },
    },
  },
  comparison_sources: [
    { source: 'human', n_documents: 6 },
    { source: 'qwen', n_documents: 2 },
  ],
  comparison_note: null,
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
    expect(within(overall).getByTestId('accuracy-faithfulness').textContent).toContain('n = 12 summaries');
    expect(within(overall).getByTestId('accuracy-completeness').textContent).toContain('0.625');
    const bad = rows[2]!;
    expect(within(bad).getByTestId('accuracy-faithfulness').textContent).toContain('0.500');
    expect(within(bad).getByTestId('accuracy-completeness').textContent).toContain('0.250');
    expect(within(bad).getByTestId('accuracy-completeness').textContent).toContain('n = 6 summaries');
    expect(tables[0]!.querySelector('[data-role="table-about"]')!.textContent).toContain(
      'claims conveying a key fact / claims',
    );
  });

  it('writes "—" where a source has no such labels and counts failed calls', () => {
    render(<AccuracySection accuracy={block} />);
    const judgeTable = screen.getAllByTestId('accuracy-source')[1]!;
    const overall = within(judgeTable).getAllByTestId('accuracy-row')[0]!;
    expect(within(overall).getByTestId('accuracy-completeness').textContent).toBe('—');
    // One conciseness column, on the judge's basis; three summaries: the value without an interval.
    expect(within(overall).getByTestId('accuracy-conciseness').textContent).toBe(
      '0.333 (n = 3, too few for an interval)',
    );
    expect(judgeTable.querySelector('[data-basis]')!.getAttribute('data-basis')).toBe('sentences');
    expect(judgeTable.querySelector('[data-role="table-about"]')!.textContent).toContain(
      'sentences conveying a key fact / sentences (FineSurE)',
    );
    expect(judgeTable.querySelector('[data-role="table-about"]')!.textContent).toContain(
      '1 failed system call, 0.0 on all three',
    );
  });

  it('puts each source’s name as a heading above its own table, naming it (never a caption under it)', () => {
    render(<AccuracySection accuracy={block} />);
    const section = screen.getByTestId('accuracy-section');
    expect(section.querySelector('caption')).toBeNull();
    const titled = [...section.querySelectorAll('section.titled-table')];
    expect(titled.map((t) => t.querySelector('h4')!.textContent)).toEqual([
      'People (human labels)',
      'qwen',
      'Comparison of systems (people)',
      'Judges vs people',
    ]);
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
    expect(within(row).getByTestId('accuracy-claim-error').textContent).toContain('n = 10 claims in 6 summaries');
    expect(within(row).getByTestId('accuracy-alignment-error').textContent).toBe('—');
    expect(screen.getByTestId('accuracy-notes').textContent).toContain('majority rule');
  });

  it('compares the systems on every metric by the chosen source, with a picker of the sources', () => {
    render(<AccuracySection accuracy={block} />);
    const comparison = screen.getByTestId('accuracy-comparison');
    expect(comparison.getAttribute('data-source')).toBe('human');
    const picker = within(comparison).getByTestId('accuracy-comparison-source') as HTMLSelectElement;
    expect(picker.value).toBe('people');
    expect([...picker.options].map((o) => [o.value, o.textContent])).toEqual([
      ['people', 'people (6 paired documents)'],
      ['qwen', 'judge qwen (2 paired documents)'],
    ]);
    const row = comparison.querySelector('tr[data-metric="faithfulness"]')!;
    expect(row.querySelector('[data-role="ranking"]')!.textContent).toBe('1. sys-a · 2. sys-b');
    expect(row.querySelector('[data-role="pair"]')!.textContent).toBe(
      'sys-a − sys-b: +0.500 [0.400, 0.600] (6 documents)',
    );
  });
});
