/**
 * Benchmarks as their publishers ship them (test/fixtures/benchmarks/as-shipped/<name>: a few records
 * of the sample in the shape of the full release, README there): the records import, a judge
 * output that does not fit its record is skipped and listed, a person's annotation that does not
 * fit is skipped and listed, people's labels with an optional field absent are kept, and
 * structural problems still refuse the file.
 *
 * RealSumm, hand figures (people = majority of the annotators who gave a list; a tie is unresolved
 * and left out):
 *   cnndm8001:unilm_out_v2, 10 key facts: a0 [0,1,1,1,0,0,0,0,0,0] a1 = a2 [0,1,1,1,1,0,0,0,0,0]
 *     a3 [0,1,1,1,0,0,0,0,0,0] (key facts only) → f4 ties 2–2; covered f1–f3 of 9 resolved = 3/9.
 *     sentence_labels of a0–a2 only: [1,1] → conciseness 2/2.
 *   cnndm4725:unilm_out_v2, 8 key facts: a0 [1,1,1,1,1,0,0,0] a1 [1,1,1,1,1,0,0,1]
 *     a2 [1,0,1,0,0,0,0,0] a3 [1,1,1,1,1,0,0,1] → f7 ties 2–2; f0–f4 covered (f1, f3: 3 of 4) = 5/7.
 *   The alignment of cnndm8001 is a run on a perturbed copy (its second sentence differs): left
 *   out; that of cnndm4725 fits: 8 verdicts + 4 sentence line labels.
 */
import Database from 'better-sqlite3';
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { loadAnalysisDatasets } from '../../../electron/core/analysis/load';
import { AnalysisRepository } from '../../../db/analysisRepository';
import { analyzeDataset } from '../../../shared/analysis';
import { DatasetAnalysisSchema } from '../../../shared/analysis/schema';
import { REALSUMM_JUDGE } from '../../../shared/formats/realsumm';
import { frankParser, FRANK_JUDGE } from '../../../shared/formats/frank';
import { faithbenchParser } from '../../../shared/formats/faithbench';
import { xsumfaithParser } from '../../../shared/formats/xsumfaith';
import { cogensummParser } from '../../../shared/formats/cogensumm';
import { tofuevalParser } from '../../../shared/formats/tofueval';
import { describeSkippedLabels, describeSkippedPredictions } from '../../../shared/formats/import-summary';
import { ImportValidationError, type ImportProblem, type SourceFile } from '../../../shared/formats/types';
import { benchmark } from '../../helpers/benchmarks';
import { tempDir } from '../../helpers/tmp';

const shipped = (name: string, ...parts: string[]) => benchmark('as-shipped', name, ...parts);
const fileOf = (path: string, label: string): SourceFile => ({ path: label, text: readFileSync(path, 'utf8') });

function problemsOf(run: () => unknown): ImportProblem[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ImportValidationError) return error.problems;
    throw error;
  }
  throw new Error('expected the file to be refused');
}

async function importFolder(folder: string, dataset?: string) {
  const dir = tempDir('loupe-shipped-');
  const core = createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'electron',
    fileDialogs: false,
    diskPaths: true,
    canSwitchProjects: false,
  });
  const project = join(dir, 'p.loupe');
  core.createProject(project);
  try {
    const result = await runImport(core.repository(), {
      source: { type: 'path', path: folder },
      ...(dataset ? { dataset } : {}),
    });
    return { result, project, core };
  } catch (error) {
    core.close();
    throw error;
  }
}

