/**
 * The Semantic Scaffold task kinds (scaffold_extraction and scaffold_alignment with the combined
 * prompts — the paper's separate prompts are scaffold-paper-prompts.test.ts's — and direct_score) end to
 * end through accuracy.* (dispatch) against the mock server (test/mock-openai/scaffold.ts answers
 * by a rule the expectations recompute): the request as App. G sends it (system + user message,
 * temperature 0.1), outputs stored with provenance (a scaffold version of source model, judge
 * alignment events with the run's config hash, direct scores in task_results), a schema-failing
 * answer (no main fact; an unknown or a missing item) stored as a failed call with its raw text and
 * sent again, a finished run sending 0 requests, and an imported scaffold never replaced.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import type { ApiInput, ApiMethod, ApiOutput } from '../../../shared/api';
import { callCore, finishAccuracyRun, readRows, taskTestCore } from '../../helpers/accuracy-core';
import { writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';
import { startMockOpenAI, type MockServer } from '../../mock-openai/server';
import { conveyingLines, documentSentences } from '../../mock-openai/accuracy';
import { directScoreAnswer, entitiesOf, scaffoldResponder } from '../../mock-openai/scaffold';
import { loadAnalysisDatasets } from '../../../electron/core/analysis/load';
import { AnalysisRepository } from '../../../db/analysisRepository';
import { computeScaffold } from '../../../shared/scaffold/compute';

const dir = tempDir('loupe-scaffold-tasks-');
const DOC1 =
  'The city will renovate the central library. Work starts in March and lasts eighteen months. Note: press release of the city. The library moves to the Post office meanwhile.';
const DOC2 = 'The council approved a new park on Monday. The park will open in June.';
const S1 = 'The city will renovate the central library. The library moves to the Post office.';
const S2 = 'The council approved a new park.';

let mock: MockServer;
let core: Core;
let path: string;

const call = <M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>> =>
  callCore(core, method, input);
const finish = (input: ApiInput<'accuracy.start'>) => finishAccuracyRun(core, input);
const rows = <T>(sql: string, ...params: unknown[]): T[] => readRows<T>(path, sql, ...params);

beforeAll(async () => {
  mock = await startMockOpenAI({ respond: scaffoldResponder });
  core = taskTestCore(dir);
  path = join(dir, 'sc.loupe');
  core.createProject(path);
  await runImport(core.repository(), {
    source: {
      type: 'path',
      path: writeJsonl(join(dir, 'rows.jsonl'), [
        { dataset: 'sc', doc_id: 'd1', document: DOC1, summary_id: 's1', summary: S1, label: 1 },
        { dataset: 'sc', doc_id: 'd2', document: DOC2, summary_id: 's2', summary: S2, label: 1 },
        {
          dataset: 'sc',
          doc_id: 'd3',
          document: 'Imported here. Its scaffold came with a file.',
          summary_id: 's3',
          summary: 'Imported here.',
          label: 1,
        },
      ]),
    },
  });
  // d3's scaffold comes with a file: a model must not replace it.
  await runImport(core.repository(), {
    as: 'scaffold',
    source: {
      type: 'path',
      path: writeJsonl(join(dir, 'scaffold.jsonl'), [
        {
          dataset: 'sc',
          doc_id: 'd3',
          facts: [{ id: 'x1', text: 'Imported here.', tier: 'main' }],
          questions: [],
          entities: [],
        },
      ]),
    },
  });
  await call('judges.add', {
    name: 'checker',
    config: { kind: 'endpoint', baseUrl: mock.url, model: 'mock-judge', concurrency: 1, retries: 0, temperature: 0 },
  });
});
afterAll(async () => {
  core.close();
  await mock.close();
});
beforeEach(() => {
  mock.reset();
  mock.setResponder(scaffoldResponder);
});

describe('Semantic Scaffold tasks on accuracy.*', () => {
  it('scaffold_extraction: App. G request at temperature 0.1; no main fact is a failed call retried; a model version with provenance; imported kept', async () => {
    const preview = await call('accuracy.preview', {
      task: 'scaffold_extraction',
      judge: 'checker',
      prompts: 'combined',
    });
    const body = preview.body as {
      messages: Array<{ role: string; content: string }>;
      temperature: number;
      model: string;
    };
    expect(body.temperature).toBe(0.1); // App. G, though the judge's own temperature is 0
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(body.messages[0]!.content).toContain('Return valid JSON only');
    expect(body.messages[1]!.content).toContain(DOC1);

    const plan = await call('accuracy.plan', { task: 'scaffold_extraction', judge: 'checker', prompts: 'combined' });
    expect(plan).toMatchObject({ selection: 2, requests: 2, missing: 0 });
    expect(plan.notes.join(' ')).toContain('1 document keep their current scaffold');

    const noMain = JSON.stringify({
      key_facts: [{ id: '1', fact: 'Only a detail.', type: 'supporting detail' }],
      questions: [],
      entities: [],
    });
    mock.queue({ type: 'answer', content: noMain });
    const first = await finish({ task: 'scaffold_extraction', judge: 'checker', prompts: 'combined' });
    expect(first).toMatchObject({ state: 'done', requests: 2, ok: 1, parseErrors: 1 });
    const failed = rows<{ raw: string; error_kind: string; error_message: string }>(
      "SELECT raw, error_kind, error_message FROM task_results WHERE kind = 'scaffold_extraction' AND error_kind IS NOT NULL",
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ raw: noMain, error_kind: 'parse_error' });
    expect(failed[0]!.error_message).toContain('main fact');

    const second = await finish({ task: 'scaffold_extraction', judge: 'checker', prompts: 'combined' });
    expect(second).toMatchObject({ state: 'done', requests: 1, ok: 1, parseErrors: 0 });
    expect(await finish({ task: 'scaffold_extraction', judge: 'checker', prompts: 'combined' })).toMatchObject({
      requests: 0,
    });

    const versions = rows<{
      doc: string;
      version: number;
      source: string;
      extractor: string;
      extractor_version: string;
      note: string;
    }>(
      'SELECT d.doc_id AS doc, s.version, s.source, s.extractor, s.extractor_version, s.note FROM scaffolds s JOIN documents d ON d.id = s.document_id ORDER BY d.doc_id, s.version',
    );
    expect(versions.map((v) => [v.doc, v.version, v.source])).toEqual([
      ['d1', 1, 'model'],
      ['d2', 1, 'model'],
      ['d3', 1, 'imported'],
    ]);
    for (const v of versions.filter((x) => x.source === 'model')) {
      expect(v.extractor).toBe(`task:scaffold_extraction@${plan.configHash}`);
      expect(v.extractor_version).toBe('1');
      expect(v.note).toContain('judge "checker" (model mock-judge)');
    }
    expect(versions[0]!.note).toContain('2 items typed "other" left out'); // the Note: fact and its question
    // d1 by the mock's rule, the "Note:" sentence left out.
    const items = rows<{
      kind: string;
      item_key: string;
      text: string;
      tier: string | null;
      answer: string | null;
      entity: string | null;
    }>(
      "SELECT i.kind, i.item_key, i.text, i.tier, i.answer, i.entity FROM scaffold_items i JOIN scaffolds s ON s.id = i.scaffold_id JOIN documents d ON d.id = s.document_id WHERE d.doc_id = 'd1' ORDER BY i.id",
    );
    const kept = documentSentences(DOC1).filter((s) => !s.startsWith('Note:'));
    expect(items.filter((i) => i.kind === 'fact').map((i) => [i.item_key, i.text, i.tier])).toEqual(
      kept.map((s, i) => [`f${i + 1}`, s, i === 0 ? 'main' : 'supporting']),
    );
    expect(items.filter((i) => i.kind === 'question').map((i) => i.answer)).toEqual(kept);
    const entities = entitiesOf(documentSentences(DOC1))
      .map((e) => ({ ...e, attributes: e.attributes.filter((a) => !a.startsWith('Note:')) }))
      .filter((e) => e.attributes.length > 0);
    expect(items.filter((i) => i.kind === 'attribute').map((i) => [i.entity, i.text])).toEqual(
      entities.flatMap((e) => e.attributes.map((a) => [e.name, a])),
    );
  });

  it('scaffold_alignment: an unknown item or a left-out one is a failed call retried; judge events per item with the config hash; rerun sends nothing', async () => {
    const preview = await call('accuracy.preview', {
      task: 'scaffold_alignment',
      judge: 'checker',
      prompts: 'combined',
    });
    const body = preview.body as { messages: Array<{ role: string; content: string }>; temperature: number };
    expect(body.temperature).toBe(0.1);
    expect(body.messages[1]!.content).toContain('1. The city will renovate the central library.');
    expect(body.messages[1]!.content).toContain('"fact_id":"f1"');

    const plan = await call('accuracy.plan', { task: 'scaffold_alignment', judge: 'checker', prompts: 'combined' });
    expect(plan).toMatchObject({ selection: 3, requests: 3 });
    mock.queue(
      {
        type: 'answer',
        content: JSON.stringify({
          facts: [{ fact_id: 'f99', value: 'preserved', sentence_ids: [1] }],
          questions: [],
          attributes: [],
        }),
      },
      { type: 'answer', content: JSON.stringify({ facts: [], questions: [], attributes: [] }) },
    );
    const first = await finish({ task: 'scaffold_alignment', judge: 'checker', prompts: 'combined' });
    expect(first).toMatchObject({ state: 'done', requests: 3, ok: 1, parseErrors: 2 });
    const messages = rows<{ error_message: string }>(
      "SELECT error_message FROM task_results WHERE kind = 'scaffold_alignment' AND error_kind = 'parse_error' ORDER BY id",
    ).map((r) => r.error_message);
    expect(messages.some((m) => m.includes('"f99" is not an item of the scaffold'))).toBe(true);
    expect(messages.some((m) => m.includes('leaves out fact'))).toBe(true);

    expect(await finish({ task: 'scaffold_alignment', judge: 'checker', prompts: 'combined' })).toMatchObject({
      requests: 2,
      ok: 2,
      parseErrors: 0,
    });
    expect(await finish({ task: 'scaffold_alignment', judge: 'checker', prompts: 'combined' })).toMatchObject({
      requests: 0,
    });

    const events = rows<{
      summary: string;
      kind: string;
      item_key: string;
      text: string;
      answer: string | null;
      value: string;
      sentences: string;
      judge: string;
      config_hash: string;
    }>(
      `SELECT su.summary_id AS summary, i.kind, i.item_key, i.text, i.answer, e.value, e.sentences, j.name AS judge, e.config_hash
       FROM scaffold_alignment_events e JOIN scaffold_items i ON i.id = e.item_id JOIN summaries su ON su.id = e.summary_id JOIN judges j ON j.id = e.judge_id
       ORDER BY e.id`,
    );
    for (const e of events) expect([e.judge, e.config_hash]).toEqual(['checker', plan.configHash]);
    const s1 = events.filter((e) => e.summary === 's1');
    const lines = documentSentences(S1);
    const itemCount = rows<{ n: number }>(
      "SELECT count(*) AS n FROM scaffold_items i JOIN scaffolds s ON s.id = i.scaffold_id JOIN documents d ON d.id = s.document_id WHERE d.doc_id = 'd1'",
    )[0]!.n;
    expect(s1).toHaveLength(itemCount); // every item exactly once
    for (const e of s1) {
      const found = conveyingLines(e.kind === 'question' ? e.answer! : e.text, lines);
      if (e.kind === 'question') expect(e.value).toBe(found.length > 0 ? 'answered' : 'unanswered');
      else expect(e.value).toBe(found.length > 0 ? 'preserved' : 'missing');
      expect(JSON.parse(e.sentences)).toEqual(e.kind === 'fact' ? found.map((n) => n - 1) : []);
    }
    expect(s1.filter((e) => e.kind === 'fact').map((e) => e.value)).toEqual(['preserved', 'missing', 'preserved']);
    // s3 aligned on the imported scaffold.
    expect(events.filter((e) => e.summary === 's3').map((e) => [e.item_key, e.value])).toEqual([['x1', 'preserved']]);
  });

  it('direct_score: G.7 request; per (summary, judge) in task_results; rerun sends nothing', async () => {
    const preview = await call('accuracy.preview', { task: 'direct_score', judge: 'checker' });
    const body = preview.body as { messages: Array<{ role: string; content: string }>; temperature: number };
    expect(body.temperature).toBe(0.1);
    expect(body.messages[0]!.content).toContain('rigorous and impartial');
    expect(body.messages[1]!.content).toContain('Rate on four dimensions using a 1-10 scale');
    mock.queue({
      type: 'answer',
      content: '{"faithfulness": 11, "completeness": 9, "understandability": 9, "hallucination": 9}',
    });
    expect(await finish({ task: 'direct_score', judge: 'checker' })).toMatchObject({
      requests: 3,
      ok: 2,
      parseErrors: 1,
    });
    expect(await finish({ task: 'direct_score', judge: 'checker' })).toMatchObject({ requests: 1, ok: 1 });
    expect(await finish({ task: 'direct_score', judge: 'checker' })).toMatchObject({ requests: 0 });
    const judgeId = rows<{ id: number }>("SELECT id FROM judges WHERE name = 'checker'")[0]!.id;
    const stored = rows<{ item: string; output: string }>(
      "SELECT item, output FROM task_results WHERE kind = 'direct_score' AND output IS NOT NULL ORDER BY item",
    );
    const keys = rows<{ id: number }>('SELECT id FROM summaries ORDER BY id').map(
      (r) => `summary:${r.id}:judge:${judgeId}`,
    );
    expect(stored.map((r) => r.item)).toEqual(keys.sort());
    for (const r of stored)
      expect(JSON.parse(r.output)).toMatchObject({ completeness: 9, understandability: 9, hallucination: 9 });

    // The analysis reads them beside the judge's alignments (analyze --json's scaffold block).
    const d = new Database(path, { readonly: true });
    try {
      const [dataset] = loadAnalysisDatasets(new AnalysisRepository(d), 'sc', {
        set: 'both',
        rule: 'majority',
        includeRevealed: false,
      });
      const block = computeScaffold(dataset!.scaffold!, {
        bootstrap: 50,
        seed: 0,
        dataset: 'sc',
        reference: 'both',
        includeRevealed: false,
        compareSource: 'checker',
      })!;
      const byId = new Map(block.sources.checker!.per_summary.map((r) => [r.summary_id, r.direct_score]));
      const expected = (doc: string, summary: string) =>
        (JSON.parse(JSON.stringify(directScoreAnswer(doc, summary))) as { faithfulness: number }).faithfulness / 4 +
        27 / 4;
      expect(byId.get('s1')).toBe(expected(DOC1, S1));
      expect(byId.get('s2')).toBe(expected(DOC2, S2));
      expect(block.direct_score_judge).toBe('checker');
      // Compared by the judge, the direct score is a compared metric beside the scaffold's.
      expect(block.comparison!.source).toBe('checker');
      expect(block.comparison!.metrics.direct_score).toBeDefined();
    } finally {
      d.close();
    }
  });
});
