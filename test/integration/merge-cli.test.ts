/**
 * `loupe merge` as a child process on real project files: annotators label in copies of the
 * team's project, the lead merges them (per-file report, exit 0), a second merge adds nothing, a
 * diverged file is refused with exit 1 while the others still report, and the export shows
 * everyone's labels.
 */
import Database from 'better-sqlite3';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../electron/core/index';
import type { HumanLabel } from '../../shared/domain';
import type { MergeFileResult } from '../../shared/api';
import { loupe, mustLoupe, newsRows, writeJsonl } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

const dir = tempDir('loupe-merge-cli-');
const env = { LOUPE_STATE_DIR: dir };
const P = join(dir, 'team.loupe');
const ALICE = join(dir, 'alice.loupe');
const BOB = join(dir, 'bob.loupe');
const DIVERGED = join(dir, 'diverged.loupe');

/** An annotator's session in their copy (what the app would record). */
async function annotate(path: string, annotator: string, summaryId: string, labels: HumanLabel[]): Promise<void> {
  const core = createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'electron',
    fileDialogs: false,
    diskPaths: true,
    canSwitchProjects: false,
  });
  core.openProject(path);
  const units = core.repository().unitIdsBySummary(summaryId, 'news')[0]!.unitIds;
  for (const [i, label] of labels.entries()) {
    await core.handlers['annotation.record']({
      unitId: units[i]!,
      annotator,
      state: { label, errorType: null, note: null },
      timeSpentMs: 900,
      cause: 'label',
    });
  }
  core.close();
}

beforeAll(async () => {
  mustLoupe(['import', writeJsonl(join(dir, 'news.jsonl'), newsRows(4)), '--project', P], env);
  mustLoupe(['sample', '--project', P, '--dataset', 'news', '--n', '4', '--seed', '0'], env);
  copyFileSync(P, ALICE);
  copyFileSync(P, BOB);
  await annotate(ALICE, 'alice', 'sum-000', ['faithful', 'unfaithful', 'faithful']);
  await annotate(BOB, 'bob', 'sum-000', ['faithful', 'faithful', 'unclear']);
  await annotate(BOB, 'bob', 'sum-001', ['faithful']);
  const rows = newsRows(4);
  rows[2] = { ...rows[2]!, summary: 'A different summary. With other sentences.' };
  mustLoupe(['import', writeJsonl(join(dir, 'diverged.jsonl'), rows), '--project', DIVERGED], env);
  await annotate(DIVERGED, 'dora', 'sum-000', ['unfaithful']);
}, 120_000);

describe('loupe merge', () => {
  it('merges the copies with a per-file report, and a second merge adds nothing', () => {
    const first = loupe(['merge', '--project', P, ALICE, BOB], env);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain(`${ALICE} (project `);
    const [alice, bob] = first.stdout.split(`${BOB} (project`);
    expect(alice).toMatch(
      /events added: 3\n\s+already present: 0\n\s+annotators: alice \(new here: alice\)\n\s+summaries matched: 4\n\s+problems: none/,
    );
    expect(bob).toMatch(/events added: 4\n\s+already present: 0\n\s+annotators: bob \(new here: bob\)/);

    const again = loupe(['merge', '--project', P, ALICE, BOB, '--json'], env);
    expect(again.status).toBe(0);
    const results = JSON.parse(again.stdout) as MergeFileResult[];
    expect(
      results.map((r) => [r.path, r.merged, r.eventsAdded, r.eventsPresent, r.annotatorsAdded, r.problems]),
    ).toEqual([
      [ALICE, true, 0, 3, [], []],
      [BOB, true, 0, 4, [], []],
    ]);
  }, 60_000);

  it('refuses a diverged file with exit 1 and its problems, still reporting the others', () => {
    const r = loupe(['merge', '--project', P, DIVERGED, ALICE], env);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(
      /not merged \(nothing written\): 1 problem\(s\)\n\s+problem: news\/sum-002: 2 sentence\(s\) in the file, 3 here/,
    );
    expect(r.stdout).toMatch(/events added: 0\n\s+already present: 3/);
    expect(r.stderr).toContain('1 of 2 file(s) not merged because of problems.');
    const missing = loupe(['merge', '--project', join(dir, 'nope.loupe'), ALICE], env);
    expect(missing.status).toBe(2);
  }, 60_000);

  it('exports every annotator’s merged labels, each once', () => {
    const out = join(dir, 'labels.jsonl');
    mustLoupe(['export', '--project', P, '--out', out, '--history'], env);
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            summary_id: string;
            sentence_index: number;
            annotator: string | null;
            label: string | null;
            history?: unknown[];
          },
      );
    const labeled = rows
      .filter((r) => r.annotator !== null)
      .map((r) => `${r.summary_id}/${r.sentence_index} ${r.annotator} ${r.label} ${r.history?.length}`);
    expect(labeled.sort()).toEqual([
      'sum-000/0 alice faithful 1',
      'sum-000/0 bob faithful 1',
      'sum-000/1 alice unfaithful 1',
      'sum-000/1 bob faithful 1',
      'sum-000/2 alice faithful 1',
      'sum-000/2 bob unclear 1',
      'sum-001/0 bob faithful 1',
    ]);
  }, 60_000);
});
