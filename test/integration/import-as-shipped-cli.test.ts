/**
 * `loupe import FOLDER` on benchmarks as their publishers ship them (test/fixtures/benchmarks/as-shipped):
 * a CoGenSumm folder is one dataset of one summary per story and file, and what does not fit its
 * record is listed on stdout while the rest is imported.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchmark } from '../helpers/benchmarks';
import { loupe } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

const dir = tempDir('loupe-import-shipped-cli-');

describe('loupe import on benchmark folders as shipped', () => {
  it('imports the CoGenSumm folder and lists the RealSumm alignment and FaithBench annotation it leaves out', () => {
    const project = join(dir, 'shipped.loupe');
    const cogensumm = loupe(['import', benchmark('as-shipped', 'cogensumm'), '--project', project]);
    expect(cogensumm.status, cogensumm.stderr).toBe(0);
    expect(cogensumm.stdout).toContain('Imported cogensumm into');
    expect(cogensumm.stdout).toContain('4 summaries added');
    expect(cogensumm.stdout).toContain('Datasets: cogensumm');

    const realsumm = loupe(['import', benchmark('as-shipped', 'realsumm'), '--project', project]);
    expect(realsumm.status, realsumm.stderr).toBe(0);
    expect(realsumm.stdout).toContain(
      "Predictions skipped: keyfact-alignment.perturbed.json, line 1 (cnndm8001:unilm_out_v2): sentences its summary differs from the one in realsumm-data.fourth-annotator.json line 1 (same doc_id and model); the people's record is kept, the alignment left out; the record is imported without them",
    );

    const faithbench = loupe(['import', benchmark('as-shipped', 'faithbench'), '--project', project]);
    expect(faithbench.status, faithbench.stderr).toBe(0);
    expect(faithbench.stdout).toContain(
      'Annotation skipped: batch_1.json, record 1 (batch_1-0): annotations[1].label is [] (a highlight by forrest with no category, "The film"): it labels nothing and is left out; the record and its other labels are imported',
    );
  }, 60_000);
});
