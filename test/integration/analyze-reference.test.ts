/**
 * `loupe analyze --human-label, --reference, --include-revealed` end to end (whose labels are the
 * reference, and the reveal rule), through the CLI bundle as a child process: FRANK's XSum summaries imported
 * with `loupe import` (three imported annotators), a person's labels recorded through the core
 * (four blind, two after a reveal), then each flag changes what the report says and counts; the
 * contract refuses an unknown value (exit 1, nothing on stdout); single-sentence summaries get
 * agreement and all-units error rates in the JSON.
 */
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisReport, DatasetAnalysis } from '../../shared/analysis';
import { createCore } from '../../electron/core/index';
import { loupe, mustLoupe, writeJsonl } from '../helpers/project';
import { REPO } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';

const dir = tempDir('loupe-analyze-reference-');
const env = { LOUPE_STATE_DIR: dir };
const project = join(dir, 'frank-xsum.loupe');

function analyze(args: string[]): DatasetAnalysis {
  const result = loupe(['analyze', '--project', project, '--json', '--bootstrap', '0', ...args], env);
  if (result.status !== 0) throw new Error(`loupe analyze failed (${result.status}):\n${result.stderr}`);
  const report = JSON.parse(result.stdout) as AnalysisReport;
  return report.datasets[0]!;
}

beforeAll(async () => {
  const records = readFileSync(join(REPO, 'test/fixtures/benchmarks/frank/finesure-format/frank-data-100.json'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { doc_id: string; model: string; source: string; sentences: string[] })
    .filter((r) => r.source === 'bbc' && r.sentences.length === 1);
  const file = join(dir, 'frank-xsum.json');
  writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  mustLoupe(['import', file, '--project', project], env);
  // A judge on every sentence, so the all-units table has a row (FRANK's summary id: hash:system).
  const ids = records.map((r) => `${r.doc_id}:${r.model}`);
  mustLoupe(
    [
      'import',
      writeJsonl(
        join(dir, 'predictions.jsonl'),
        ids.map((summary_id, g) => ({
          dataset: 'frank',
          summary_id,
          sentence_index: 0,
          judge: 'judge-x',
          hard: g % 2,
          soft: null,
        })),
      ),
      '--project',
      project,
    ],
    env,
  );

  // A person of the project labels six summaries: four blind, then a reveal, then two more.
  const core = createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'electron',
    fileDialogs: false,
    diskPaths: true,
    canSwitchProjects: false,
  });
  core.openProject(project);
  try {
    await core.handlers['sampling.draw']({ dataset: 'frank', n: 6, seed: 0 });
    const queue = await core.handlers['annotation.queue']({ annotator: 'alice' });
    const label = async (i: number) => {
      const summary = await core.handlers['annotation.load']({ key: queue.items[i]!.key, annotator: 'alice' });
      await core.handlers['annotation.record']({
        unitId: summary.units[0]!.id,
        annotator: 'alice',
        state: { label: 'faithful', errorType: null, note: null },
        timeSpentMs: 10,
        cause: 'label',
      });
    };
    for (let i = 0; i < 4; i++) await label(i);
    await core.handlers['annotation.reveal']({ annotator: 'alice', view: 'analysis', confirmFor: 'alice' });
    for (let i = 4; i < 6; i++) await label(i);
  } finally {
    core.close();
  }
}, 180_000);

describe('loupe analyze: whose labels, by which rule', () => {
  it('defaults: both sets, unanimous, the two revealed labels left out and counted; one-sentence summaries get agreement and error rates', () => {
    const d = analyze([]);
    expect(d.reference).toMatchObject({
      set: 'both',
      rule: 'unanimous',
      include_revealed: false,
      n_annotators: 4,
      n_labels: 192 + 4,
      n_labels_revealed: 2,
      n_labels_revealed_excluded: 2,
    });
    expect(d.n_summaries).toBe(0);
    expect(d.agreement.humans.n_units).toBe(64);
    expect(d.all_units.judges['judge-x']!.epsilon_hat.value).not.toBeNull();
    expect(d.all_units.n_single_sentence).toBe(64);
  });

  it('--reference people | imported', () => {
    expect(analyze(['--reference', 'people']).reference).toMatchObject({
      set: 'people',
      n_annotators: 1,
      n_labels: 4,
      n_labels_outside_reference: 192,
    });
    const imported = analyze(['--reference', 'imported']);
    expect(imported.reference).toMatchObject({
      set: 'imported',
      n_annotators: 3,
      n_labels: 192,
      n_labels_outside_reference: 6,
      n_labels_revealed: 0,
    });
    expect(imported.all_units.n_summaries).toBe(64);
  });

  it('--include-revealed counts the labels given after the reveal', () => {
    const d = analyze(['--reference', 'people', '--include-revealed']);
    expect(d.reference).toMatchObject({
      include_revealed: true,
      n_labels: 6,
      n_labels_revealed: 2,
      n_labels_revealed_excluded: 0,
    });
    expect(d.all_units.n_summaries).toBe(6);
  });

  it("--human-label majority resolves FRANK's split units (three votes never tie)", () => {
    const unanimous = analyze(['--reference', 'imported']);
    const majority = analyze(['--reference', 'imported', '--human-label', 'majority']);
    expect(unanimous.all_units.human.n_unresolved).toBeGreaterThan(0);
    expect(majority.reference).toMatchObject({
      rule: 'majority',
      n_units_majority: unanimous.all_units.human.n_unresolved,
      n_units_tied: 0,
    });
    expect(majority.all_units.human.n_unresolved).toBe(0);
    expect(majority.all_units.p_hat.n).toBe(64);
  });

  it('the report and the Markdown name the choice', () => {
    const result = loupe(
      [
        'analyze',
        '--project',
        project,
        '--json',
        '--bootstrap',
        '0',
        '--human-label',
        'majority',
        '--reference',
        'people',
        '--include-revealed',
      ],
      env,
    );
    expect(result.status, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as AnalysisReport).settings).toMatchObject({
      human_label: 'majority',
      reference: 'people',
      include_revealed: true,
    });
    const md = mustLoupe(['analyze', '--project', project, '--bootstrap', '0', '--reference', 'people'], env);
    expect(md).toContain("Human reference: people (people = the project's annotators, imported = imported label sets)");
    expect(md).toContain(
      "- Human reference: the project's people, rule adjudicated-else-unanimous; 1 annotator, 4 labels (alice (person): 4); 192 labels of 3 annotators outside the reference left out; 2 labels given after a reveal left out",
    );
    expect(md).toContain('### Judge error on every annotated sentence (any summary length)');
  });

  it("an unknown rule or set is the contract's refusal: exit 1, its message, nothing on stdout", () => {
    for (const args of [
      ['--human-label', 'mode'],
      ['--reference', 'everyone'],
    ]) {
      const result = loupe(['analyze', '--project', project, '--json', ...args], env);
      expect(result.status, result.stderr).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/Invalid input for analysis\.start/);
      expect(result.stderr).toMatch(args[0] === '--human-label' ? /humanLabel/ : /reference/);
    }
  });
});
