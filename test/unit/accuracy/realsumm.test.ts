/**
 * REALSumm in FineSurE's format (test/fixtures/benchmarks/realsumm): `--as realsumm` detection by
 * content, the import, and completeness and conciseness per summary from people (majority of the
 * three annotators, FineSurE's aggregation) and from the GPT-4 alignment, against figures worked
 * out by hand from the files:
 *
 * cnndm8001:unilm_out_v2 (10 key facts, 2 sentences)
 *   key_fact_labels  a0 [0,1,1,1,0,0,0,0,0,0]  a1 [0,1,1,1,1,0,0,0,0,0]  a2 [0,1,1,1,1,0,0,0,0,0]
 *   majority         [0,1,1,1,1,0,0,0,0,0] → 4 covered / 10 = 0.4
 *   sentence_labels  [1,1] ×3 → 2 / 2 = 1.0
 *   judge            pred_alignment_labels [0,1,1,1,1,0,0,0,0,0] → 4/10 = 0.4; lines [1,2] → 2/2 = 1.0
 *   judge vs people: 0 of 10 key facts differ.
 * cnndm4725:unilm_out_v2 (8 key facts, 4 sentences)
 *   a0 [1,1,1,1,1,0,0,0]  a1 [1,1,1,1,1,0,0,1]  a2 [1,0,1,0,0,0,0,0]
 *   majority [1,1,1,1,1,0,0,0] (f1: 1+1+0, f3: 1+1+0, f4: 1+1+0, f7: 0+1+0) → 5/8 = 0.625
 *   sentence_labels [1,0,1,0] ×3 → 2/4 = 0.5
 *   judge [1,0,1,0,1,0,0,0] → 3/8 = 0.375; lines [1,2] → 2/4 = 0.5; differs from people on f1, f3: 2 of 8.
 * The other eight, worked out the same way (covered/facts, conveying/sentences):
 *   cnndm9781:unilm  people 6/11, 3/4; judge 4/11, 2/4; 4 differ
 *   cnndm10325:unilm people 4/9, 3/5;  judge 4/9, 4/5;  2 differ
 *   cnndm5244:unilm  people 9/13, 3/3; judge 9/13, 3/3; 0 differ
 *   cnndm5357:t5     people 10/11, 5/5; judge 10/11, 5/5; 0 differ
 *   cnndm1153:t5     people 6/14, 4/4; judge 8/14, 3/4; 2 differ
 *   cnndm5244:t5     people 10/13, 3/4; judge 10/13, 4/4; 0 differ
 *   cnndm8997:t5     people 1/7, 1/3;  judge 3/7, 2/3;  2 differ
 *   cnndm7670:t5     people 3/11, 2/3; judge 3/11, 2/3; 0 differ
 * Alignment error = 12 differing of 107 key facts.
 */
import Database from 'better-sqlite3';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { loadAnalysisDatasets } from '../../../electron/core/analysis/load';
import { AnalysisRepository } from '../../../db/analysisRepository';
import { analyzeDataset } from '../../../shared/analysis';
import { DatasetAnalysisSchema } from '../../../shared/analysis/schema';
import { detectKind } from '../../../shared/formats/registry';
import { detectionHead } from '../../../shared/formats/head';
import { ImportValidationError } from '../../../shared/formats/types';
import { REALSUMM_JUDGE } from '../../../shared/formats/realsumm';
import { benchmark } from '../../helpers/benchmarks';
import { tempDir } from '../../helpers/tmp';

const FILES = [
  'realsumm-data-sample-10.json',
  'keyfact-alignment-raw-data.sample-10.json',
  'human-keyfact-list.shared-subset.json',
];

/** [summary, people completeness, people sentence conciseness, judge completeness, judge sentence conciseness] */
const EXPECTED: Array<[string, number, number, number, number]> = [
  ['cnndm8001:unilm_out_v2', 4 / 10, 2 / 2, 4 / 10, 2 / 2],
  ['cnndm9781:unilm_out_v2', 6 / 11, 3 / 4, 4 / 11, 2 / 4],
  ['cnndm4725:unilm_out_v2', 5 / 8, 2 / 4, 3 / 8, 2 / 4],
  ['cnndm10325:unilm_out_v2', 4 / 9, 3 / 5, 4 / 9, 4 / 5],
  ['cnndm5244:unilm_out_v2', 9 / 13, 3 / 3, 9 / 13, 3 / 3],
  ['cnndm5357:t5_out_large', 10 / 11, 5 / 5, 10 / 11, 5 / 5],
  ['cnndm1153:t5_out_large', 6 / 14, 4 / 4, 8 / 14, 3 / 4],
  ['cnndm5244:t5_out_large', 10 / 13, 3 / 4, 10 / 13, 4 / 4],
  ['cnndm8997:t5_out_large', 1 / 7, 1 / 3, 3 / 7, 2 / 3],
  ['cnndm7670:t5_out_large', 3 / 11, 2 / 3, 3 / 11, 2 / 3],
];

