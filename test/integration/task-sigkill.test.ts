/**
 * SIGKILL-safe resume for any task kind, not only the judges: a child process running the
 * test-only JSON kind (test/mock-openai/words-child.ts) is killed mid-run; a new run sends only
 * the sentences that had not been stored, and none that had (counted at the mock, which runs in
 * this process).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJsonTaskRun } from '../../electron/core/tasks/json-kind';
import { ModelConfigSchema } from '../../electron/core/tasks/model-config';
import { REPO } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';
import { startMockOpenAI, type MockServer } from '../mock-openai/server';
import { judgeProject, until } from '../mock-openai/project';
import { sentenceOf, wordsAnswer, wordsKind } from '../mock-openai/words-kind';

const dir = tempDir('loupe-task-sigkill-');
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockOpenAI({ latencyMs: 40, respond: wordsAnswer });
});
afterAll(async () => {
  await mock.close();
});

describe('a JSON task kind killed mid-run', () => {
  it('resumes without sending any stored item again', async () => {
    const p = await judgeProject(dir, 'kill', 20); // 60 sentences
    const stored = () =>
      p.db
        .prepare(`SELECT item FROM task_results WHERE kind = 'test-words' AND error_kind IS NULL`)
        .pluck()
        .all() as string[];
    // Node loads tsx itself so that the signal reaches the process that runs the task.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(REPO, 'test', 'mock-openai', 'words-child.ts'), p.path, mock.url],
      { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('close', (_code, signal) => resolve(signal)),
    );
    await until(() => stored().length >= 12, 60_000, `twelve stored answers (child stderr: ${stderr})`);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const kept = new Set(stored());
    expect(kept.size).toBeGreaterThanOrEqual(12);
    expect(kept.size).toBeLessThan(60);

    mock.reset();
    const units = p.repo.judges.selectUnits(null, false);
    const run = createJsonTaskRun({
      kind: wordsKind,
      config: ModelConfigSchema.parse({ baseUrl: mock.url, model: 'mock-words', concurrency: 4 }),
      tasks: p.repo.tasks,
      apiKey: null,
      items: units,
      itemKey: (u) => `unit:${u.unitId}`,
      resolve: (u) => ({ sentence: u.sentence }),
    });
    run.start();
    await run.finished;
    expect(run.progress()).toMatchObject({
      state: 'done',
      total: 60,
      cached: kept.size,
      requests: 60 - kept.size,
      ok: 60 - kept.size,
    });
    const itemOf = new Map(units.map((u) => [u.sentence, `unit:${u.unitId}`]));
    expect(
      mock.requests.map((r) => itemOf.get(sentenceOf(r))).filter((item) => item !== undefined && kept.has(item)),
    ).toEqual([]);
    expect(stored()).toHaveLength(60);
    p.close();
  });
});
