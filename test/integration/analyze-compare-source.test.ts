/**
 * `loupe analyze --compare-source` as a child process on the judge-comparison project
 * (test/helpers/judge-comparison.ts: a judge aligned ten summaries of two systems, a person one):
 * without it the scaffold block has no comparison and the report names the judge to pick; with the
 * judge it compares by the judge (ranks, paired differences with intervals); "people" asks for the
 * people's (too few documents: no ranking); a judge the project does not have is refused with the
 * judges it has.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisReport } from '../../shared/analysis';
import { buildComparisonProject, COMPARISON_JUDGE } from '../helpers/judge-comparison';
import { loupe, mustLoupe } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

const dir = tempDir('loupe-compare-source-');
const env = { LOUPE_STATE_DIR: dir };
const project = join(dir, 'compare.loupe');

beforeAll(() => buildComparisonProject(dir, project), 120_000);

const scaffoldOf = (args: string[]) =>
  (
    JSON.parse(
      mustLoupe(['analyze', '--project', project, '--json', '--bootstrap', '200', ...args], env),
    ) as AnalysisReport
  ).datasets[0]!.scaffold!;

describe('loupe analyze --compare-source', () => {
  it('by default: no comparison, and the report says which judge source exists', () => {
    const scaffold = scaffoldOf([]);
    expect(scaffold.comparison).toBeNull();
    expect(scaffold.comparison_note).toContain(`${COMPARISON_JUDGE} (5 paired documents)`);
    const markdown = mustLoupe(['analyze', '--project', project, '--bootstrap', '200'], env);
    expect(markdown).toContain(
      `compare by a judge instead (--compare-source, or the source picker): ${COMPARISON_JUDGE} (5 paired documents)`,
    );
  });

  it('by the judge: ranks and paired differences with intervals, in the JSON and the Markdown', () => {
    const report = JSON.parse(
      mustLoupe(
        ['analyze', '--project', project, '--json', '--bootstrap', '200', '--compare-source', COMPARISON_JUDGE],
        env,
      ),
    ) as AnalysisReport;
    expect(report.settings.compare_source).toBe(COMPARISON_JUDGE);
    const comparison = report.datasets[0]!.scaffold!.comparison!;
    expect(comparison).toMatchObject({ source: COMPARISON_JUDGE, systems: ['alpha', 'beta'], n_documents: 5 });
    const eps = comparison.metrics.eps!;
    expect(eps.ranks).toEqual({ alpha: 1, beta: 2 });
    expect(eps.differences[0]).toMatchObject({ a: 'alpha', b: 'beta', n: 5, too_few: false });
    expect(eps.differences[0]!.value).toBeCloseTo(0.6, 12);
    expect(eps.differences[0]!.ci).not.toBeNull();
    const markdown = mustLoupe(
      ['analyze', '--project', project, '--bootstrap', '200', '--compare-source', COMPARISON_JUDGE],
      env,
    );
    expect(markdown).toContain(`Systems compared by judge ${COMPARISON_JUDGE} (5 paired documents)`);
    expect(markdown).toMatch(
      /\| EPS \| 1\. alpha · 2\. beta \| alpha − beta: \+0\.600 \[0\.600, 0\.600\] \(n = 5\) \|/,
    );
  });

  it('"people": the people\'s comparison, with no ranking on no paired document', () => {
    const comparison = scaffoldOf(['--compare-source', 'people']).comparison!;
    expect(comparison.source).toBe('human');
    expect(comparison.metrics.eps!.ranks).toBeNull();
  });

  it('refuses a judge the project does not have, naming the judges it has', () => {
    const r = loupe(['analyze', '--project', project, '--json', '--compare-source', 'nobody'], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `No judge "nobody" to compare systems by: give "people" or one of the judges ${COMPARISON_JUDGE}`,
    );
    expect(r.stdout).toBe('');
  });
});
