/**
 * Batch files are the task engine's, not the verdict kind's: a test-only JSON kind (content words
 * of a sentence, stored in task_results) goes through export → stand-in batch engine → import and
 * ends with the outputs a live run stores; answers that fail the kind's schema are stored as
 * failures (this kind retries them), and the next export holds exactly those.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportBatchToFile, importBatchFromFile } from '../../electron/core/tasks/batch-files';
import { createJsonTaskRun, jsonResultSource } from '../../electron/core/tasks/json-kind';
import { ModelConfigSchema } from '../../electron/core/tasks/model-config';
import { runBatchFile } from '../mock-openai/batch-executor';
import { FAST_TUNING, judgeProject, type JudgeProject } from '../mock-openai/project';
import { startMockOpenAI, type MockServer } from '../mock-openai/server';
import { sentenceOf, wordsAnswer, wordsKind } from '../mock-openai/words-kind';
import { tempDir } from '../helpers/tmp';

const dir = tempDir('loupe-batch-json-');
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockOpenAI();
  // One sentence gets an answer that fails the schema (no words).
  mock.setResponder((req) =>
    sentenceOf(req).includes('(1.1)') ? { type: 'answer', content: '{"words": []}' } : wordsAnswer(req),
  );
});
afterAll(async () => {
  await mock.close();
});

const config = () =>
  ModelConfigSchema.parse({ baseUrl: mock.url, model: 'words', concurrency: 2, retries: 0, timeoutS: 5 });
interface Unit {
  unitId: number;
  sentence: string;
}
const units = (p: JudgeProject): Unit[] =>
  p.repo.judges.selectUnits(null, false).map((u) => ({ unitId: u.unitId, sentence: u.sentence }));
const storeOptions = (p: JudgeProject) => ({
  items: units(p),
  itemKey: (u: Unit) => `unit:${u.unitId}`,
  resolve: (u: Unit) => ({ sentence: u.sentence }),
});
const setup = (p: JudgeProject) => {
  const c = config();
  const configHash = wordsKind.configHash(c);
  return {
    kind: wordsKind,
    config: c,
    configHash,
    source: jsonResultSource(p.repo.tasks.forKind(wordsKind.ref), { configHash, ...storeOptions(p) }),
  };
};
const stored = (p: JudgeProject) =>
  p.db
    .prepare(
      `SELECT item, output, raw, error_kind AS errorKind FROM task_results WHERE kind = 'test-words' ORDER BY item`,
    )
    .all() as Array<{ item: string; output: string | null; raw: string | null; errorKind: string | null }>;

describe('batch files for a JSON task kind', () => {
  it('stores what a live run stores; schema failures are sent again by the next export', async () => {
    const live = await judgeProject(dir, 'live', 3);
    const run = createJsonTaskRun({
      kind: wordsKind,
      config: config(),
      tasks: live.repo.tasks,
      apiKey: null,
      tuning: FAST_TUNING,
      ...storeOptions(live),
    });
    run.start();
    await run.finished;
    expect(run.progress()).toMatchObject({ ok: 8, parseErrors: 1 });

    const p = await judgeProject(dir, 'batch', 3);
    const requests = join(dir, 'words-requests.jsonl');
    const output = join(dir, 'words-output.jsonl');
    expect(await exportBatchToFile(setup(p), requests)).toMatchObject({ requests: 9, selection: 9 });
    await runBatchFile(requests, output, mock.url, 2);
    const imported = await importBatchFromFile(setup(p), output);
    expect(imported).toMatchObject({ lines: 9, answered: 8, parseErrors: 1, stillToDo: 1 });
    expect(stored(p)).toEqual(stored(live));

    const again = join(dir, 'words-again.jsonl');
    expect(await exportBatchToFile(setup(p), again)).toMatchObject({ requests: 1, done: 8 });
    const line = JSON.parse(readFileSync(again, 'utf8').trim()) as {
      custom_id: string;
      body: { messages: Array<{ content: string }> };
    };
    expect(line.custom_id).toMatch(/^loupe:test-words:[0-9a-f]{64}:unit:\d+$/);
    expect(line.body.messages[0]!.content).toContain('(1.1)');
    live.close();
    p.close();
  });
});
