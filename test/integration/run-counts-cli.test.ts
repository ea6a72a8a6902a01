/**
 * `loupe accuracy run` against a model that writes no JSON: every item ends unparseable, and the
 * end line names the items that reused the unparseable answer of a sentence with the same text
 * instead of counting them as answered; the request count is what the mock received.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccuracyCliProject } from '../helpers/accuracy-cli';
import { loupeArgs, REPO } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';
import { startMockOpenAI, type MockServer } from '../mock-openai/server';

const dir = tempDir('loupe-run-counts-cli-');
const project = join(dir, 'counts.loupe');
const env = { LOUPE_STATE_DIR: dir };
let mock: MockServer;

const SENTENCES = [
  'The park opens in June.',
  'The council approved it on Monday.',
  'It cost two million euros.',
  'The mayor was pleased.',
  'Opponents spoke against it.',
  'Works start in March.',
  'The library moves for a year.',
  'Taxes will not rise.',
];
/** Ten summaries of two sentences: twenty sentences, eight distinct texts. */
const ROWS = Array.from({ length: 10 }, (_, k) => ({
  doc_id: `d${k}`,
  document: `Document ${k}. ${SENTENCES.join(' ')}`,
  summary_id: `s${k}`,
  summary: `${SENTENCES[k % 8]} ${SENTENCES[(k + 1) % 8]}`,
}));

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, loupeArgs(args), {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

beforeAll(async () => {
  mock = await startMockOpenAI({
    respond: () => ({ type: 'answer', content: 'These sentences state several facts.' }),
  });
  makeAccuracyCliProject({ dir, project, env, rows: ROWS, judgeUrl: mock.url });
});
afterAll(async () => {
  await mock.close();
});

describe('a run whose model writes no JSON (CLI)', () => {
  it('reports every item unparseable, naming the reused ones, with the requests the mock saw', async () => {
    const r = await cli([
      'accuracy',
      'run',
      '--project',
      project,
      '--task',
      'claim_decomposition',
      '--judge',
      'checker',
    ]);
    expect(r.code).toBe(3);
    expect(mock.count()).toBe(8);
    expect(r.stdout).toContain(
      'checker · claim_decomposition: done: 0 answered, 20 unparseable answers (12 reused from an item with the same content; stored with their text; run again to retry them) (20/20; 8 requests, 0 cached)',
    );
    expect(r.stdout).not.toMatch(/\b12 answered\b/);
    // The progress line reads the same counters: 8 parse errors by kind, 20 unparseable items.
    expect(r.stderr).toContain('20 unparseable answers (12 reused from an item with the same content)');
    expect(r.stderr).toContain('errors 8 (parse_error 8)');
  });
});
