/**
 * Replicas from the command line: `judges add --base-url A --base-url B` keeps both (shown by
 * `judges list`), a repeated single-value option exits 2 naming it, and `loupe judge` shares
 * 1,000 sentences between two endpoints of 4 slots each (429 beyond them, 100 ms latency) so that
 * each answers at least 35% of them. The rate is a benchmark's (npm run bench:judge), not asserted.
 * `judge --plan` and `accuracy plan` print what a run would send (requests, items, base URLs,
 * prompt tokens estimated from the real prompts) and send nothing; the estimate matches the run's.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loupe, mustLoupe, writeJsonl } from '../helpers/project';
import { loupeArgs, REPO } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';
import { startMockOpenAI, type MockServer } from '../mock-openai/server';
import { DOCUMENT } from '../mock-openai/project';

const dir = tempDir('loupe-cli-replicas-');
const project = join(dir, 'replicas.loupe');
const env = { LOUPE_STATE_DIR: dir };
const SENTENCES = 1000;
let a: MockServer;
let b: MockServer;
/** The prompt tokens judge --plan estimated, checked against what the run then sends. */
let planned = 0;

/** 250 summaries of four distinct sentences: 1,000 requests, none shared. */
const rows = Array.from({ length: SENTENCES / 4 }, (_, k) => ({
  dataset: 'news',
  doc_id: `doc-${k % 50}`,
  document: `${DOCUMENT} Story ${k % 50}.`,
  summary_id: `sum-${k}`,
  summary: `The council approved a budget (${k}.0). It adds money for schools (${k}.1). The mayor was pleased (${k}.2). Taxes may rise (${k}.3).`,
}));

/** `loupe …` without blocking this process's event loop, which serves the mock endpoints. */
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
  [a, b] = await Promise.all([
    startMockOpenAI({ slots: 4, latencyMs: 100 }),
    startMockOpenAI({ slots: 4, latencyMs: 100 }),
  ]);
  mustLoupe(['import', writeJsonl(join(dir, 'rows.jsonl'), rows), '--project', project], env);
}, 60_000);
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

describe('replicas from the CLI', () => {
  it('judges add keeps every --base-url, judges list shows them; a repeated single-value option exits 2 naming it', () => {
    const added = mustLoupe(
      [
        'judges',
        'add',
        'J',
        '--project',
        project,
        '--base-url',
        a.url,
        '--base-url',
        b.url,
        '--model',
        'm',
        '--concurrency',
        '16',
      ],
      env,
    );
    expect(added).toContain(`m at ${a.url} (+1 replica)`);
    const listed = mustLoupe(['judges', 'list', '--project', project, '--json'], env);
    const judge = (JSON.parse(listed) as Array<{ name: string; config: { baseUrls: string[] } }>).find(
      (j) => j.name === 'J',
    )!;
    expect(judge.config.baseUrls).toEqual([a.url, b.url]);
    expect(mustLoupe(['judges', 'list', '--project', project], env)).toContain(`  replicas: ${a.url}, ${b.url}\n`);

    const twice = loupe(
      ['judges', 'add', 'K', '--project', project, '--base-url', a.url, '--model', 'm1', '--model', 'm2'],
      env,
    );
    expect(twice.status).toBe(2);
    expect(twice.stderr).toBe('--model was given more than once (loupe judges add); it takes one value\n');
    expect(
      JSON.parse(mustLoupe(['judges', 'list', '--project', project, '--json'], env)).map(
        (j: { name: string }) => j.name,
      ),
    ).not.toContain('K');
  });

  it('judge --plan and accuracy plan print requests, items, base URLs and estimated prompt tokens, and send nothing', async () => {
    a.reset();
    b.reset();
    const plan = await cli(['judge', '--project', project, '--judge', 'J', '--plan']);
    expect(plan.code).toBe(0);
    const lines = plan.stdout.split('\n');
    expect(lines[0]).toBe(
      'J: 1000 requests for 1000 sentences (0 answered before, 0 from the cache, 0 sharing a request, 0 without a document)',
    );
    expect(lines[1]).toBe(`Sent to: ${a.url}, ${b.url}`);
    expect(lines[2]).toMatch(
      /^Prompt tokens: [\d,]+ in 1,000 requests \(estimated as characters \/ 4, no tokenizer, from the real prompts\)$/,
    );
    planned = Number(/^Prompt tokens: ([\d,]+)/.exec(lines[2]!)![1]!.replace(/,/g, ''));
    expect(lines[3]).toBe('Nothing was sent.');

    const accuracy = await cli([
      'accuracy',
      'plan',
      '--project',
      project,
      '--task',
      'claim_decomposition',
      '--judge',
      'J',
    ]);
    expect(accuracy.code).toBe(0);
    expect(accuracy.stdout).toMatch(
      /^J · claim_decomposition: 1000 requests for 1000 items \(0 answered before, 0 left out\)\n/,
    );
    expect(accuracy.stdout).toContain(`Sent to: ${a.url}, ${b.url}\n`);
    expect(accuracy.stdout).toMatch(
      /Prompt tokens: [\d,]+ in 1,000 requests \(estimated as characters \/ 4, no tokenizer, from the real prompts\)\nNothing was sent\.\n$/,
    );
    expect(a.count() + b.count()).toBe(0);
  }, 60_000);

  it('loupe judge shares 1,000 sentences between two 4-slot replicas, each answering at least 35%', async () => {
    a.reset();
    b.reset();
    const run = await cli(['judge', '--project', project, '--judge', 'J']);
    expect(run.stderr).not.toMatch(/failed calls/);
    expect(run.code).toBe(0);
    const [answeredA, answeredB] = [a.answered(), b.answered()];
    expect(answeredA + answeredB).toBe(SENTENCES);
    expect(answeredA / SENTENCES).toBeGreaterThanOrEqual(0.35);
    expect(answeredB / SENTENCES).toBeGreaterThanOrEqual(0.35);
    // The plan's estimate is the prompts actually sent, at four characters a token.
    const sent = [...a.requests, ...b.requests].filter((r) => r.path.endsWith('/chat/completions') && r.body !== null);
    const answeredPrompts = new Map(sent.map((r) => [r.sentence, r.prompt.length]));
    expect(answeredPrompts.size).toBe(SENTENCES);
    expect(planned).toBe(Math.ceil([...answeredPrompts.values()].reduce((x, y) => x + y, 0) / 4));
    // Every sentence stored: a second run sends nothing.
    const again = await cli(['judge', '--project', project, '--judge', 'J']);
    expect(again.code).toBe(0);
    expect(a.answered() + b.answered()).toBe(SENTENCES);
  }, 180_000);
});