describe('RealSumm as FineSurE ships it', () => {
  it('a fourth annotator with key-fact labels only is used for key facts, and a perturbed alignment is skipped and listed', async () => {
    const { result, project, core } = await importFolder(shipped('realsumm'));
    const annotators = core
      .repository()
      .listAnnotators()
      .map((a) => a.name);
    core.close();
    expect(result.kind).toBe('realsumm');
    expect(result.summariesAdded).toBe(2);
    // Key facts: 4 annotators × (10 + 8); sentences: 3 annotators × (2 + 4).
    expect(result.labelsAdded).toBe(4 * 18 + 3 * 6);
    expect(annotators).toEqual(expect.arrayContaining(['realsumm-0', 'realsumm-1', 'realsumm-2', 'realsumm-3']));
    // Only cnndm4725's alignment: 8 verdicts and 4 sentence line labels.
    expect(result.predictionsKept).toBe(8 + 4);
    expect(result.predictionsSkipped).toEqual([
      {
        file: 'keyfact-alignment.perturbed.json',
        line: 1,
        summaryId: 'cnndm8001:unilm_out_v2',
        field: 'sentences',
        expected: 2,
        found: 2,
        reason:
          "its summary differs from the one in realsumm-data.fourth-annotator.json line 1 (same doc_id and model); the people's record is kept, the alignment left out",
      },
    ]);
    expect(describeSkippedPredictions(result.predictionsSkipped[0]!)).toBe(
      "keyfact-alignment.perturbed.json, line 1 (cnndm8001:unilm_out_v2): sentences its summary differs from the one in realsumm-data.fourth-annotator.json line 1 (same doc_id and model); the people's record is kept, the alignment left out",
    );

    const db = new Database(project);
    try {
      const [dataset] = loadAnalysisDatasets(new AnalysisRepository(db), 'realsumm', {
        set: 'both',
        rule: 'majority',
        includeRevealed: false,
      });
      const accuracy = DatasetAnalysisSchema.parse(
        analyzeDataset(dataset!, { bootstrap: 50, seed: 0, humanLabel: 'majority', reference: 'both' }),
      ).accuracy!;
      const people = new Map(accuracy.sources.human!.per_summary.map((r) => [r.summary_id, r]));
      expect(people.get('cnndm8001:unilm_out_v2')!.completeness).toBeCloseTo(3 / 9, 12);
      expect(people.get('cnndm4725:unilm_out_v2')!.completeness).toBeCloseTo(5 / 7, 12);
      expect(people.get('cnndm8001:unilm_out_v2')!.conciseness).toBeCloseTo(2 / 2, 12);
      expect(people.get('cnndm4725:unilm_out_v2')!.conciseness).toBeCloseTo(2 / 4, 12);
      const judge = accuracy.sources[REALSUMM_JUDGE]!.per_summary.filter((r) => r.completeness !== null).map((r) => [
        r.summary_id,
        r.completeness,
      ]);
      // cnndm4725's alignment [1,0,1,0,1,0,0,0]: 3 of 8.
      expect(judge).toEqual([['cnndm4725:unilm_out_v2', 3 / 8]]);
    } finally {
      db.close();
    }
  });

  it('a structural problem still refuses the file', async () => {
    const dir = tempDir('loupe-shipped-bad-');
    for (const name of readdirSync(shipped('realsumm'))) copyFileSync(shipped('realsumm', name), join(dir, name));
    const bad = readFileSync(join(dir, 'realsumm-data.fourth-annotator.json'), 'utf8').replace(
      '"key_fact_labels": [0, 1, 1, 1, 0, 0, 0, 0, 0, 0]}',
      '"key_fact_labels": "yes"}',
    );
    writeFileSync(join(dir, 'realsumm-data.fourth-annotator.json'), bad);
    const error = await importFolder(dir).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportValidationError);
    expect((error as ImportValidationError).problems[0]).toMatchObject({
      file: 'realsumm-data.fourth-annotator.json',
      line: 1,
      field: 'raw_annotations.3.key_fact_labels',
    });
  });
});

