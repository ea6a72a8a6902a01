/**
 * Predictions out and in: `export --predictions` writes the `predictions` import format plus the
 * judge version; importing it elsewhere reproduces the predictions; the usual validation and
 * all-or-nothing rule apply (unknown sentences, bad values, conflicts with what is stored).
 */
import { describe, expect, it } from 'vitest';
import { ImportValidationError } from '../../../shared/formats/types';
import { parserFor } from '../../../shared/formats/registry';
import { EndpointConfigSchema } from '../../../shared/judges/config';
import { buildExport } from '../../../electron/core/export/build';
import { runImport } from '../../../electron/core/imports/run';
import { startMockOpenAI } from '../../mock-openai/server';
import { judgeProject } from '../../mock-openai/project';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-predictions-');

async function projectWithPredictions(name: string) {
  const p = await judgeProject(dir, name, 3);
  const mock = await startMockOpenAI({
    respond: (req) => ({ type: 'answer', hard: /\(\d\.1\)/.test(req.sentence ?? '') ? 0 : 1, soft: 0.3 }),
  });
  await p.service.handlers['judges.add']({
    name: 'qwen',
    config: EndpointConfigSchema.parse({ kind: 'endpoint', baseUrl: mock.url, model: 'm', soft: true }),
  });
  await p.service.startRun('qwen', {}).finished;
  p.service.ensureBaseline();
  await p.service.startRun('baseline (offline rule)', {}).finished;
  await mock.close();
  return p;
}

const importText = (p: Awaited<ReturnType<typeof judgeProject>>, name: string, text: string) =>
  runImport(p.repo, { source: { type: 'upload', name, text }, as: 'predictions' });

