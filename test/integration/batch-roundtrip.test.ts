/**
 * Batch files end to end, through the judges.* contract: export the requests of a judge, run them
 * through a stand-in batch executor against the mock server (as `vllm run-batch` would), import
 * the output, and find the same predictions as a live run of the same configuration; a second
 * export is empty. Then an output with failures, unknown ids, bad lines and missing items.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { EndpointConfigSchema } from '../../shared/judges/config';
import { CustomIdSchema, customIdFor } from '../../electron/core/tasks/batch';
import { runBatchFile } from '../mock-openai/batch-executor';
import { judgeProject, type JudgeProject } from '../mock-openai/project';
import { mockOpenAIForFile } from '../helpers/mock-openai';
import { tempDir } from '../helpers/tmp';

const dir = tempDir('loupe-batch-');
const mock = await mockOpenAIForFile();
beforeEach(() => {
  // Deterministic answers that vary by sentence: hard label and P("1") from the sentence's id.
  mock.setResponder((req) => {
    const m = /\((\d+)\.(\d+)\)/.exec(req.sentence ?? '');
    const k = Number(m?.[1] ?? 0);
    const i = Number(m?.[2] ?? 0);
    if (k === 3 && i === 2) return { type: 'answer', content: 'I cannot tell.' };
    return { type: 'answer', hard: ((k + i) % 2) as 0 | 1, soft: 0.1 + 0.05 * k + 0.2 * i };
  });
});

const config = () =>
  EndpointConfigSchema.parse({
    kind: 'endpoint',
    baseUrl: mock.url,
    model: 'batch-judge',
    soft: true,
    concurrency: 4,
    retries: 1,
    timeoutS: 5,
  });
let n = 0;
const fresh = (summaries: number) => judgeProject(dir, `b${n++}`, summaries, { diskPaths: true });

function predictions(p: JudgeProject, judge: string) {
  return p.db
    .prepare(
      `SELECT u.text AS sentence, p.hard, p.soft, p.raw, p.parse_error AS parseError, p.error_kind AS errorKind, p.cache_key AS cacheKey
       FROM judge_predictions p JOIN units u ON u.id = p.unit_id JOIN judges j ON j.current_version_id = p.judge_version_id
       WHERE j.name = ? ORDER BY u.text`,
    )
    .all(judge) as Array<{
    sentence: string;
    hard: number | null;
    soft: number | null;
    raw: string | null;
    parseError: string | null;
    errorKind: string | null;
    cacheKey: string;
  }>;
}

const readLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('batch files for a judge', () => {
  it('round trip: export, a batch engine, import = the predictions of a live run; a second export is empty', async () => {
    const live = await fresh(6);
    await live.service.handlers['judges.add']({ name: 'j', config: config() });
    const run = live.service.startRun('j', {});
    await run.finished;
    expect(run.status()).toMatchObject({ state: 'done', total: 18, ok: 17, parseErrors: 1 });
    const liveRows = predictions(live, 'j');
    mock.reset();

    const batch = await fresh(6);
    await batch.service.handlers['judges.add']({ name: 'j', config: config() });
    const plan = await batch.service.handlers['judges.plan']({ name: 'j', onlySampled: false });
    expect(plan).toMatchObject({ selection: 18, done: 0, requests: 18, cached: 0, remote: true });
    const requestsPath = join(dir, 'requests.jsonl');
    const exported = await batch.service.handlers['judges.batchExport']({
      name: 'j',
      onlySampled: false,
      path: requestsPath,
    });
    expect(exported).toMatchObject({ requests: 18, path: requestsPath, content: null });
    const lines = readLines(requestsPath);
    expect(lines).toHaveLength(18);
    // Each line: an OpenAI Batch request whose body is the live request body (the preview's).
    const preview = await batch.service.handlers['judges.preview']({ name: 'j' });
    const first = lines.find((l) => JSON.stringify(l.body) === JSON.stringify(preview.request!.body));
    expect(first).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });
    expect(CustomIdSchema.parse(first!.custom_id)).toMatchObject({
      kind: 'sentence-verdict',
      configHash: exported.configHash,
      itemKey: `unit:${preview.unit!.unitId}`,
    });
    expect(mock.count()).toBe(0);

    const outputPath = join(dir, 'output.jsonl');
    const executed = await runBatchFile(requestsPath, outputPath, mock.url, 3);
    expect(executed).toEqual({ lines: 18, ok: 18, failed: 0 });
    mock.reset();
    const imported = await batch.service.handlers['judges.batchImport']({
      name: 'j',
      source: { type: 'path', path: outputPath },
      onlySampled: false,
    });
    expect(imported).toMatchObject({
      lines: 18,
      answered: 17,
      parseErrors: 1,
      failed: 0,
      unknown: 0,
      duplicates: 0,
      invalid: 0,
      stillToDo: 0,
    });
    expect(predictions(batch, 'j')).toEqual(liveRows);

    const again = await batch.service.handlers['judges.batchExport']({ name: 'j', onlySampled: false });
    expect(again).toMatchObject({ requests: 0, done: 18, content: '' });
    const rerun = batch.service.startRun('j', {});
    await rerun.finished;
    expect(rerun.status()).toMatchObject({ requests: 0, cached: 18 });
    expect(mock.count()).toBe(0);
    live.close();
    batch.close();
  });

  it('an output with failures, unknown ids, bad lines and items never answered: stores what it can, a later run sends the rest', async () => {
    const p = await fresh(4);
    await p.service.handlers['judges.add']({ name: 'j', config: config() });
    const exported = await p.service.handlers['judges.batchExport']({ name: 'j', onlySampled: false });
    // Without a path (loupe serve): the file comes back as text, for the browser to download.
    expect(exported.path).toBeNull();
    const requests = exported
      .content!.split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { custom_id: string });
    expect(requests).toHaveLength(12);
    const requestsPath = join(dir, 'partial-requests.jsonl');
    const outputPath = join(dir, 'partial-output.jsonl');
    writeFileSync(requestsPath, exported.content!);
    await runBatchFile(requestsPath, outputPath, mock.url, 2);
    const answers = readFileSync(outputPath, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const byId = new Map(answers.map((l) => [(JSON.parse(l) as { custom_id: string }).custom_id, l]));
    const ids = requests.map((r) => r.custom_id);
    const otherVersion = customIdFor('sentence-verdict', 'f'.repeat(64), 'unit:1');
    const out = [
      byId.get(ids[0]!)!,
      byId.get(ids[1]!)!,
      byId.get(ids[1]!)!, // duplicate
      JSON.stringify({
        id: 'x',
        custom_id: ids[2],
        response: { status_code: 500, body: { error: { message: 'engine crashed' } } },
        error: null,
      }),
      JSON.stringify({
        id: 'x',
        custom_id: ids[3],
        response: null,
        error: {
          code: 'batch_expired',
          message: 'This request could not be executed before the completion window expired.',
        },
      }),
      JSON.stringify({
        id: 'x',
        custom_id: ids[4],
        response: { status_code: 200, body: { object: 'not a completion' } },
        error: null,
      }),
      JSON.stringify({ id: 'x', custom_id: 'request-7', response: { status_code: 200, body: {} }, error: null }),
      JSON.stringify({ id: 'x', custom_id: otherVersion, response: { status_code: 200, body: {} }, error: null }),
      '{"truncated": ',
      JSON.stringify({ hello: 'world' }),
      '',
    ].join('\n');
    const result = await p.service.handlers['judges.batchImport']({
      name: 'j',
      source: { type: 'upload', name: 'out.jsonl', text: out },
      onlySampled: false,
    });
    expect(result).toMatchObject({
      lines: 10,
      answered: 2,
      failed: 3,
      duplicates: 1,
      unknown: 2,
      invalid: 2,
      stillToDo: 10,
    });
    expect(result.problems.failed.map((f) => f.message)).toEqual([
      'HTTP 500: engine crashed',
      'batch_expired: This request could not be executed before the completion window expired.',
      'the response is not a chat completion (no choices[0].message)',
    ]);
    expect(result.problems.unknown.map((u) => [u.line, u.message])).toEqual([
      [7, 'not a Loupe request id'],
      [8, expect.stringMatching(/^a request of another configuration version/)],
    ]);
    expect(result.problems.invalid.map((u) => u.line)).toEqual([9, 10]);
    const stored = predictions(p, 'j');
    expect(stored.filter((r) => r.hard !== null)).toHaveLength(2);
    expect(
      stored
        .filter((r) => r.errorKind !== null)
        .map((r) => r.errorKind)
        .sort(),
    ).toEqual(['malformed_response', 'server_error', 'server_error']);
    // The next run sends the 3 failures and the 7 never answered, and nothing else.
    mock.reset();
    const run = p.service.startRun('j', {});
    await run.finished;
    expect(run.status()).toMatchObject({ state: 'done', requests: 10, cached: 2 });
    expect(mock.count()).toBe(10);
    p.close();
  });

  it('refuses paths where the host allows none, and the offline baseline', async () => {
    const p = await judgeProject(dir, `b${n++}`, 1, { diskPaths: false });
    await p.service.handlers['judges.add']({ name: 'j', config: config() });
    await expect(
      p.service.handlers['judges.batchExport']({ name: 'j', onlySampled: false, path: join(dir, 'x.jsonl') }),
    ).rejects.toMatchObject({ code: 'unsupported' });
    await expect(
      p.service.handlers['judges.batchImport']({
        name: 'j',
        source: { type: 'path', path: join(dir, 'x.jsonl') },
        onlySampled: false,
      }),
    ).rejects.toMatchObject({ code: 'unsupported' });
    p.service.ensureBaseline();
    const baseline = (await p.service.handlers['judges.list']({})).find((j) => j.kind === 'baseline')!;
    await expect(
      p.service.handlers['judges.batchExport']({ name: baseline.name, onlySampled: false }),
    ).rejects.toMatchObject({ code: 'conflict' });
    const plan = await p.service.handlers['judges.plan']({ name: baseline.name, onlySampled: false });
    expect(plan).toMatchObject({ remote: false, requests: 0, selection: 3, promptTokens: 0, baseUrls: [] });
    p.close();
  });
});
