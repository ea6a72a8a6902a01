/**
 * `loupe judge --batch-out / --batch-in` as a child process, through the contract: the request
 * file of what is still to judge, a stand-in batch engine against the mock, the answers stored
 * (a second --batch-out writes nothing), and a bad output line reported with exit code 3.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const again = mustLoupe(['judge', '--project', project, '--judge', 'j', '--batch-out', join(dir, 'again.jsonl')], env);
    expect(again).toContain('wrote 0 requests');
  });

  it('refuses both directions at once (usage, exit 2)', () => {
    expect(loupe(['judge', '--project', project, '--judge', 'j', '--batch-in', 'x.jsonl', '--batch-out', 'y.jsonl'], env).status).toBe(2);
  });
});
