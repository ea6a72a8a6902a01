/**
 * annotators.activity counts every kind of label a person or an imported set holds, with its
 * kind, so the Project view can show REALSumm's sets by their key-fact labels (not "0 labels,
 * — – —") and list imported sets apart from the project's people.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { benchmark } from '../../helpers/benchmarks';
import { b4Project } from '../../helpers/scaffold-b4';
import { tempDir } from '../../helpers/tmp';

describe('annotator activity by kind of label', () => {
  it('REALSumm’s imported sets hold key-fact labels (107 facts + 37 conveying sentences each), no sentence labels', async () => {
    const dir = tempDir();
    const core = createCore({
      Database,
      stateDir: dir,
      demoDir: dir,
      host: 'electron',
      fileDialogs: false,
      diskPaths: true,
      canSwitchProjects: false,
    });
    core.createProject(join(dir, 'r.loupe'));
    await runImport(core.repository(), { source: { type: 'path', path: benchmark('realsumm') } });
    await core.handlers['annotators.ensure']({ name: 'alice' });
    const activity = await core.handlers['annotators.activity']({ fastMs: 1000 });
    core.close();
    const sets = activity.filter((a) => a.name.startsWith('realsumm-'));
    expect(
      sets.map((a) => [a.name, a.kind, a.annotationLabels, a.claimLabels, a.keyFactLabels, a.scaffoldAlignments]),
    ).toEqual([
      ['realsumm-0', 'imported', 0, 0, 144, 0],
      ['realsumm-1', 'imported', 0, 0, 144, 0],
      ['realsumm-2', 'imported', 0, 0, 144, 0],
    ]);
    // When they were imported, from their key-fact events.
    expect(sets.every((a) => a.firstAt !== null && a.lastAt !== null)).toBe(true);
    expect(activity.find((a) => a.name === 'alice')).toMatchObject({
      kind: 'person',
      keyFactLabels: 0,
      firstAt: null,
      lastAt: null,
    });
  });

  it('scaffold alignments of a person count as theirs; a judge’s do not count for anyone', async () => {
    const { core } = await b4Project();
    const activity = await core.handlers['annotators.activity']({ fastMs: 1000 });
    core.close();
    // The B.4 helper imports 40 alignments as human:rater (20 items × 2 summaries) and 40 as the judge.
    expect(activity.map((a) => [a.name, a.kind, a.scaffoldAlignments])).toEqual([['rater', 'imported', 40]]);
  });
});
