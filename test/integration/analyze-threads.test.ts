/**
 * The correlation bootstrap on several threads gives the report it gives on one: `loupe analyze`
 * with --threads 1 and --threads 2 on a project large enough for the worker to start a helper
 * thread (the --timings line says how many ran) prints byte-identical JSON. A count outside the contract's bounds is refused.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loupe } from '../helpers/project';
import { tempDir } from '../helpers/tmp';
import { buildSyntheticProject } from '../bench/analyze.bench';

const dir = tempDir('loupe-analyze-threads-');
const env = { LOUPE_STATE_DIR: dir };
const project = join(dir, 'threads.loupe');

// 1,500 summaries × 2,000 replicates: above the size at which a bootstrap is split (MIN_SPLIT_WORK).
const analyze = (threads: string) =>
  loupe(
    [
      'analyze',
      '--project',
      project,
      '--json',
      '--bootstrap',
      '2000',
      '--seed',
      '3',
      '--threads',
      threads,
      '--timings',
    ],
    env,
  );

describe('loupe analyze --threads', () => {
  beforeAll(async () => {
    await buildSyntheticProject(project, { summaries: 1500, annotated: 60, judges: 3 });
  }, 180_000);

  it('prints the same report, byte for byte, on one thread and on two', () => {
    const one = analyze('1');
    const two = analyze('2');
    expect(one.status, one.stderr).toBe(0);
    expect(two.status, two.stderr).toBe(0);
    expect(one.stderr).toMatch(/, 1 thread\n/);
    expect(two.stderr).toMatch(/, 2 threads\n/);
    const report = JSON.parse(one.stdout) as { datasets: Array<{ judges: Record<string, unknown> }> };
    expect(Object.keys(report.datasets[0]!.judges)).toHaveLength(3);
    expect(two.stdout).toBe(one.stdout);
  });

  it('refuses a thread count outside 1–64, naming the option', () => {
    for (const bad of ['0', '65', '1.5']) {
      const r = analyze(bad);
      // Refused by the contract, as every other out-of-range option is (exit 1, the field named).
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/Invalid input for analysis\.start[\s\S]*at threads/);
    }
  });
});
