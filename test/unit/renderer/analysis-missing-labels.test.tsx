// @vitest-environment happy-dom
/**
 * What the Analysis says when a dataset's sentence-level audit has no human labels, on a real
 * RealSumm import (sampled, 432 key-fact and sentence-key-fact labels of three imported sets, the
 * GPT-4 alignment as its judge): it names the claim/key-fact labels and judge it has, and never
 * says "draw a sample in Project first" of a sampled dataset. The wording's rules on their own
 * follow (unclear or unresolved labels, a sampled dataset, no sample).
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { AnalysisRepository } from '../../../db/analysisRepository';
import { loadAnalysisDatasets } from '../../../electron/core/analysis/load';
import { createCore } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { DatasetSection } from '../../../renderer/components/analysis/DatasetSection';
import { noHumanSentenceLabelsWords, noSentenceJudgesWords } from '../../../renderer/components/analysis/format';
import { analyzeDataset } from '../../../shared/analysis';
import { benchmark } from '../../helpers/benchmarks';
import { tempDir } from '../../helpers/tmp';

afterEach(cleanup);

async function realsumm() {
  const dir = tempDir('loupe-realsumm-analysis-');
  const project = join(dir, 'r.loupe');
  const core = createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'electron',
    fileDialogs: false,
    diskPaths: true,
    canSwitchProjects: false,
  });
  core.createProject(project);
  await runImport(core.repository(), { source: { type: 'path', path: benchmark('realsumm') } });
  const drawn = await core.handlers['sampling.draw']({ dataset: 'realsumm', n: 10, seed: 0 });
  core.close();
  const db = new Database(project);
  try {
    const [dataset] = loadAnalysisDatasets(new AnalysisRepository(db), 'realsumm', {
      set: 'both',
      rule: 'unanimous',
      includeRevealed: false,
    });
    return {
      analysis: analyzeDataset(dataset!, { bootstrap: 50, seed: 0, humanLabel: 'unanimous', reference: 'both' }),
      sampled: drawn.summaryIds.length,
    };
  } finally {
    db.close();
  }
}

describe('RealSumm in the Analysis view', () => {
  it('is sampled and has key-fact labels: the view says so instead of "draw a sample in Project first"', async () => {
    const { analysis, sampled } = await realsumm();
    expect(sampled).toBe(10);
    expect(analysis.human.n_usable).toBe(0);
    expect(analysis.accuracy!.sources.human!.n_summaries).toBe(10);
    render(<DatasetSection dataset={analysis} bootstrap={50} index={0} sampled={sampled} />);
    const humans = screen.getByTestId('empty-humans').textContent!;
    expect(humans).not.toContain('draw a sample');
    expect(humans).toContain('People labeled claims or key facts of 10 summaries here');
    expect(humans).toContain('T to Sentences');
    // Its judge (the GPT-4 alignment) labeled key facts, not sentences.
    expect(analysis.judge_names).toEqual([]);
    expect(screen.getByTestId('empty-judges').textContent).toContain(
      'its 1 judge of claims or key facts is in the accuracy tables above',
    );
  });
});

describe('the wording of a missing sentence-level audit', () => {
  const none = { n_unclear: 0, n_unresolved: 0 };
  it('asks to sample first only when the dataset has no sample', () => {
    expect(noHumanSentenceLabelsWords(none, { sampled: 0, peopleAccuracySummaries: 0, accuracyJudges: 0 })).toContain(
      '(draw a sample in Project first)',
    );
    const sampled = noHumanSentenceLabelsWords(none, { sampled: 25, peopleAccuracySummaries: 0, accuracyJudges: 0 });
    expect(sampled).toContain('Label the sentences of the 25 sampled summaries in Annotate');
    expect(sampled).not.toContain('draw a sample');
    expect(noHumanSentenceLabelsWords(none, { sampled: 1, peopleAccuracySummaries: 0, accuracyJudges: 0 })).toContain(
      'the 1 sampled summary in',
    );
    // Counts not known here: no advice that may be wrong.
    expect(
      noHumanSentenceLabelsWords(none, { sampled: null, peopleAccuracySummaries: 0, accuracyJudges: 0 }),
    ).not.toContain('draw a sample');
  });

  it('labels that are there but unusable are named as such', () => {
    const text = noHumanSentenceLabelsWords(
      { n_unclear: 2, n_unresolved: 1 },
      { sampled: 5, peopleAccuracySummaries: 0, accuracyJudges: 0 },
    );
    expect(text).toContain('3 labeled sentences here are unclear or unresolved');
    expect(
      noHumanSentenceLabelsWords(
        { n_unclear: 1, n_unresolved: 0 },
        { sampled: 5, peopleAccuracySummaries: 0, accuracyJudges: 0 },
      ),
    ).toContain('1 labeled sentence here is unclear');
  });

  it('judges of claims or key facts are named; without any, the way to add one', () => {
    expect(noSentenceJudgesWords({ sampled: 5, peopleAccuracySummaries: 0, accuracyJudges: 2 })).toContain(
      'its 2 judges of claims or key facts are in the accuracy tables above',
    );
    expect(noSentenceJudgesWords({ sampled: 5, peopleAccuracySummaries: 0, accuracyJudges: 0 })).toBe(
      'No judge predictions for this dataset. Add a judge in Judges (G) and run it — the offline baseline needs no model — then run the analysis again.',
    );
  });
});
