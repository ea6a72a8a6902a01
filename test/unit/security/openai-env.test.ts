/**
 * No OPENAI_* variable of the process that runs Loupe reaches an endpoint: the openai client is
 * built with every setting it would read from the environment given explicitly. The variables
 * are every one the openai package's client reads (node_modules/openai/client.js); the mock
 * endpoint records the headers it received.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createJsonTaskRun } from '../../../electron/core/tasks/json-kind';
import { ModelConfigSchema } from '../../../electron/core/tasks/model-config';
import { wordsAnswer, wordsKind } from '../../mock-openai/words-kind';
import { FAST_TUNING, judgeProject, until } from '../../mock-openai/project';
import { mockOpenAIForFile } from '../../helpers/mock-openai';
import { tempDir } from '../../helpers/tmp';

const mock = await mockOpenAIForFile();
const dir = tempDir('loupe-openai-env-');

const ENV: Record<string, string> = {
  OPENAI_API_KEY: 'sk-env-api-key-0123456789',
  OPENAI_ADMIN_KEY: 'sk-admin-env-key-0123456789',
  OPENAI_ORG_ID: 'org-from-environment',
  OPENAI_PROJECT_ID: 'proj_from_environment',
  // A base URL nothing listens on: a request sent there would fail the run.
  OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
  OPENAI_WEBHOOK_SECRET: 'whsec_from_environment',
  OPENAI_LOG: 'debug',
  OPENAI_CUSTOM_HEADERS: 'X-From-Env: custom-header-value\nAuthorization: Bearer custom-env-bearer',
};
const saved: Record<string, string | undefined> = {};

beforeAll(() => {
  for (const [name, value] of Object.entries(ENV)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

async function runOnce(
  model: string,
  apiKey: string | null,
): Promise<Array<Record<string, string | string[] | undefined>>> {
  const p = await judgeProject(dir, model, 1);
  mock.setResponder(wordsAnswer);
  const units = p.repo.judges.selectUnits(null, false).map((u) => ({ unitId: u.unitId, sentence: u.sentence }));
  const run = createJsonTaskRun({
    kind: wordsKind,
    config: ModelConfigSchema.parse({ baseUrl: mock.url, model, retries: 0, timeoutS: 5 }),
    tasks: p.repo.tasks,
    apiKey,
    tuning: FAST_TUNING,
    items: units,
    itemKey: (u) => `unit:${u.unitId}`,
    resolve: (u) => ({ sentence: u.sentence }),
  });
  run.start();
  await Promise.race([
    run.finished,
    until(() => run.progress().state === 'paused', 20_000, 'a pause').then(() => undefined),
  ]);
  expect(run.progress()).toMatchObject({ state: 'done', ok: units.length, failed: 0 });
  p.close();
  return mock.requests.filter((r) => r.body?.model === model).map((r) => r.headers);
}

describe('every OPENAI_* variable set where Loupe runs', () => {
  it('a key-less endpoint receives none of them: no organization, project, custom header or environment key', async () => {
    const debug = vi.spyOn(console, 'debug');
    const log = vi.spyOn(console, 'log');
    try {
      const received = await runOnce('mock-env-keyless', null);
      expect(received.length).toBeGreaterThan(0);
      for (const headers of received) {
        expect(headers['openai-organization']).toBeUndefined();
        expect(headers['openai-project']).toBeUndefined();
        expect(headers['x-from-env']).toBeUndefined();
        expect(headers.authorization).toBe('Bearer not-needed');
        const all = JSON.stringify(headers);
        for (const value of Object.values(ENV))
          for (const part of value.split(/[\n:]\s*/)) if (part.length > 8) expect(all).not.toContain(part);
      }
      // OPENAI_LOG=debug would print every request (its headers included) on the console.
      expect([...debug.mock.calls, ...log.mock.calls].flat().join(' ')).not.toMatch(/OpenAI|sending request/i);
    } finally {
      debug.mockRestore();
      log.mockRestore();
    }
  });

  it('a judge with its own key sends that key only', async () => {
    const received = await runOnce('mock-env-keyed', 'sk-the-judges-own-key-42');
    for (const headers of received) {
      expect(headers.authorization).toBe('Bearer sk-the-judges-own-key-42');
      expect(headers['openai-organization']).toBeUndefined();
      expect(headers['openai-project']).toBeUndefined();
      expect(headers['x-from-env']).toBeUndefined();
    }
  });
});
