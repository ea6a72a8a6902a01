/**
 * What an import did, in words (shared/formats/import-summary.ts, the CLI's line and the Import
 * panel): real imports of each family say what their file brought and nothing else. A scaffold
 * import names its dataset and its scaffold versions and alignments (never "into —: 0 summaries
 * added"); RealSumm its summaries, claims and key facts; a second import "nothing new".
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { importedParts } from '../../../shared/formats/import-summary';
import { benchmark } from '../../helpers/benchmarks';
import { newsRows, writeJsonl } from '../../helpers/project';
import { b4Project, b4Scaffold, B4_DATASET } from '../../helpers/scaffold-b4';
import { tempDir } from '../../helpers/tmp';

describe('import summaries', () => {
  it('a scaffold import names its dataset and what it stored, nothing about summaries or sentences', async () => {
    const { core, scaffold, alignments, run } = await b4Project();
    expect(scaffold.datasets).toEqual([B4_DATASET]);
    expect(scaffold.scaffold).toEqual({ scaffolds: 1, alignments: 0 });
    expect(importedParts(scaffold)).toEqual(['1 scaffold version and 0 alignments added']);
    expect(alignments.datasets).toEqual([B4_DATASET]);
    expect(importedParts(alignments)).toEqual(['0 scaffold versions and 80 alignments added']);
    const again = await run('scaffold-again.jsonl', [b4Scaffold()]);
    expect(importedParts(again)).toEqual(['0 scaffold versions and 0 alignments added']);
    core.close();
  });

  it('summaries: added, already there and sentences; again: nothing new is "0 added (5 already there)"', async () => {
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
    core.createProject(join(dir, 'p.loupe'));
    const file = writeJsonl(join(dir, 'news.jsonl'), newsRows(5));
    const first = await runImport(core.repository(), { source: { type: 'path', path: file } });
    expect(importedParts(first)).toEqual(['5 summaries added (0 already there), 15 sentences']);
    const again = await runImport(core.repository(), { source: { type: 'path', path: file } });
    expect(importedParts(again)).toEqual(['0 summaries added (5 already there), 0 sentences']);
    const labels = writeJsonl(join(dir, 'labels.jsonl'), [
      { summary_id: 'sum-000', sentence_index: 0, label: 'faithful', annotator: 'ann' },
    ]);
    expect(importedParts(await runImport(core.repository(), { source: { type: 'path', path: labels } }))).toEqual([
      '1 sentence label added (0 already there)',
    ]);
    core.close();
  });

  it('RealSumm: its summaries, then its key facts, labels and judge outputs apart from sentence labels', async () => {
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
    const result = await runImport(core.repository(), { source: { type: 'path', path: benchmark('realsumm') } });
    expect(result.accuracy).toEqual({ claimSets: 0, keyFactSets: 9, labels: 432, predictions: 144, systemOutputs: 10 });
    expect(importedParts(result)).toEqual([
      '10 summaries added (0 already there), 37 sentences',
      'claims and key facts: 9 key-fact lists, 432 claim or key-fact labels, 144 judge outputs, 10 system outputs added',
    ]);
    const again = await runImport(core.repository(), { source: { type: 'path', path: benchmark('realsumm') } });
    expect(importedParts(again)).toEqual([
      '0 summaries added (10 already there), 0 sentences',
      'claims and key facts: nothing new',
    ]);
    core.close();
  });
});