describe('FRANK in FineSurE format', () => {
  const raw = benchmark('frank', 'finesure-format', 'fact-checking-raw-data.finesure.json');
  const lines = readFileSync(raw, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');

  it('factuality_types absent: the labels are kept without error types', () => {
    const edited = lines.map((line, i) => {
      if (i !== 0) return line;
      const record = JSON.parse(line) as { raw_annotations: Record<string, { factuality_types?: string[] }> };
      for (const a of Object.values(record.raw_annotations)) delete a.factuality_types;
      return JSON.stringify(record);
    });
    const first = JSON.parse(lines[0]!) as { doc_id: string; model: string; sentences: string[] };
    const batch = frankParser.parse([{ path: 'raw.json', text: edited.join('\n') }], {});
    const mine = batch.labels.filter((l) => l.summaryId === `${first.doc_id}:${first.model}`);
    expect(mine).toHaveLength(3 * first.sentences.length);
    expect(mine.every((l) => l.errorType === null)).toBe(true);
  });

  it('an error-category list or a split that does not fit the record is skipped and listed; the verdicts that fit are kept', () => {
    const edited = lines.map((line, i) => {
      const record = JSON.parse(line) as { pred_faithfulness_error_type: string[]; sentences: string[] };
      if (i === 1) record.pred_faithfulness_error_type = [...record.pred_faithfulness_error_type, 'entity error'];
      return JSON.stringify(record);
    });
    const second = JSON.parse(lines[1]!) as { doc_id: string; model: string; sentences: string[] };
    const batch = frankParser.parse([{ path: 'raw.json', text: edited.join('\n') }], {});
    const id = `${second.doc_id}:${second.model}`;
    expect(batch.predictionsSkipped).toEqual([
      {
        file: 'raw.json',
        line: 2,
        summaryId: id,
        field: 'pred_faithfulness_error_type',
        expected: second.sentences.length,
        found: second.sentences.length + 1,
        reason: `has ${second.sentences.length + 1} categories for ${second.sentences.length} sentences: the error types are left out, the verdicts kept`,
      },
    ]);
    const predictions = batch.predictions.filter((p) => p.summaryId === id);
    expect(predictions).toHaveLength(second.sentences.length);
    expect(predictions.every((p) => p.judge === FRANK_JUDGE)).toBe(true);
  });
});

describe('FRANK with its article files', () => {
  it('a FineSurE record whose split differs from the gold split: its judge predictions are listed, not silently dropped', () => {
    const raw = readFileSync(benchmark('frank', 'finesure-format', 'fact-checking-raw-data.finesure.json'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const first = JSON.parse(raw[0]!) as { doc_id: string; model: string; sentences: string[] };
    // FineSurE's copy of the first summary joins its first two sentences (its spaCy split).
    const merged = {
      ...first,
      sentences: [`${first.sentences[0]} ${first.sentences[1]}`, ...first.sentences.slice(2)],
    };
    const edited = JSON.parse(raw[0]!) as Record<string, unknown>;
    edited.sentences = merged.sentences;
    for (const a of Object.values(
      edited.raw_annotations as Record<string, { factuality_labels: number[]; factuality_types: string[] }>,
    )) {
      a.factuality_labels = a.factuality_labels.slice(1);
      a.factuality_types = a.factuality_types.slice(1);
    }
    edited.pred_faithfulness_labels = (edited.pred_faithfulness_labels as number[]).slice(1);
    edited.pred_faithfulness_error_type = (edited.pred_faithfulness_error_type as string[]).slice(1);
    const article = fileOf(
      benchmark('frank', 'articles-json', `${first.doc_id}.json`),
      `articles-json/${first.doc_id}.json`,
    );
    const batch = frankParser.parse([article, { path: 'raw.json', text: JSON.stringify(edited) }], {});
    const id = `${first.doc_id}:${first.model}`;
    expect(batch.predictionsSkipped).toEqual([
      {
        file: 'raw.json',
        line: 1,
        summaryId: id,
        field: 'sentences',
        expected: first.sentences.length,
        found: first.sentences.length - 1,
        reason: `are FineSurE's split, which differs from the gold split of articles-json/${first.doc_id}.json: the judge's per-sentence predictions do not fit the units and are left out`,
      },
    ]);
    expect(batch.summaries.map((x) => x.summaryId)).toEqual([id]);
    expect(batch.predictions).toEqual([]);
  });
});

describe('FaithBench as shipped', () => {
  const batch = faithbenchParser.parse([fileOf(shipped('faithbench', 'batch_1.json'), 'batch_1.json')], {});

  it("an annotation whose label is [] is skipped and listed; the same annotator's labeled span still labels", () => {
    expect(batch.labelsSkipped).toEqual([
      {
        file: 'batch_1.json',
        record: 1,
        summaryId: 'batch_1-0',
        field: 'annotations[1].label',
        reason: 'is [] (a highlight by forrest with no category, "The film"): it labels nothing and is left out',
      },
    ]);
    expect(describeSkippedLabels(batch.labelsSkipped![0]!)).toBe(
      'batch_1.json, record 1 (batch_1-0): annotations[1].label is [] (a highlight by forrest with no category, "The film"): it labels nothing and is left out',
    );
    const forrest = batch.labels.filter((l) => l.summaryId === 'batch_1-0' && l.annotator === 'faithbench:forrest');
    expect(forrest.map((l) => l.label)).toEqual(['unfaithful']);
    expect(batch.summaries.map((s) => [s.summaryId, s.label])).toEqual([
      ['batch_1-0', 0],
      ['batch_1-3', 0],
    ]);
    expect(
      batch.notes.some((n) =>
        n.startsWith(
          '1 span annotation(s) with no category (label []) left out: batch_1.json record 1 annotations[1].label',
        ),
      ),
    ).toBe(true);
  });

  it('a label that is not a list is still a structural problem', () => {
    const text = readFileSync(shipped('faithbench', 'batch_1.json'), 'utf8').replace(
      '"label": []',
      '"label": "Unwanted"',
    );
    expect(problemsOf(() => faithbenchParser.parse([{ path: 'batch_1.json', text }], {}))).toEqual([
      {
        file: 'batch_1.json',
        record: 1,
        field: 'annotations[1].label',
        expected: expect.stringContaining('a list of FaithBench labels'),
        found: '"Unwanted"',
      },
    ]);
  });
});

describe('XSumFaith as shipped', () => {
  const files = readdirSync(shipped('xsumfaith'))
    .filter((n) => n.endsWith('.csv'))
    .sort()
    .map((n) => fileOf(shipped('xsumfaith', n), n));
  const batch = xsumfaithParser.parse(files, {});

  it('escaping and spaces inside quotes are normalised before the two files are compared', () => {
    const australia = batch.summaries.find((s) => s.summaryId === '34148931:BERTS2S')!;
    expect(australia.summary).toBe(
      'australia\'s prime minister tony abbott has said his country has " no regrets " over the controversial immigration policy.',
    );
    expect(australia.meta.isFactual).toEqual({ wid_0: 'no', wid_1: 'no', wid_2: 'no' });
    expect(batch.labels.filter((l) => l.summaryId === '34148931:BERTS2S')).toHaveLength(3);
  });

  it('a row whose summary still differs is skipped and listed, from either file', () => {
    expect(batch.labelsSkipped!.map((x) => [x.file, x.line, x.summaryId, x.field])).toEqual([
      ['hallucination_annotations_xsum_summaries.csv', 10, '38345826:TranS2S', 'summary'],
      ['factuality_annotations_xsum_summaries.csv', 7, '38345826:TranS2S', 'summary'],
    ]);
    expect(batch.labelsSkipped![0]!.reason).toContain('should be returned from');
    // wid_2's hallucination row is left out: two workers label the summary, and wid_2's is_factual is not kept.
    expect(batch.labels.filter((l) => l.summaryId === '38345826:TranS2S').map((l) => l.annotator)).toEqual([
      'xsumfaith:wid_0',
      'xsumfaith:wid_1',
    ]);
    expect(batch.summaries.find((s) => s.summaryId === '38345826:TranS2S')!.meta.isFactual).toEqual({
      wid_0: 'no',
      wid_1: 'no',
    });
  });
});

describe('CoGenSumm as a folder', () => {
  it('a folder of system files is one dataset: one summary per story and file, the system named by the file', async () => {
    const { result, project, core } = await importFolder(shipped('cogensumm'));
    core.close();
    expect(result.kind).toBe('cogensumm');
    expect(result.datasets).toEqual(['cogensumm']);
    expect(result.filesUsed.sort()).toEqual(['test_see17_edited.json', 'test_see17_org.json']);
    expect(result.summariesAdded).toBe(4);
    const db = new Database(project, { readonly: true });
    try {
      const rows = db
        .prepare(
          `SELECT s.summary_id AS id, d.doc_id AS doc, json_extract(s.meta, '$.system') AS system, s.global_label AS label FROM summaries s JOIN documents d ON d.id = s.document_id ORDER BY s.summary_id`,
        )
        .all();
      expect(rows).toEqual([
        {
          id: '00d2b5f28352bfc337f5a04dcafe2281c7cc27ea:see17_edited',
          doc: '00d2b5f28352bfc337f5a04dcafe2281c7cc27ea',
          system: 'see17_edited',
          label: 0,
        },
        {
          id: '00d2b5f28352bfc337f5a04dcafe2281c7cc27ea:see17_org',
          doc: '00d2b5f28352bfc337f5a04dcafe2281c7cc27ea',
          system: 'see17_org',
          label: 1,
        },
        {
          id: '02492e98beb7cfc824779a02b919d8d94a00f606:see17_edited',
          doc: '02492e98beb7cfc824779a02b919d8d94a00f606',
          system: 'see17_edited',
          label: 1,
        },
        {
          id: '02492e98beb7cfc824779a02b919d8d94a00f606:see17_org',
          doc: '02492e98beb7cfc824779a02b919d8d94a00f606',
          system: 'see17_org',
          label: 1,
        },
      ]);
      // Two stories: two documents, shared by the systems.
      expect(db.prepare('SELECT count(*) AS n FROM documents').get()).toEqual({ n: 2 });
    } finally {
      db.close();
    }
  });

  it('one file alone keeps the story hash as the summary id; the same system twice is still refused', () => {
    const org = fileOf(shipped('cogensumm', 'test_see17_org.json'), 'test_see17_org.json');
    expect(cogensummParser.parse([org], {}).summaries.map((s) => s.summaryId)).toEqual([
      '00d2b5f28352bfc337f5a04dcafe2281c7cc27ea',
      '02492e98beb7cfc824779a02b919d8d94a00f606',
    ]);
    const again = { ...org, path: join('copy', 'test_see17_org.json') };
    expect(problemsOf(() => cogensummParser.parse([org, again], {}))[0]).toMatchObject({
      file: join('copy', 'test_see17_org.json'),
      expected: 'each story hash once per system (the system is named by the file: "see17_org")',
    });
  });
});

describe('TofuEval', () => {
  it("people's labels without the optional exp and type columns are kept", () => {
    const csv = [
      'doc_id,annotation_id,topic,model_name,sent_idx,summ_sent,sent_label',
      'NPR-1,a1,budget,model_A,1,The council passed the budget.,yes',
      'NPR-1,a1,budget,model_A,2,It raised taxes.,no',
    ].join('\n');
    const batch = tofuevalParser.parse([{ path: 'bare.csv', text: csv }], {});
    expect(batch.labels.map((l) => [l.sentenceIndex, l.label, l.errorType, l.note])).toEqual([
      [0, 'faithful', null, null],
      [1, 'unfaithful', null, null],
    ]);
  });
});
