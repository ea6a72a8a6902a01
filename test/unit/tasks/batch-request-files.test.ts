/**
 * A request file remembers what it asked: its custom_ids name the file, recorded in the project
 * with its selection and requests, so an answer for an item the file did not ask for is refused
 * and listed by line whatever selection the import names; an answer naming a file the project did
 * not write is refused; ids of files written before (no file part) are checked as before, and the
 * report says so. Answers still fill the content cache under the same keys.
 */
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { CustomIdSchema, customIdFor, writeBatchRequests } from '../../../electron/core/tasks/batch';
import { jsonResultSource } from '../../../electron/core/tasks/json-kind';
import { ModelConfigSchema } from '../../../electron/core/tasks/model-config';
import { wordsKind } from '../../mock-openai/words-kind';
import { EndpointConfigSchema } from '../../../shared/judges/config';
import { judgeProject, type JudgeProject } from '../../mock-openai/project';
import { accuracyResponder } from '../../mock-openai/accuracy';
import { sampledTaskProject, type TaskProject } from '../../helpers/accuracy-core';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-batch-files-');
let n = 0;

const completion = (content: string) => ({
  id: 'c',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});
const answerLine = (customId: string, content = '{"faithful": 1}') =>
  JSON.stringify({
    id: 'b',
    custom_id: customId,
    response: { status_code: 200, body: completion(content) },
    error: null,
  });
const customIds = (content: string | null) =>
  (content ?? '')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { custom_id: string }).custom_id);
