/**
 * `loupe accuracy run … --batch-out REQ.jsonl` / `--batch-in OUT.jsonl`: the requests
 * of a task written without a call, run by the stand-in batch engine against the mock server,
 * read back; the systems list then counts the summaries, a live run sends nothing, and a file
 * with an unreadable line exits 3 saying which line. Both flags together is a usage error.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loupe, mustLoupe } from '../helpers/project';
import { makeAccuracyCliProject } from '../helpers/accuracy-cli';
import { tempDir } from '../helpers/tmp';
import { accuracyResponder } from '../mock-openai/accuracy';
import { runBatchFile } from '../mock-openai/batch-executor';
import { startMockOpenAI, type MockServer } from '../mock-openai/server';

const dir = tempDir('loupe-accuracy-batch-cli-');
const project = join(dir, 'acc.loupe');
const env = { LOUPE_STATE_DIR: dir };
let mock: MockServer;

const DOC1 = 'The city will spend 2 million euros to renovate the central library. Work starts on 1 March 2025.';
const DOC2 = 'The council approved a new park on Monday. The park will open in June.';
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
const accuracyRun = (args: string[]) => loupe(['accuracy', 'run', '--project', project, ...args], env);

beforeAll(async () => {
  mock = await startMockOpenAI({ respond: accuracyResponder });
  makeAccuracyCliProject({
    dir,
    project,
    env,
    rows: [
      { doc_id: 'd1', document: DOC1, summary_id: 's1', summary: 'The city will renovate the central library.' },
      {
        doc_id: 'd2',
        document: DOC2,
        summary_id: 's2',
        summary: 'The council approved a new park, and it will open in 2026.',
      },
    ],
    judgeUrl: mock.url,
  });
  mustLoupe(['systems', 'add', 'sys', '--project', project, '--base-url', mock.url, '--model', 'sys-model'], env);
});
afterAll(async () => {
  await mock.close();
});

describe('loupe accuracy run --batch-out / --batch-in', () => {
  it('summary generation through a batch file: written without a call, read back, counted by the systems list, not sent again', async () => {
    const task = ['--task', 'summary_generation', '--system', 'sys', '--dataset', 'acc'];
    const requests = join(dir, 'gen-requests.jsonl');
    mock.reset();
    const out = accuracyRun([...task, '--batch-out', requests]);
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toMatch(
      /^sys · summary_generation: wrote 2 requests to .*gen-requests\.jsonl \(2 items: 0 answered before, 0 from the cache, 0 left out\)$/m,
    );
    expect(mock.count()).toBe(0);
    const bodies = lines(requests).map(
      (l) => (JSON.parse(l) as { body: { model: string; messages: Array<{ role: string; content: string }> } }).body,
    );
    // The card's methodology: one user message with the document, no system message.
    expect(bodies.map((b) => [b.model, b.messages.map((m) => m.role)])).toEqual([
      ['sys-model', ['user']],
      ['sys-model', ['user']],
    ]);

    const output = join(dir, 'gen-output.jsonl');
    await runBatchFile(requests, output, mock.url);
    mock.reset();
    const back = accuracyRun([...task, '--batch-in', output]);
    expect(back.status, back.stderr).toBe(0);
    expect(back.stdout).toMatch(
      /^sys · summary_generation: 2 lines, 2 answered, 0 unparsable, 0 failed, 0 unknown ids, 0 duplicates, 0 unreadable; 0 filled from the cache; 0 items still to do/m,
    );
    expect(mustLoupe(['systems', 'list', '--project', project], env)).toMatch(
      /^sys\tendpoint\tversion [0-9a-f]{12}\t2 summaries, 0 failed\tsys-model$/m,
    );
    const live = accuracyRun(task);
    expect(live.status, live.stderr).toBe(0);
    expect(mock.count()).toBe(0);
  });

  it('an unreadable line exits 3 and names its line; both flags at once is a usage error', async () => {
    const task = ['--task', 'claim_decomposition', '--judge', 'checker', '--dataset', 'acc'];
    const requests = join(dir, 'dec-requests.jsonl');
    expect(accuracyRun([...task, '--batch-out', requests]).status).toBe(0);
    const output = join(dir, 'dec-output.jsonl');
    await runBatchFile(requests, output, mock.url);
    writeFileSync(output, `${readFileSync(output, 'utf8')}{"oops"\n`);
    const back = accuracyRun([...task, '--batch-in', output]);
    expect(back.status).toBe(3);
    expect(back.stderr.split('\n')).toContain(`${output} line ${lines(output).length}: not JSON`);
    expect(back.stdout).toMatch(/answered, .* 1 unreadable; .* 0 items still to do/);
    const both = accuracyRun([...task, '--batch-out', requests, '--batch-in', output]);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/--batch-out or --batch-in, not both/);
  });
});
