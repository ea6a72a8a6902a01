/**
 * A system under test whose answer is longer than a generated summary may be: recorded as a
 * failure (scoring 0.0 as every failure does), with a message that says why, and no summary or
 * sentence unit stored; a summary at the limit is stored as usual.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { LIMITS } from '../../../shared/limits';
import { callCore, finishAccuracyRun, readRows, taskTestCore } from '../../helpers/accuracy-core';
import { writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';
import { startMockOpenAI, type MockServer } from '../../mock-openai/server';

const dir = tempDir('loupe-summary-cap-');
const MAX = LIMITS.generatedSummaryChars.max;
let mock: MockServer;
let core: Core;
let path: string;

beforeAll(async () => {
  mock = await startMockOpenAI({});
  core = taskTestCore(dir);
  path = join(dir, 'cap.loupe');
  core.createProject(path);
  await runImport(core.repository(), {
    source: {
      type: 'path',
      path: writeJsonl(join(dir, 'rows.jsonl'), [
        {
          dataset: 'acc',
          doc_id: 'd1',
          document: 'The council met on Monday.',
          summary_id: 's1',
          summary: 'The council met.',
          label: 1,
        },
      ]),
    },
  });
});
afterAll(async () => {
  core.close();
  await mock.close();
});

const outputs = () =>
  readRows<{ system: string; summary: string | null; failure: string | null; message: string | null }>(
    path,
    `SELECT sy.name AS system, s.text AS summary, o.failure, o.failure_message AS message FROM system_outputs o
     JOIN systems sy ON sy.id = o.system_id LEFT JOIN summaries s ON s.id = o.summary_id ORDER BY sy.name`,
  );
const unitCount = () => readRows<{ n: number }>(path, 'SELECT count(*) AS n FROM units')[0]!.n;

describe('summary_generation caps the summary', () => {
  it('an answer over the limit is a failure scoring 0, with no summary or units; one at the limit is a summary', async () => {
    mock.setResponder((req) => ({
      type: 'answer',
      content: req.body?.model === 'sys-long' ? `${'Long. '.repeat(Math.ceil(MAX / 6))}x` : `${'a'.repeat(MAX - 1)}.`,
    }));
    await callCore(core, 'systems.add', { name: 'long', config: { baseUrl: mock.url, model: 'sys-long', retries: 0 } });
    await callCore(core, 'systems.add', { name: 'ok', config: { baseUrl: mock.url, model: 'sys-ok', retries: 0 } });
    const unitsBefore = unitCount();

    const long = await finishAccuracyRun(core, { task: 'summary_generation', system: 'long', dataset: 'acc' });
    expect(long).toMatchObject({ state: 'done', ok: 1, failed: 0 });
    expect(unitCount()).toBe(unitsBefore);
    const length = Math.ceil(MAX / 6) * 6 + 1;
    expect(outputs()).toEqual([
      {
        system: 'long',
        summary: null,
        failure: 'error',
        message: `an answer of ${length.toLocaleString('en-US')} characters, longer than the ${MAX.toLocaleString('en-US')} a generated summary may have (not stored as a summary)`,
      },
    ]);
    const systems = await callCore(core, 'systems.list', {});
    expect(systems.find((s) => s.name === 'long')).toMatchObject({
      ok: 0,
      failed: 1,
      failures: [{ kind: 'error', count: 1 }],
    });
    // Final like a refusal: a second run sends nothing.
    mock.reset();
    expect(await finishAccuracyRun(core, { task: 'summary_generation', system: 'long', dataset: 'acc' })).toMatchObject(
      { requests: 0 },
    );

    await finishAccuracyRun(core, { task: 'summary_generation', system: 'ok', dataset: 'acc' });
    expect(outputs().find((o) => o.system === 'ok')).toMatchObject({
      summary: `${'a'.repeat(MAX - 1)}.`,
      failure: null,
    });
  });
});