async function importInto(path: string) {
  const dir = tempDir('loupe-realsumm-');
  const core = createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'electron',
    fileDialogs: false,
    diskPaths: true,
    canSwitchProjects: false,
  });
  const project = join(dir, 'r.loupe');
  core.createProject(project);
  try {
    return { result: await runImport(core.repository(), { source: { type: 'path', path } }), project, core };
  } catch (error) {
    core.close();
    throw error;
  }
}

function analyze(project: string) {
  const db = new Database(project);
  try {
    const [dataset] = loadAnalysisDatasets(new AnalysisRepository(db), 'realsumm', {
      set: 'both',
      rule: 'majority',
      includeRevealed: false,
    });
    return DatasetAnalysisSchema.parse(
      analyzeDataset(dataset!, { bootstrap: 100, seed: 0, humanLabel: 'majority', reference: 'both' }),
    ).accuracy!;
  } finally {
    db.close();
  }
}

/** A folder holding the three files under other names (recognised by content, not by name). */
function renamedCopy(edit?: (name: string, text: string) => string): string {
  const dir = tempDir('loupe-realsumm-files-');
  FILES.forEach((name, i) => {
    const text = readFileSync(benchmark('realsumm', name), 'utf8');
    if (edit) writeFileSync(join(dir, `part-${i}.jsonl`), edit(name, text));
    else copyFileSync(benchmark('realsumm', name), join(dir, `part-${i}.jsonl`));
  });
  return dir;
}

