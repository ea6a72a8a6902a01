/**
 * The accuracy task kinds end to end through the contract (accuracy.* via dispatch) against the
 * mock OpenAI-compatible server answering their prompts deterministically (test/mock-openai/
 * accuracy.ts): the request as declared (one user message; no document in a decomposition; no
 * system message for a system under test), outputs stored where schema 8 keeps them with their
 * provenance, a schema-failing (or wrong-length) answer stored as a failed call and sent again by
 * the next run, a finished run sending 0 requests again, and failed system calls (HTTP 500 after
 * retries, a refusal) recorded and scoring 0.0 for that system in the analysis.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { loadAnalysisDatasets } from '../../../electron/core/analysis/load';
import { AnalysisRepository } from '../../../db/analysisRepository';
import { analyzeDataset } from '../../../shared/analysis';
import type { ApiInput, ApiMethod, ApiOutput } from '../../../shared/api';
import { callCore, finishAccuracyRun, readRows, taskTestCore } from '../../helpers/accuracy-core';
import { writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';
import { startMockOpenAI, type MockServer } from '../../mock-openai/server';
import {
  accuracyResponder,
  conveyingLines,
  decompose,
  documentSentences,
  promptKind,
  verdictOf,
} from '../../mock-openai/accuracy';

const dir = tempDir('loupe-accuracy-tasks-');
const DOC1 =
  'The city will spend 2 million euros to renovate the central library. Work starts on 1 March 2025 and will last 18 months. During the works, the library moves to a temporary site in the old post office.';
const DOC2 = 'The council approved a new park on Monday. The park will open in June.';
const S1 =
  'The city will renovate the central library, and work starts on 1 March 2025. The library moves to a temporary site.';
const S2 = 'The council approved a new park, and it will open in 2026.';

let mock: MockServer;
let core: Core;
let path: string;

const call = <M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>> =>
  callCore(core, method, input);
const finish = (input: ApiInput<'accuracy.start'>) => finishAccuracyRun(core, input);
const rows = <T>(sql: string, ...params: unknown[]): T[] => readRows<T>(path, sql, ...params);

beforeAll(async () => {
  mock = await startMockOpenAI({ respond: accuracyResponder });
  core = taskTestCore(dir);
  path = join(dir, 'acc.loupe');
  core.createProject(path);
  await runImport(core.repository(), {
    source: {
      type: 'path',
      path: writeJsonl(join(dir, 'rows.jsonl'), [
        { dataset: 'acc', doc_id: 'd1', document: DOC1, summary_id: 's1', summary: S1, label: 1 },
        { dataset: 'acc', doc_id: 'd2', document: DOC2, summary_id: 's2', summary: S2, label: 0 },
      ]),
    },
  });
  await call('judges.add', {
    name: 'checker',
    config: { kind: 'endpoint', baseUrl: mock.url, model: 'mock-judge', concurrency: 2, retries: 2 },
  });
});
afterAll(async () => {
  core.close();
  await mock.close();
});
beforeEach(() => {
  mock.reset();
  mock.setResponder(accuracyResponder);
});

describe('accuracy.* task kinds against the mock', () => {
  it('lists the tasks with their templates and versions', async () => {
    const tasks = await call('accuracy.tasks', {});
    expect(tasks.map((t) => t.task)).toEqual([
      'claim_decomposition',
      'keyfact_extraction',
      'claim_verdict',
      'keyfact_alignment',
      'keyfact_alignment_per_fact',
      'summary_generation',
      'scaffold_extraction',
      'scaffold_alignment',
      'direct_score',
    ]);
    expect(tasks.find((t) => t.task === 'claim_decomposition')!.placeholders).toEqual(['sentence']);
    expect(tasks.find((t) => t.task === 'claim_verdict')!.placeholders).toEqual(['document', 'claim']);
  });

  it('claim decomposition: one user message without the document; a schema-failing answer is a failed call sent again; claim sets with their decomposer', async () => {
    const preview = await call('accuracy.preview', { task: 'claim_decomposition', judge: 'checker' });
    const body = preview.body as {
      messages: Array<{ role: string; content: string }>;
      model: string;
      temperature: number;
    };
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0]!.role).toBe('user');
    expect(body.messages[0]!.content).toContain(
      'The city will renovate the central library, and work starts on 1 March 2025.',
    );
    expect(body.messages[0]!.content).not.toContain('post office'); // App. D: no document in the prompt
    expect(body).toMatchObject({ model: 'mock-judge', temperature: 0 });

    const plan = await call('accuracy.plan', { task: 'claim_decomposition', judge: 'checker' });
    expect(plan).toMatchObject({ selection: 3, done: 0, requests: 3, missing: 0 });

    mock.queue({ type: 'answer', content: '{"claims": "one claim, not a list"}' });
    const first = await finish({ task: 'claim_decomposition', judge: 'checker' });
    expect(first).toMatchObject({ state: 'done', total: 3, ok: 2, parseErrors: 1, requests: 3 });
    expect(first.errors!.map((e) => e.kind)).toEqual(['parse_error']);
    const failed = rows<{ raw: string; error_kind: string }>(
      "SELECT raw, error_kind FROM task_results WHERE kind = 'claim_decomposition' AND error_kind IS NOT NULL",
    );
    expect(failed).toEqual([{ raw: '{"claims": "one claim, not a list"}', error_kind: 'parse_error' }]);
    // One summary still lacks a sentence: only the other has its claim set.
    expect(rows('SELECT id FROM claim_sets')).toHaveLength(1);

    mock.reset();
    const second = await finish({ task: 'claim_decomposition', judge: 'checker' });
    expect(second).toMatchObject({ state: 'done', requests: 1, ok: 1, cached: 2, parseErrors: 0 });
    const sets = rows<{
      summary: string;
      source: string;
      decomposer: string;
      decomposer_version: string;
      note: string;
    }>(
      'SELECT s.summary_id AS summary, c.source, c.decomposer, c.decomposer_version, c.note FROM claim_sets c JOIN summaries s ON s.id = c.summary_id ORDER BY s.summary_id',
    );
    expect(sets.map((s) => s.summary)).toEqual(['s1', 's2']);
    for (const s of sets) {
      expect(s.source).toBe('model');
      expect(s.decomposer).toBe(`task:claim_decomposition@${plan.configHash}`);
      expect(s.decomposer_version).toBe('1');
      expect(s.note).toContain('judge "checker" (model mock-judge)');
    }
    const claims = rows<{ summary: string; idx: number; sentence: number; text: string }>(
      'SELECT s.summary_id AS summary, c.idx, u.idx AS sentence, c.text FROM claims c JOIN claim_sets cs ON cs.id = c.set_id JOIN summaries s ON s.id = cs.summary_id JOIN units u ON u.id = c.sentence_unit_id ORDER BY s.summary_id, c.idx',
    );
    expect(claims.filter((c) => c.summary === 's1').map((c) => [c.sentence, c.text])).toEqual([
      [0, 'The city will renovate the central library'],
      [0, 'work starts on 1 March 2025'],
      [1, 'The library moves to a temporary site'],
    ]);
    expect(claims.filter((c) => c.summary === 's2').map((c) => c.text)).toEqual(decompose(S2));

    mock.reset();
    const third = await finish({ task: 'claim_decomposition', judge: 'checker' });
    expect(third).toMatchObject({ state: 'done', requests: 0, cached: 3 });
    expect(mock.count()).toBe(0);
    expect(rows('SELECT id FROM claim_sets')).toHaveLength(2); // no new version for the same answers
  });

  it('key-fact extraction: a key-fact set of source model per document; a rerun sends nothing', async () => {
    const status = await finish({ task: 'keyfact_extraction', judge: 'checker', dataset: 'acc' });
    expect(status).toMatchObject({ state: 'done', requests: 2, ok: 2, itemNoun: 'document' });
    expect(mock.requests.every((r) => promptKind(r) === 'keyfact_extraction')).toBe(true);
    const facts = rows<{ doc: string; source: string; extractor: string; text: string }>(
      'SELECT d.doc_id AS doc, s.source, s.extractor, k.text FROM key_facts k JOIN key_fact_sets s ON s.id = k.set_id JOIN documents d ON d.id = s.document_id ORDER BY d.doc_id, k.idx',
    );
    expect(facts.filter((f) => f.doc === 'd1').map((f) => f.text)).toEqual(documentSentences(DOC1));
    expect(facts.filter((f) => f.doc === 'd2').map((f) => f.text)).toEqual([
      'The council approved a new park on Monday.',
      'The park will open in June.',
    ]);
    expect(new Set(facts.map((f) => f.source))).toEqual(new Set(['model']));
    expect(facts[0]!.extractor).toMatch(/^task:keyfact_extraction@[0-9a-f]{64}$/);
    mock.reset();
    expect(await finish({ task: 'keyfact_extraction', judge: 'checker', dataset: 'acc' })).toMatchObject({
      requests: 0,
      cached: 2,
    });
  });

  it('claim verdicts: document + claim → supported, or an error type, in claim_predictions with the judge', async () => {
    const preview = await call('accuracy.preview', { task: 'claim_verdict', judge: 'checker' });
    expect(preview.prompt).toContain(DOC1);
    const status = await finish({ task: 'claim_verdict', judge: 'checker' });
    expect(status).toMatchObject({ state: 'done', requests: 5, ok: 5 });
    const preds = rows<{
      text: string;
      supported: number;
      error_type: string | null;
      judge: string;
      config_hash: string;
    }>(
      'SELECT c.text, p.supported, p.error_type, j.name AS judge, p.config_hash FROM claim_predictions p JOIN claims c ON c.id = p.claim_id JOIN judges j ON j.id = p.judge_id ORDER BY c.id',
    );
    expect(preds).toHaveLength(5);
    for (const p of preds) {
      const doc = p.text.includes('park') || p.text.includes('2026') ? DOC2 : DOC1;
      const expected = verdictOf(doc, p.text);
      expect([p.supported === 1, p.error_type]).toEqual([expected.supported, expected.error_type]);
      expect(p.judge).toBe('checker');
      expect(p.config_hash).toBe(status.configHash);
    }
    // By hand: "it will open in 2026" names a year the document does not give.
    expect(preds.find((p) => p.text === 'it will open in 2026')).toMatchObject({
      supported: 0,
      error_type: 'number_or_date',
    });
    mock.reset();
    expect(await finish({ task: 'claim_verdict', judge: 'checker' })).toMatchObject({ requests: 0, cached: 5 });
  });

  it("key-fact alignment (FineSurE's list): covered with the sentences that convey it; a wrong-length answer is retried", async () => {
    mock.queue({ type: 'answer', content: '[{"key fact": "only one", "response": "Yes", "line number": [1]}]' });
    const first = await finish({ task: 'keyfact_alignment', judge: 'checker' });
    expect(first).toMatchObject({ state: 'done', requests: 2, ok: 1, parseErrors: 1 });
    expect(first.errors![0]!.lastMessage).toMatch(/lists 1 key facts, expected [23]/);
    mock.reset();
    const second = await finish({ task: 'keyfact_alignment', judge: 'checker' });
    expect(second).toMatchObject({ requests: 1, ok: 1 });

    const preds = rows<{ summary: string; fact: string; covered: number; conveyed: string }>(
      `SELECT s.summary_id AS summary, k.text AS fact, p.covered, p.conveyed_by AS conveyed FROM key_fact_predictions p
       JOIN key_facts k ON k.id = p.key_fact_id JOIN summaries s ON s.id = p.summary_id JOIN judges j ON j.id = p.judge_id
       WHERE p.config_hash = ? ORDER BY s.summary_id, k.idx`,
      second.configHash,
    );
    const sentencesOf = (key: string) =>
      rows<{ id: number; text: string }>(
        'SELECT u.id, u.text FROM units u JOIN summaries s ON s.id = u.summary_id WHERE s.summary_id = ? ORDER BY u.idx',
        key,
      );
    for (const p of preds) {
      const units = sentencesOf(p.summary);
      const lines = conveyingLines(
        p.fact,
        units.map((u) => u.text),
      );
      expect(p.covered).toBe(lines.length > 0 ? 1 : 0);
      expect(JSON.parse(p.conveyed)).toEqual({ claims: [], sentences: lines.map((n) => units[n - 1]!.id) });
    }
    // By hand: s1 conveys all three key facts of d1 (sentence 1 the budget and the start, sentence 2 the temporary site).
    expect(preds.filter((p) => p.summary === 's1').map((p) => p.covered)).toEqual([1, 1, 1]);
    const conveys = rows<{ conveys: number }>(
      'SELECT conveys FROM sentence_keyfact_predictions WHERE config_hash = ? ORDER BY unit_id',
      second.configHash,
    );
    expect(conveys.length).toBe(3);

    // The same task over the claims: its own kind and version, claim ids in conveyed_by.
    const onClaims = await finish({ task: 'keyfact_alignment', judge: 'checker', lines: 'claims' });
    expect(onClaims).toMatchObject({ state: 'done', requests: 2, ok: 2 });
    expect(onClaims.configHash).not.toBe(second.configHash);
    const claimPreds = rows<{ conveyed: string }>(
      'SELECT conveyed_by AS conveyed FROM key_fact_predictions WHERE config_hash = ?',
      onClaims.configHash,
    );
    expect(claimPreds.some((p) => JSON.parse(p.conveyed).claims.length > 0)).toBe(true);
    expect(claimPreds.every((p) => JSON.parse(p.conveyed).sentences.length === 0)).toBe(true);

    const perFact = await finish({ task: 'keyfact_alignment_per_fact', judge: 'checker' });
    expect(perFact).toMatchObject({ state: 'done', requests: 5, ok: 5, itemNoun: 'key fact' });
    mock.reset();
    expect(await finish({ task: 'keyfact_alignment_per_fact', judge: 'checker' })).toMatchObject({ requests: 0 });
    expect(await finish({ task: 'keyfact_alignment', judge: 'checker', lines: 'claims' })).toMatchObject({
      requests: 0,
    });
  });

  it('summary generation: the document as the one user message, no system message; HTTP 500 after retries and a refusal are failures scoring 0.0', async () => {
    await call('systems.add', { name: 'good', config: { baseUrl: mock.url, model: 'sys-good', retries: 1 } });
    await call('systems.add', { name: 'down', config: { baseUrl: mock.url, model: 'sys-down', retries: 2 } });
    await call('systems.add', { name: 'prude', config: { baseUrl: mock.url, model: 'sys-prude', retries: 0 } });
    mock.setResponder((req) => {
      if (req.body?.model === 'sys-down') return { type: 'status', status: 500 };
      if (req.body?.model === 'sys-prude')
        return { type: 'answer', content: "I'm sorry, but I can't help with summarizing this document." };
      return accuracyResponder(req);
    });

    const preview = await call('accuracy.preview', { task: 'summary_generation', system: 'good', dataset: 'acc' });
    expect(preview.body).toMatchObject({
      model: 'sys-good',
      messages: [{ role: 'user', content: `Summarize the following document.\n\n${DOC1}` }],
    });

    const good = await finish({ task: 'summary_generation', system: 'good', dataset: 'acc' });
    expect(good).toMatchObject({ state: 'done', requests: 2, ok: 2 });
    for (const r of mock.requests) {
      const messages = (r.body as { messages: Array<{ role: string }> }).messages;
      expect(messages.map((m) => m.role)).toEqual(['user']);
    }
    const down = await finish({ task: 'summary_generation', system: 'down', dataset: 'acc' });
    expect(down).toMatchObject({ state: 'done', failed: 2, ok: 0 });
    expect(mock.requests.filter((r) => r.body?.model === 'sys-down')).toHaveLength(6); // 1 + 2 retries, per document
    const prude = await finish({ task: 'summary_generation', system: 'prude', dataset: 'acc' });
    expect(prude).toMatchObject({ state: 'done', ok: 2, failed: 0 });

    const outputs = rows<{
      system: string;
      doc: string;
      summary: string | null;
      failure: string | null;
      message: string | null;
    }>(
      `SELECT sy.name AS system, d.doc_id AS doc, s.text AS summary, o.failure, o.failure_message AS message FROM system_outputs o
       JOIN systems sy ON sy.id = o.system_id JOIN documents d ON d.id = o.document_id LEFT JOIN summaries s ON s.id = o.summary_id ORDER BY sy.name, d.doc_id`,
    );
    expect(outputs.map((o) => [o.system, o.doc, o.summary, o.failure])).toEqual([
      ['down', 'd1', null, 'error'],
      ['down', 'd2', null, 'error'],
      ['good', 'd1', documentSentences(DOC1)[0], null],
      ['good', 'd2', documentSentences(DOC2)[0], null],
      ['prude', 'd1', null, 'refusal'],
      ['prude', 'd2', null, 'refusal'],
    ]);
    expect(outputs[0]!.message).toMatch(/HTTP 500/);
    const systems = await call('systems.list', {});
    expect(systems.find((s) => s.name === 'down')).toMatchObject({
      ok: 0,
      failed: 2,
      failures: [{ kind: 'error', count: 2 }],
    });

    // A rerun of the good system sends nothing; the failed one is sent again (and fails again).
    mock.reset();
    expect(await finish({ task: 'summary_generation', system: 'good', dataset: 'acc' })).toMatchObject({
      requests: 0,
      cached: 2,
    });
    expect(await finish({ task: 'summary_generation', system: 'prude', dataset: 'acc' })).toMatchObject({
      requests: 0,
    });

    // Judge the generated summaries, then analyze: the failed systems score 0.0 on every metric.
    mock.setResponder(accuracyResponder);
    await finish({ task: 'claim_decomposition', judge: 'checker' });
    await finish({ task: 'claim_verdict', judge: 'checker' });
    await finish({ task: 'keyfact_alignment', judge: 'checker' });
    const d = new Database(path, { readonly: true });
    try {
      const [dataset] = loadAnalysisDatasets(new AnalysisRepository(d), 'acc', {
        set: 'both',
        rule: 'majority',
        includeRevealed: false,
      });
      const analysis = analyzeDataset(dataset!, { bootstrap: 50, seed: 0, humanLabel: 'majority', reference: 'both' });
      const judge = analysis.accuracy!.sources['checker']!;
      for (const system of ['down', 'prude']) {
        const rowsOf = judge.per_summary.filter((r) => r.system === system);
        expect(rowsOf).toHaveLength(2);
        for (const r of rowsOf) expect([r.faithfulness, r.completeness, r.conciseness]).toEqual([0, 0, 0]);
        expect(judge.by_system[system]!.faithfulness!.value).toBe(0);
      }
      // The good system's first-sentence summaries are faithful (every claim is in the document).
      expect(judge.by_system['good']!.faithfulness!.value).toBe(1);
    } finally {
      d.close();
    }
  });
});
