// @vitest-environment happy-dom
/**
 * The Analysis view's table of the judges' error types: a dataset section built from the real pure
 * analysis counts each judge's unfaithful sentence predictions by type (untyped when it names
 * none) and shows no table when no judge predicts an unfaithful sentence.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { DatasetSection } from '../../../renderer/components/analysis/DatasetSection';
import { analyzeProject, type AnalysisDataset, type AnalysisSummary } from '../../../shared/analysis';
import type { ErrorType } from '../../../shared/domain';

afterEach(cleanup);

/** Six two-sentence summaries; judge "fs" flags sentence 0 of s0–s3 (entity, entity, relation, untyped), "quiet" flags nothing. */
function dataset(): AnalysisDataset {
  const types: Array<ErrorType | null> = ['entity', 'entity', 'relation', null];
  const summaries: AnalysisSummary[] = Array.from({ length: 6 }, (_, g) => ({
    summaryId: `s${g}`,
    docId: `d${g}`,
    globalLabel: 1,
    annotated: true,
    units: [0, 1].map((index) => {
      const flagged = index === 0 && g < 4;
      const errorType = flagged ? types[g] : null;
      return {
        index,
        text: `Sentence ${index} of summary ${g}.`,
        human: 'faithful' as const,
        humanStatus: 'single' as const,
        judges: {
          fs: { hard: flagged ? 0 : 1, soft: null, ...(errorType ? { errorType } : {}) },
          quiet: { hard: 1 as const, soft: null },
        },
      };
    }),
  }));
  return { name: 'news', summaries, judges: ['fs', 'quiet'] };
}

describe('the judges’ error-type table', () => {
  it('counts each judge’s unfaithful predictions by error type', () => {
    const data = analyzeProject([dataset()], { bootstrap: 20, seed: 0, cap: 25 }).datasets[0]!;
    render(<DatasetSection dataset={data} bootstrap={20} index={0} />);
    const table = screen.getByTestId('judge-error-types');
    const rows = within(table).getAllByRole('row').slice(1);
    // Only the judge that flags something has a row.
    expect(rows.map((r) => r.getAttribute('data-judge'))).toEqual(['fs']);
    const cell = (type: string) => rows[0]!.querySelector(`[data-type="${type}"]`)!.textContent;
    expect(within(rows[0]!).getAllByRole('cell')[0]!.textContent).toBe('4');
    expect([cell('entity'), cell('relation'), cell('not_in_source'), cell('other'), cell('untyped')]).toEqual([
      '2',
      '1',
      '0',
      '0',
      '1',
    ]);
  });
});