describe('REALSumm (FineSurE format)', () => {
  it("each file is recognised as realsumm by its content, not as FRANK's FineSurE files", () => {
    for (const name of FILES) {
      const text = readFileSync(benchmark('realsumm', name), 'utf8');
      expect(detectKind([{ path: 'x.json', head: detectionHead(text) }]), name).toEqual({ kind: 'realsumm' });
    }
    const frank = readFileSync(benchmark('frank', 'finesure-format', 'frank-data-sample-10.json'), 'utf8');
    expect(detectKind([{ path: 'x.json', head: detectionHead(frank) }])).toEqual({ kind: 'frank' });
  });

  it('imports summaries (system = model), key-fact lists, three imported annotators and the judge', async () => {
    const { result, core } = await importInto(renamedCopy());
    expect(result.kind).toBe('realsumm');
    expect(result.summariesAdded).toBe(10);
    expect(result.unitsAdded).toBe(37);
    // 3 annotators × 107 key facts + 3 × 37 sentence labels.
    expect(result.labelsAdded).toBe(3 * 107 + 3 * 37);
    // 107 key-fact alignments + 37 sentence line labels.
    expect(result.predictionsKept).toBe(107 + 37);
    expect(result.predictionsSkipped).toEqual([]);
    const annotators = core
      .repository()
      .listAnnotators()
      .map((a) => [a.name, a.kind]);
    expect(annotators).toEqual(
      expect.arrayContaining([
        ['realsumm-0', 'imported'],
        ['realsumm-1', 'imported'],
        ['realsumm-2', 'imported'],
      ]),
    );
    expect((await core.handlers['systems.list']({})).map((s) => [s.name, s.kind, s.ok, s.failed])).toEqual([
      ['t5_out_large', 'imported', 5, 0],
      ['unilm_out_v2', 'imported', 5, 0],
    ]);
    core.close();
  });

  it('completeness and conciseness per summary, people (majority) and judge, match the hand figures', async () => {
    const { project, core } = await importInto(benchmark('realsumm'));
    core.close();
    const accuracy = analyze(project);
    const human = new Map(accuracy.sources.human!.per_summary.map((r) => [r.summary_id, r]));
    const judge = new Map(accuracy.sources[REALSUMM_JUDGE]!.per_summary.map((r) => [r.summary_id, r]));
    for (const [id, hc, hs, jc, js] of EXPECTED) {
      expect(human.get(id)!.completeness, `${id} people completeness`).toBeCloseTo(hc, 12);
      // No claims in REALSumm: no faithfulness, and the one conciseness on sentence units (FineSurE's scripts).
      expect(human.get(id)!.conciseness, `${id} people conciseness`).toBeCloseTo(hs, 12);
      expect(human.get(id)!.conciseness_basis).toBe('sentences');
      expect(judge.get(id)!.completeness, `${id} judge completeness`).toBeCloseTo(jc, 12);
      expect(judge.get(id)!.conciseness, `${id} judge conciseness`).toBeCloseTo(js, 12);
      expect(human.get(id)!.faithfulness).toBeNull();
    }
    expect(accuracy.sources.human!.conciseness_basis).toBe('sentences');
    expect(accuracy.sources[REALSUMM_JUDGE]!.conciseness_basis).toBe('sentences');
    expect(accuracy.sources.human!.completeness!.value).toBeCloseTo(EXPECTED.reduce((a, e) => a + e[1], 0) / 10, 12);
    expect(accuracy.sources.human!.conciseness!.value).toBeCloseTo(EXPECTED.reduce((a, e) => a + e[2], 0) / 10, 12);
    expect(accuracy.keyfact_judges[REALSUMM_JUDGE]!.alignment_error.value).toBeCloseTo(12 / 107, 12);
    expect(accuracy.keyfact_judges[REALSUMM_JUDGE]!.alignment_error.n).toBe(107);
    expect(Object.keys(accuracy.sources.human!.by_system).sort()).toEqual(['t5_out_large', 'unilm_out_v2']);
    expect(accuracy.sources.human!.by_system['unilm_out_v2']!.n_summaries).toBe(5);
    // Each system's conciseness is filled (the mean of its five summaries), not only the dataset's.
    for (const system of ['t5_out_large', 'unilm_out_v2']) {
      const mine = EXPECTED.filter(([id]) => human.get(id)!.system === system);
      expect(accuracy.sources.human!.by_system[system]!.conciseness!.value, system).toBeCloseTo(
        mine.reduce((a, e) => a + e[2], 0) / mine.length,
        12,
      );
    }
  });

  it('a key-fact label list or alignment of the wrong length is left out and listed (file, line); the rest is imported', async () => {
    const dir = renamedCopy((name, text) => {
      if (name === 'human-keyfact-list.shared-subset.json') return text;
      const lines = text.split('\n');
      // Line 1 (both files carry the annotations, and must agree): annotator 0 has one key-fact label too few.
      const first = JSON.parse(lines[0]!) as { raw_annotations: Record<string, { key_fact_labels: number[] }> };
      first.raw_annotations['0']!.key_fact_labels.pop();
      lines[0] = JSON.stringify(first);
      if (name === 'keyfact-alignment-raw-data.sample-10.json') {
        // Line 3: an alignment with one verdict too many.
        const third = JSON.parse(lines[2]!) as { pred_alignment_labels: number[] };
        third.pred_alignment_labels.push(1);
        lines[2] = JSON.stringify(third);
      }
      return lines.join('\n');
    });
    const { result, core } = await importInto(dir);
    core.close();
    expect(result.summariesAdded).toBe(10);
    expect(result.predictionsSkipped).toEqual([
      {
        file: 'part-0.jsonl',
        line: 1,
        summaryId: 'cnndm8001:unilm_out_v2',
        field: 'raw_annotations.0.key_fact_labels',
        expected: 10,
        found: 9,
      },
      {
        file: 'part-1.jsonl',
        line: 3,
        summaryId: 'cnndm4725:unilm_out_v2',
        field: 'pred_alignment_labels',
        expected: 8,
        found: 9,
      },
    ]);
    // One annotator's 10 labels and one alignment's 8 verdicts (and its 4 line labels) fewer.
    expect(result.labelsAdded).toBe(3 * 107 + 3 * 37 - 10);
    expect(result.predictionsKept).toBe(107 + 37 - 8 - 4);
  });

  it('a malformed file is refused whole with file, line and field', async () => {
    const dir = renamedCopy((name, text) =>
      name === 'human-keyfact-list.shared-subset.json' ? text.replace('"key_facts": ', '"key_facts": 7, "x": ') : text,
    );
    const error = await importInto(dir).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportValidationError);
    const problems = (error as ImportValidationError).problems;
    expect(problems[0]).toMatchObject({ file: 'part-2.jsonl', line: 1, field: 'key_facts' });
  });
});