describe('prediction export and import', () => {
  it('round-trips through JSONL and CSV into another project, keeping the judge versions', async () => {
    const source = await projectWithPredictions('source');
    const expected = source.repo.judges.predictionsForDataset('news').map(({ summaryKey: _k, ...r }) => r);
    expect(expected).toHaveLength(18);
    const hashes = new Map((await source.service.handlers['judges.list']({})).map((j) => [j.name, j.configHash]));
    for (const format of ['jsonl', 'csv'] as const) {
      const file = buildExport(source.repo, { format, history: false, predictions: true }, 'source');
      expect(file.fileName).toBe(`source-predictions.${format}`);
      expect(file.rows).toBe(18);
      if (format === 'jsonl') {
        expect(JSON.parse(file.content.split('\n')[0]!)).toEqual({
          dataset: 'news',
          summary_id: 'sum-000',
          sentence_index: 0,
          judge: 'baseline (offline rule)',
          hard: expect.any(Number),
          soft: expect.any(Number),
          config_hash: hashes.get('baseline (offline rule)'),
        });
      } else {
        expect(file.content.split('\n')[0]).toBe('dataset,summary_id,sentence_index,judge,hard,soft,config_hash');
      }
      const target = await judgeProject(dir, `target-${format}`, 3);
      const result = await importText(target, file.fileName, file.content);
      expect(result).toMatchObject({ kind: 'predictions', predictionsKept: 18, datasets: ['news'], summariesAdded: 0 });
      expect(target.repo.judges.predictionsForDataset('news').map(({ summaryKey: _k, ...r }) => r)).toEqual(expected);
      const judges = await target.service.handlers['judges.list']({});
      expect(judges.map((j) => [j.name, j.kind, j.configHash])).toEqual([
        ['baseline (offline rule)', 'imported', hashes.get('baseline (offline rule)')],
        ['qwen', 'imported', hashes.get('qwen')],
      ]);
      // The same file again changes nothing.
      expect((await importText(target, file.fileName, file.content)).predictionsKept).toBe(0);
      target.close();
    }
    // Into the project it came from: same judge versions, same values: nothing new, no conflict.
    const own = buildExport(source.repo, { format: 'jsonl', history: false, predictions: true }, 'source');
    expect((await importText(source, 'own.jsonl', own.content)).predictionsKept).toBe(0);
    source.close();
  });

  it('imports predictions run elsewhere (no config_hash) as an imported judge; soft optional', async () => {
    const p = await judgeProject(dir, 'elsewhere', 2);
    const csv =
      'summary_id,sentence_index,judge,hard,soft,dataset\nsum-000,0,gpt-x,1,0.9,news\nsum-000,1,gpt-x,0,,news\nsum-001,2,gpt-x,1,,\n';
    const result = await importText(p, 'gpt.csv', csv);
    expect(result.predictionsKept).toBe(3);
    expect(p.repo.judges.predictionsForDataset('news')).toEqual([
      { summaryKey: expect.any(Number), unitIndex: 0, judge: 'gpt-x', hard: 1, soft: 0.9, errorType: null },
      { summaryKey: expect.any(Number), unitIndex: 1, judge: 'gpt-x', hard: 0, soft: null, errorType: null },
      { summaryKey: expect.any(Number), unitIndex: 2, judge: 'gpt-x', hard: 1, soft: null, errorType: null },
    ]);
    expect((await p.service.handlers['judges.list']({}))[0]).toMatchObject({
      name: 'gpt-x',
      kind: 'imported',
      configHash: 'imported',
      config: null,
    });
    await expect(p.service.handlers['judges.start']({ name: 'gpt-x', onlySampled: false })).rejects.toThrow(
      /imported predictions/,
    );
    p.close();
  });

  it('names the line and field of every problem and imports nothing', async () => {
    const p = await judgeProject(dir, 'problems', 2);
    const rows = [
      { summary_id: 'sum-000', sentence_index: 0, judge: 'j', hard: 1 },
      { summary_id: 'sum-000', sentence_index: 9, judge: 'j', hard: 1 },
      { summary_id: 'nope', sentence_index: 0, judge: 'j', hard: 0 },
      { summary_id: 'sum-001', sentence_index: 0, judge: 'j', hard: 'yes' },
      { summary_id: 'sum-001', sentence_index: 1, judge: 'j', hard: 1, soft: 1.5 },
      { summary_id: 'sum-000', sentence_index: 0, judge: 'j', hard: 0 },
    ];
    let error: unknown;
    try {
      await importText(p, 'bad.jsonl', rows.map((r) => JSON.stringify(r)).join('\n'));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ImportValidationError);
    const problems = (error as ImportValidationError).problems.map((x) => [x.line, x.field]);
    expect(problems).toEqual(
      expect.arrayContaining([
        [4, 'hard'],
        [5, 'soft'],
        [6, 'sentence_index'],
      ]),
    );
    // The parser stops at its own problems; the service then checks sentences against the project.
    const second = rows.slice(0, 3);
    let error2: unknown;
    try {
      await importText(p, 'refs.jsonl', second.map((r) => JSON.stringify(r)).join('\n'));
    } catch (err) {
      error2 = err;
    }
    expect((error2 as ImportValidationError).problems.map((x) => [x.line, x.field])).toEqual([
      [2, 'sentence_index'],
      [3, 'summary_id'],
    ]);
    expect(p.repo.judges.listJudges()).toEqual([]);
    p.close();
  });

  it('refuses to change stored predictions or to add to a configured judge without its version', async () => {
    const p = await projectWithPredictions('conflicts');
    const baselineHash = (await p.service.handlers['judges.list']({})).find((j) => j.kind === 'baseline')!.configHash!;
    const before = p.repo.judges.predictionsForDataset('news');
    const stored = before.find((r) => r.judge === 'baseline (offline rule)' && r.unitIndex === 0)!;
    const flipped = {
      summary_id: 'sum-000',
      sentence_index: 0,
      judge: 'baseline (offline rule)',
      hard: stored.hard === 1 ? 0 : 1,
      soft: 0.5,
      config_hash: baselineHash,
    };
    await expect(importText(p, 'flip.jsonl', JSON.stringify(flipped))).rejects.toThrow(/already stored/);
    const unknownVersion = { summary_id: 'sum-000', sentence_index: 0, judge: 'qwen', hard: 1 };
    await expect(importText(p, 'qwen.jsonl', JSON.stringify(unknownVersion))).rejects.toThrow(
      /not configured in this project/,
    );
    expect(p.repo.judges.predictionsForDataset('news')).toEqual(before);
    p.close();
  });

  it('is detected only when asked for: a predictions file could also be a labels file', () => {
    const head = { path: 'p.jsonl', head: '{"summary_id": "a", "sentence_index": 0, "judge": "j", "hard": 1}\n' };
    expect(parserFor('predictions').sniff([head])).toBe(2);
    expect(
      parserFor('predictions').sniff([
        { path: 'l.jsonl', head: '{"summary_id": "a", "sentence_index": 0, "label": "faithful", "annotator": "x"}\n' },
      ]),
    ).toBe(0);
  });
});