const endpoint = () => EndpointConfigSchema.parse({ kind: 'endpoint', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' });

/** 4 summaries (12 sentences), the first 2 sampled; a judge "j". */
async function sampledProject(): Promise<{ p: JudgeProject; sampledUnits: number[]; unsampledUnits: number[] }> {
  const p = await judgeProject(dir, `f${n++}`, 4, { diskPaths: true });
  const datasetId = p.repo.datasetId('news')!;
  p.repo.insertSampleBatch({
    datasetId,
    seed: 0,
    requested: 2,
    annotatorId: null,
    algorithm: 'test',
    keys: p.repo
      .unsampledSummaries(datasetId)
      .slice(0, 2)
      .map((s) => s.key),
  });
  await p.service.handlers['judges.add']({ name: 'j', config: endpoint() });
  const sampledUnits = p.repo.judges.selectUnits(null, true).map((u) => u.unitId);
  const all = p.repo.judges.selectUnits(null, false).map((u) => u.unitId);
  return { p, sampledUnits, unsampledUnits: all.filter((u) => !sampledUnits.includes(u)) };
}

const predictions = (p: JudgeProject) =>
  p.db
    .prepare('SELECT unit_id AS unitId, hard, cache_key AS cacheKey FROM judge_predictions ORDER BY id')
    .all() as Array<{ unitId: number; hard: number | null; cacheKey: string }>;

describe('judges: the request file names its selection', () => {
  it('an answer for an unsampled sentence under the file id of a sampled-only export is refused and listed, with no flags on the import', async () => {
    const { p, sampledUnits, unsampledUnits } = await sampledProject();
    expect(sampledUnits).toHaveLength(6);
    expect(unsampledUnits).toHaveLength(6);
    const exported = await p.service.handlers['judges.batchExport']({ name: 'j', onlySampled: true });
    expect(exported).toMatchObject({ selection: 6, requests: 6 });
    const ids = customIds(exported.content);
    const parsed = ids.map((id) => CustomIdSchema.parse(id));
    const fileId = parsed[0]!.fileId!;
    expect(fileId).toMatch(/^[0-9a-f]{16}$/);
    expect(
      parsed.every(
        (id) => id.fileId === fileId && id.kind === 'sentence-verdict' && id.configHash === exported.configHash,
      ),
    ).toBe(true);
    expect(parsed.map((id) => id.itemKey).sort()).toEqual(sampledUnits.map((u) => `unit:${u}`).sort());
    expect(p.repo.batchExports.get(fileId)).toMatchObject({
      id: fileId,
      kind: 'sentence-verdict',
      configHash: exported.configHash,
      target: 'judge "j"',
      dataset: null,
      onlySampled: true,
      requests: 6,
    });

    // A valid id shape for an unsampled sentence, with the export's file id.
    const forged = customIdFor('sentence-verdict', exported.configHash, `unit:${unsampledUnits[0]}`, fileId);
    const text = [answerLine(ids[0]!), answerLine(forged), answerLine(ids[1]!, '{"faithful": 0}')].join('\n');
    const result = await p.service.handlers['judges.batchImport']({
      name: 'j',
      source: { type: 'upload', name: 'out.jsonl', text },
      onlySampled: false,
    });
    // Still to do: counted in the file's selection (the sampled sentences), as the import names none.
    expect(result).toMatchObject({ lines: 3, answered: 2, unknown: 1, stillToDo: 4 });
    expect(result.notes).toContain(
      `still to do: counted in the selection of request file ${fileId} (the sampled summaries)`,
    );
    expect(result.problems.unknown).toEqual([
      {
        line: 2,
        customId: forged,
        message: `not a request of file ${fileId} (judge "j", the sampled summaries): outside the selection it was written for`,
      },
    ]);
    expect(result.notes).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^answers to request file ${fileId} \\(judge "j", the sampled summaries, 6 requests, written \\d{4}-`,
        ),
      ),
    );
    const stored = predictions(p);
    const unitOf = (itemKey: string) => Number(itemKey.slice('unit:'.length));
    expect(stored.map((r) => [r.unitId, r.hard])).toEqual([
      [unitOf(parsed[0]!.itemKey), 1],
      [unitOf(parsed[1]!.itemKey), 0],
    ]);
    expect(stored.some((r) => r.unitId === unsampledUnits[0])).toBe(false);
    p.close();
  });

  it('an answer naming a request file this project did not write is refused with the reason', async () => {
    const { p } = await sampledProject();
    const exported = await p.service.handlers['judges.batchExport']({ name: 'j', onlySampled: true });
    const [first] = customIds(exported.content).map((id) => CustomIdSchema.parse(id));
    const stranger = customIdFor('sentence-verdict', exported.configHash, first!.itemKey, '0123456789abcdef');
    const result = await p.service.handlers['judges.batchImport']({
      name: 'j',
      source: { type: 'upload', name: 'out.jsonl', text: answerLine(stranger) },
      onlySampled: true,
    });
    expect(result).toMatchObject({ lines: 1, answered: 0, unknown: 1 });
    expect(result.problems.unknown).toEqual([
      {
        line: 1,
        customId: stranger,
        message:
          "names request file 0123456789abcdef, which this project did not write (another project's file, or one whose writing did not complete)",
      },
    ]);
    expect(predictions(p)).toEqual([]);
    p.close();
  });

  it('a file written before request files were recorded (ids without a file part) still imports over the named selection, and the report says so', async () => {
    const { p, sampledUnits, unsampledUnits } = await sampledProject();
    const { configHash } = await p.service.handlers['judges.plan']({ name: 'j', onlySampled: false });
    const oldIds = [sampledUnits[0]!, unsampledUnits[0]!].map((u) =>
      customIdFor('sentence-verdict', configHash, `unit:${u}`),
    );
    expect(oldIds[0]).toBe(`loupe:sentence-verdict:${configHash}:unit:${sampledUnits[0]}`);
    const text = oldIds.map((id) => answerLine(id)).join('\n');
    const whole = await p.service.handlers['judges.batchImport']({
      name: 'j',
      source: { type: 'upload', name: 'old.jsonl', text },
      onlySampled: false,
    });
    expect(whole).toMatchObject({ lines: 2, answered: 2, unknown: 0 });
    expect(whole.notes).toContain(
      '2 answers without a request-file id (a file written before request files were recorded): checked against the whole project only',
    );
    expect(predictions(p).map((r) => r.unitId)).toEqual([sampledUnits[0], unsampledUnits[0]]);

    // Named as sampled-only, the old file's unsampled answer is refused as before.
    const again = customIdFor('sentence-verdict', configHash, `unit:${unsampledUnits[1]}`);
    const sampled = await p.service.handlers['judges.batchImport']({
      name: 'j',
      source: { type: 'upload', name: 'old.jsonl', text: answerLine(again) },
      onlySampled: true,
    });
    expect(sampled).toMatchObject({ answered: 0, unknown: 1 });
    expect(sampled.problems.unknown[0]!.message).toContain('no such item still to do in this selection');
    expect(sampled.notes).toContain(
      '1 answer without a request-file id (a file written before request files were recorded): checked against the sampled summaries only',
    );
    p.close();
  });

  it('an imported answer fills the content cache under the key a live run uses', async () => {
    const { p } = await sampledProject();
    const exported = await p.service.handlers['judges.batchExport']({ name: 'j', onlySampled: true });
    const [first] = customIds(exported.content);
    const unitId = Number(CustomIdSchema.parse(first!).itemKey.slice('unit:'.length));
    await p.service.handlers['judges.batchImport']({
      name: 'j',
      source: { type: 'upload', name: 'out.jsonl', text: answerLine(first!) },
      onlySampled: true,
    });
    const preview = await p.service.handlers['judges.preview']({ name: 'j', unitId });
    expect(predictions(p)).toEqual([{ unitId, hard: 1, cacheKey: preview.cacheKey }]);
    // A second judge of the same configuration finds that answer in the cache.
    await p.service.handlers['judges.add']({ name: 'twin', config: endpoint() });
    expect(await p.service.handlers['judges.plan']({ name: 'twin', onlySampled: true })).toMatchObject({
      selection: 6,
      cached: 1,
      requests: 5,
    });
    p.close();
  });

  it('a plan records no request file; each export records its own', async () => {
    const { p } = await sampledProject();
    await p.service.handlers['judges.plan']({ name: 'j', onlySampled: true });
    expect(p.db.prepare('SELECT count(*) AS n FROM batch_exports').get()).toEqual({ n: 0 });
    const a = await p.service.handlers['judges.batchExport']({ name: 'j', dataset: 'news', onlySampled: false });
    const b = await p.service.handlers['judges.batchExport']({ name: 'j', onlySampled: true });
    const fileA = CustomIdSchema.parse(customIds(a.content)[0]!).fileId!;
    const fileB = CustomIdSchema.parse(customIds(b.content)[0]!).fileId!;
    expect(fileA).not.toBe(fileB);
    expect(p.repo.batchExports.get(fileA)).toMatchObject({ dataset: 'news', onlySampled: false, requests: 12 });
    expect(p.repo.batchExports.get(fileB)).toMatchObject({ dataset: null, onlySampled: true, requests: 6 });
    expect(
      p.db.prepare('SELECT export_id AS id, count(*) AS n FROM batch_export_items GROUP BY export_id ORDER BY n').all(),
    ).toEqual([
      { id: fileB, n: 6 },
      { id: fileA, n: 12 },
    ]);
    p.close();
  });
});

describe('a request file whose writing fails', () => {
  it('is removed from the record with its items', async () => {
    const p = await judgeProject(dir, `w${n++}`, 2);
    const config = ModelConfigSchema.parse({ baseUrl: 'http://127.0.0.1:9/v1', model: 'words' });
    const configHash = wordsKind.configHash(config);
    const units = p.repo.judges.selectUnits(null, false).map((u) => ({ unitId: u.unitId, sentence: u.sentence }));
    const source = jsonResultSource(p.repo.tasks.forKind(wordsKind.ref), {
      configHash,
      items: units,
      itemKey: (u) => `unit:${u.unitId}`,
      resolve: (u) => ({ sentence: u.sentence }),
    });
    let written = 0;
    const failing = new Writable({
      highWaterMark: 1,
      write(_chunk, _encoding, done) {
        written += 1;
        done(written === 3 ? new Error('disk full') : null);
      },
    });
    failing.on('error', () => undefined);
    const requestFiles = { store: p.repo.batchExports, target: 'words', dataset: null, onlySampled: false };
    await expect(
      writeBatchRequests({ kind: wordsKind, config, configHash, source, requestFiles }, failing),
    ).rejects.toThrow('disk full');
    expect(written).toBe(3);
    expect(
      p.db
        .prepare(
          'SELECT (SELECT count(*) FROM batch_exports) AS files, (SELECT count(*) FROM batch_export_items) AS items',
        )
        .get(),
    ).toEqual({ files: 0, items: 0 });
    p.close();
  });
});

describe('accuracy: the request file names its selection', () => {
  let project: TaskProject | null = null;
  afterAll(async () => {
    await project?.close();
  });

  it('a claim decomposition answer for an unsampled sentence under a sampled-only file id is refused, with the import run over the whole project', async () => {
    project = await sampledTaskProject(dir, accuracyResponder, 4, 1);
    const exported = await project.call('accuracy.batchExport', {
      run: { task: 'claim_decomposition', judge: 'checker', dataset: 'acc', onlySampled: true },
    });
    expect(exported).toMatchObject({ selection: 2, requests: 2 });
    const ids = customIds(exported.content);
    const { fileId } = CustomIdSchema.parse(ids[0]!);
    const sampledKeys = ids.map((id) => CustomIdSchema.parse(id).itemKey);
    const unsampled = project
      .rows<{ id: number }>('SELECT id FROM units ORDER BY id')
      .map((u) => `unit:${u.id}`)
      .find((key) => !sampledKeys.includes(key))!;
    const forged = customIdFor('claim_decomposition', exported.configHash, unsampled, fileId);
    const text = [
      answerLine(forged, '{"claims": ["The park opens in June."]}'),
      answerLine(ids[0]!, '{"claims": ["The park opens in June."]}'),
    ].join('\n');
    const report = await project.call('accuracy.batchImport', {
      run: { task: 'claim_decomposition', judge: 'checker' },
      source: { type: 'upload', name: 'out.jsonl', text },
    });
    expect(report).toMatchObject({ lines: 2, answered: 1, unknown: 1, stillToDo: 1 });
    expect(report.problems.unknown).toEqual([
      {
        line: 1,
        customId: forged,
        message: `not a request of file ${fileId} (claim_decomposition with "checker", the sampled summaries of dataset "acc"): outside the selection it was written for`,
      },
    ]);
    const plan = await project.call('accuracy.plan', { task: 'claim_decomposition', judge: 'checker', dataset: 'acc' });
    expect(plan).toMatchObject({ selection: 8, done: 1 });
  });
});
