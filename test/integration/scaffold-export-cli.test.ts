/**
 * `loupe export --scaffold` / `--scaffold-alignments` (JSON Lines) import back with `--as scaffold`
 * / `--as scaffold-alignments` into a fresh project holding the same summaries, and that project
 * exports the same alignment lines and the same scaffold content (App. B.4's scaffold, a judge's and
 * a person's alignments). CSV is refused (the lines nest items).
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../electron/core/index';
import { runImport } from '../../electron/core/imports/run';
import { loupe, mustLoupe, writeJsonl } from '../helpers/project';
import { b4Project, b4Summaries } from '../helpers/scaffold-b4';
import { tempDir } from '../helpers/tmp';

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
/** A scaffold line without where it came from (the re-import names its own file as extractor). */
const content = (line: string) => {
  const { extractor: _e, extractor_version: _v, ...rest } = JSON.parse(line) as Record<string, unknown>;
  void _e;
  void _v;
  return rest;
};

describe('loupe export --scaffold / --scaffold-alignments (CLI)', () => {
  it('round-trips through --as scaffold and --as scaffold-alignments', async () => {
    const b4 = await b4Project('loupe-scaffold-export-');
    b4.core.close();
    const dir = b4.dir;
    const env = { LOUPE_STATE_DIR: dir };
    const scaffolds = join(dir, 'scaffolds.jsonl');
    const alignments = join(dir, 'alignments.jsonl');
    expect(mustLoupe(['export', '--project', b4.path, '--scaffold', '--out', scaffolds], env)).toMatch(/^Wrote 1 rows/);
    expect(mustLoupe(['export', '--project', b4.path, '--scaffold-alignments', '--out', alignments], env)).toMatch(
      /^Wrote 4 rows/,
    );
    expect(
      lines(alignments)
        .map((l) => (JSON.parse(l) as { source: string }).source)
        .sort(),
    ).toEqual(['human:rater', 'human:rater', 'judge:gpt-4.1', 'judge:gpt-4.1']);

    const refused = loupe(['export', '--project', b4.path, '--scaffold', '--out', join(dir, 'x.csv')], env);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('JSON Lines');

    // A fresh project with the same summaries takes both files back.
    const other = join(tempDir('loupe-scaffold-export-back-'), 'back.loupe');
    const core = createCore({
      Database,
      stateDir: dir,
      demoDir: dir,
      host: 'electron',
      fileDialogs: false,
      diskPaths: true,
      canSwitchProjects: false,
    });
    core.createProject(other);
    await runImport(core.repository(), {
      source: { type: 'path', path: writeJsonl(join(dir, 'summaries-back.jsonl'), b4Summaries()) },
    });
    core.close();
    mustLoupe(['import', '--project', other, '--as', 'scaffold', scaffolds], env);
    mustLoupe(['import', '--project', other, '--as', 'scaffold-alignments', alignments], env);
    const scaffolds2 = join(dir, 'scaffolds2.jsonl');
    const alignments2 = join(dir, 'alignments2.jsonl');
    mustLoupe(['export', '--project', other, '--scaffold', '--out', scaffolds2], env);
    mustLoupe(['export', '--project', other, '--scaffold-alignments', '--out', alignments2], env);
    expect(lines(scaffolds2).map(content)).toEqual(lines(scaffolds).map(content));
    expect(lines(alignments2).sort()).toEqual(lines(alignments).sort());
  });
});
