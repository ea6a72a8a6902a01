/**
 * `loupe judge --batch-out / --batch-in` as a child process, through the contract: the request
 * file of what is still to judge, a stand-in batch engine against the mock, the answers stored
 * (a second --batch-out writes nothing), and a bad output line reported with exit code 3; an
 * answer outside the request file's selection is refused by line with no flags on --batch-in.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomIdSchema, customIdFor } from '../../electron/core/tasks/batch';
import { loupe, mustLoupe, writeJsonl } from '../helpers/project';
import { tempDir } from '../helpers/tmp';
import { runBatchFile } from '../mock-openai/batch-executor';
import { summaryRows } from '../mock-openai/project';
import { startMockOpenAI, type MockServer } from '../mock-openai/server';

const dir = tempDir('loupe-batch-cli-');
const project = join(dir, 'batch.loupe');
const env = { LOUPE_STATE_DIR: dir };
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockOpenAI();
  mustLoupe(['import', writeJsonl(join(dir, 'rows.jsonl'), summaryRows(4)), '--project', project], env);
  mustLoupe(['judges', 'add', 'j', '--project', project, '--base-url', mock.url, '--model', 'batch-model'], env);
});
afterAll(async () => {
  await mock.close();
});

describe('loupe judge with batch files', () => {
  it('writes the requests, stores the answers, and writes nothing the second time', async () => {
    const requests = join(dir, 'req.jsonl');
    const output = join(dir, 'out.jsonl');
    const out = mustLoupe(['judge', '--project', project, '--judge', 'j', '--batch-out', requests], env);
    expect(out).toContain('wrote 12 requests');
    expect(readFileSync(requests, 'utf8').trim().split('\n')).toHaveLength(12);
    expect(mock.count()).toBe(0);
    await runBatchFile(requests, output, mock.url, 4);
    appendFileSync(output, 'not json\n');
    const imported = loupe(['judge', '--project', project, '--judge', 'j', '--batch-in', output], env);
    expect(imported.stdout).toContain('12 answered');
    expect(imported.stderr).toContain(`${output} line 13: not JSON`);
    expect(imported.status).toBe(3);
    const again = mustLoupe(
      ['judge', '--project', project, '--judge', 'j', '--batch-out', join(dir, 'again.jsonl')],
      env,
    );
    expect(again).toContain('wrote 0 requests');
  });

  it('refuses an answer the request file did not ask for, with no --only-sampled on --batch-in', async () => {
    const sampledProject = join(dir, 'sampled.loupe');
    mustLoupe(['import', writeJsonl(join(dir, 'rows2.jsonl'), summaryRows(4)), '--project', sampledProject], env);
    mustLoupe(
      ['judges', 'add', 'j', '--project', sampledProject, '--base-url', mock.url, '--model', 'batch-model'],
      env,
    );
    mustLoupe(['sample', '--project', sampledProject, '--dataset', 'news', '--n', '1', '--seed', '0'], env);
    const requests = join(dir, 'sampled-req.jsonl');
    expect(
      mustLoupe(['judge', '--project', sampledProject, '--judge', 'j', '--batch-out', requests, '--only-sampled'], env),
    ).toContain('wrote 3 requests');
    const ids = (path: string) =>
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => CustomIdSchema.parse((JSON.parse(l) as { custom_id: string }).custom_id));
    const sampled = ids(requests);
    const fileId = sampled[0]!.fileId!;
    // Every sentence's key, from a request file of the whole project; one not sampled, under the sampled file's id.
    const allRequests = join(dir, 'all-req.jsonl');
    mustLoupe(['judge', '--project', sampledProject, '--judge', 'j', '--batch-out', allRequests], env);
    const everything = ids(allRequests);
    const outside = everything.find((id) => !sampled.some((s) => s.itemKey === id.itemKey))!;
    const forged = customIdFor('sentence-verdict', outside.configHash, outside.itemKey, fileId);
    const output = join(dir, 'sampled-out.jsonl');
    await runBatchFile(requests, output, mock.url, 2);
    const [firstAnswer] = readFileSync(output, 'utf8').trim().split('\n');
    appendFileSync(output, `${JSON.stringify({ ...(JSON.parse(firstAnswer!) as object), custom_id: forged })}\n`);
    const imported = loupe(['judge', '--project', sampledProject, '--judge', 'j', '--batch-in', output], env);
    expect(imported.stdout).toContain('3 answered');
    expect(imported.stdout).toContain('1 unknown ids');
    // Counted in the request file's selection (its 3 sentences, all answered), not the project's 12.
    expect(imported.stdout).toContain('0 sentences still to do');
    expect(imported.stderr).toContain(
      `Note: still to do: counted in the selection of request file ${fileId} (the sampled summaries)`,
    );
    expect(imported.stderr).toContain(
      `${output} line 4 (${forged}): not a request of file ${fileId} (judge "j", the sampled summaries): outside the selection it was written for`,
    );
    expect(imported.status).toBe(3);
  });

  it('refuses both directions at once (usage, exit 2)', () => {
    expect(
      loupe(['judge', '--project', project, '--judge', 'j', '--batch-in', 'x.jsonl', '--batch-out', 'y.jsonl'], env)
        .status,
    ).toBe(2);
  });
});
