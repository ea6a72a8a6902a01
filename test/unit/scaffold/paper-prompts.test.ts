/**
 * The Semantic Scaffold paper's own prompts (App. G.1–G.7) as Loupe's default scaffold tasks:
 * - each template, with its braces and line breaks taken away and its placeholders named as the
 *   paper names them, is the paper's printed text word for word (quoted below from the paper's
 *   App. G: Fahimi et al., "Preserving What Matters: Semantic Scaffolds Beyond Saturation in
 *   Summarization Evaluation", COLM 2026 workshop), with App. G's system messages;
 * - scaffold_extraction sends three requests per document (G.1, G.2, G.3) at temperature 0.1 with
 *   response_format json_object, and writes the scaffold once all three are answered, its maker
 *   naming the kind; an answer without its list or without a main fact is a failed call, retried;
 * - scaffold_alignment sends G.4, G.5, G.6 per summary and stores the judge's values (G.6's
 *   preserved attributes by their text, the others missing); an attribute text the scaffold does
 *   not have is a failed call; the analysis says which prompts made the scaffolds and alignments;
 * - prompts = combined stays a named option (scaffold-tasks.test.ts runs it end to end).
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  G1_FACT_EXTRACTION,
  G2_QUESTION_EXTRACTION,
  G3_ENTITY_EXTRACTION,
  G4_FACT_ALIGNMENT,
  G5_QUESTION_ALIGNMENT,
  G6_ENTITY_PRESERVATION,
} from '../../../electron/core/scaffold/paper-prompts';
import { DIRECT_SCORE_TEMPLATE } from '../../../electron/core/scaffold/direct-score-task';
import { SYSTEM_EVALUATE, SYSTEM_EXTRACT, SYSTEM_SCORE } from '../../../electron/core/scaffold/prompt-settings';
import { loadAnalysisDatasets } from '../../../electron/core/analysis/load';
import { AnalysisRepository } from '../../../db/analysisRepository';
import { computeScaffold } from '../../../shared/scaffold/compute';
import type { ApiInput, ApiMethod, ApiOutput } from '../../../shared/api';
import { openTaskProject, type TaskProject } from '../../helpers/accuracy-core';
import { tempDir } from '../../helpers/tmp';
import type { MockServer } from '../../mock-openai/server';
import { conveyingLines, documentSentences } from '../../mock-openai/accuracy';
import { entitiesOf, scaffoldResponder } from '../../mock-openai/scaffold';

/** The paper's App. G as printed (its PDF text: the listings' braces and line breaks are not in it). */
const PRINTED = {
  g1: 'Extract 20-100 key facts from the document below. Each fact must be: - Concise (at most 2-3 entities per fact) - Self-contained (understandable without the full document) - Labeled with exactly one of three types: "main point" -- central claim, finding, or action "supporting detail" -- context, evidence, elaboration "other" -- metadata, dates, boilerplate Order: all main points first, then supporting details, then other. Do not include duplicate or redundant facts. Output JSON format: "key_facts": [ "id": "1", "fact": "...", "type": "main point", "id": "2", "fact": "...", "type": "supporting detail", ... ] Document: DOCUMENT_TEXT',
  g2: 'Extract 20-100 key questions from the document below. For each question provide: - A brief expected answer (1-2 sentences, from the document) - A type: "main point", "supporting detail", or "other" - The source (e.g. "Sentence 3" or "Paragraph 2") Order: main-point questions first, then supporting, then other. Output JSON format: "questions": [ "id": "1", "question": "...", "answer": "...", "type": "main point", "source": "Sentence 3" , ... ] Document: DOCUMENT_TEXT',
  g3: 'Extract all key entities from the document below. Entities include: people, organisations, products, concepts, legal instruments, technical terms, or any named object central to the document. For each entity list its key attributes. Each attribute must: - Be a single concise factual statement (one claim) - Be labeled: "main point", "supporting detail", or "other" Output JSON format: "entities": [ "entity_name": "...", "entity_type": "person | org | product | concept | other", "attributes": [ "attribute": "...", "type": "main point", "attribute": "...", "type": "supporting detail" ] ] Document: DOCUMENT_TEXT',
  g4: 'You receive a document summary and key facts from the original document. For each key fact, determine if it can be inferred from the summary. "Inferred" means the fact\'s meaning is clearly conveyed, even in different words. Do NOT mark a fact as inferred if the summary is only tangentially related. For inferred facts: list the summary sentence ID(s) that support it, and explain why in 1 sentence. Include all facts in the output, even those not inferred. Output JSON format: "fact_alignment": [ "fact_id": "1", "inferred": true, "sentence_ids": [2], "justification": "Sentence 2 states that..." , "fact_id": "3", "inferred": false, "sentence_ids": [], "justification": "No sentence in the summary covers this." ] Key facts (with types): FACTS_JSON Summary (sentences numbered starting at 1): NUMBERED_SUMMARY',
  g5: 'You receive a document summary and key questions about the original document. For each question, determine if the summary provides enough information for a reader to answer it. If yes, list the sentence ID(s) containing the relevant information and explain in 1 sentence. Output JSON format: "question_alignment": [ "question_id": "1", "answered": true, "sentence_ids": [1, 3], "justification": "..." , "question_id": "4", "answered": false, "sentence_ids": [], "justification": "The summary does not address..." ] Key questions (with types): QUESTIONS_JSON Summary (sentences numbered starting at 1): NUMBERED_SUMMARY',
  g6: 'You receive a document summary and a list of key entities with their attributes, extracted from the original document. For each entity that appears in the summary, list the attributes that are correctly and faithfully represented. An attribute is "correctly represented" if its meaning is preserved in the summary, even in different words. Do NOT include entities absent from the summary. Do NOT include attributes that are distorted or only partially correct. Do NOT invent attributes not listed in the input. Output JSON format: "entity_preservation": [ "entity_name": "...", "preserved_attributes": [ "Exact text of the preserved attribute from the input list" ] ] Entities and attributes from the scaffold: ENTITIES_JSON Summary to evaluate: SUMMARY_TEXT',
  g7: 'Evaluate the quality of the summary against the original document. Rate on four dimensions using a 1-10 scale where 10 is perfect. Dimension definitions: 1. Faithfulness 10 = perfectly faithful; no distortions or omissions of information that is present 5 = mostly faithful; minor inaccuracies 1 = fabricates or contradicts the document 2. Completeness 10 = covers all key information needed for understanding 5 = covers some key points but misses important ones 1 = misses most key information 3. Understandability 10 = perfectly clear, logical, easy to follow 5 = somewhat clear; has clarity or organisation issues 1 = incomprehensible or severely disorganised 4. Hallucination (absence of hallucination) 10 = no hallucination; all claims supported by the source 5 = some claims not clearly supported; questionable 1 = severe fabrications; significant unsupported claims Output JSON format: "faithfulness": N, "completeness": N, "understandability": N, "hallucination": N, "rationale": "1-2 sentence explanation of the scores" Original document: DOCUMENT_TEXT Summary to evaluate: SUMMARY_TEXT',
  extract: 'You are a precise information extraction assistant. Return valid JSON only. No preamble, no explanation.',
  evaluate: 'You are a precise evaluation assistant. Return valid JSON only. No preamble, no explanation.',
  score: 'You are a rigorous and impartial evaluation assistant. Return valid JSON only. No preamble, no explanation.',
};

const PLACEHOLDER: Record<string, string> = {
  document: 'DOCUMENT_TEXT',
  facts_json: 'FACTS_JSON',
  questions_json: 'QUESTIONS_JSON',
  entities_json: 'ENTITIES_JSON',
  numbered_summary: 'NUMBERED_SUMMARY',
  summary: 'SUMMARY_TEXT',
};

/** A template as the PDF prints it: the paper's placeholder names, no braces, one space for every line break or run of spaces. */
const asPrinted = (template: string) =>
  template
    .replace(/\{([a-z_]+)\}/g, (m, name: string) => PLACEHOLDER[name] ?? m)
    .replace(/[{}]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ,/g, ',')
    .trim();
const printed = (text: string) => text.replace(/ ,/g, ',');

describe("the paper's prompts, word for word", () => {
  it('G.1–G.7 and their system messages are the printed text', () => {
    expect(asPrinted(G1_FACT_EXTRACTION)).toBe(printed(PRINTED.g1));
    expect(asPrinted(G2_QUESTION_EXTRACTION)).toBe(printed(PRINTED.g2));
    expect(asPrinted(G3_ENTITY_EXTRACTION)).toBe(printed(PRINTED.g3));
    expect(asPrinted(G4_FACT_ALIGNMENT)).toBe(printed(PRINTED.g4));
    expect(asPrinted(G5_QUESTION_ALIGNMENT)).toBe(printed(PRINTED.g5));
    expect(asPrinted(G6_ENTITY_PRESERVATION)).toBe(printed(PRINTED.g6));
    expect(asPrinted(DIRECT_SCORE_TEMPLATE)).toBe(printed(PRINTED.g7));
    expect([SYSTEM_EXTRACT, SYSTEM_EVALUATE, SYSTEM_SCORE]).toEqual([PRINTED.extract, PRINTED.evaluate, PRINTED.score]);
  });
});

const DOC1 =
  'The city will renovate the central library. Work starts in March and lasts eighteen months. Note: press release of the city. The library moves to the Post office meanwhile.';
const DOC2 = 'The council approved a new park on Monday. The park will open in June.';
const S1 = 'The city will renovate the central library. The library moves to the Post office.';
const S2 = 'The council approved a new park.';

let project: TaskProject;
let mock: MockServer;
let path: string;
const call = <M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>> => project.call(method, input);
const finish = (input: ApiInput<'accuracy.start'>) => project.finish(input);
const rows = <T>(sql: string, ...params: unknown[]): T[] => project.rows<T>(sql, ...params);

beforeAll(async () => {
  project = await openTaskProject(tempDir('loupe-scaffold-paper-'), scaffoldResponder, [
    { dataset: 'sc', doc_id: 'd1', document: DOC1, summary_id: 's1', summary: S1, label: 1, system: 'A' },
    { dataset: 'sc', doc_id: 'd2', document: DOC2, summary_id: 's2', summary: S2, label: 1, system: 'B' },
  ]);
  ({ mock, path } = project);
});
afterAll(() => project.close());
beforeEach(() => {
  mock.reset();
  mock.setResponder(scaffoldResponder);
});

type Body = { messages: Array<{ role: string; content: string }>; temperature: number; response_format?: unknown };

describe("the paper's prompts as the default scaffold tasks", () => {
  it('scaffold_extraction: G.1, G.2, G.3 per document at temperature 0.1 with json_object; the scaffold once all three are answered', async () => {
    const tasks = await call('accuracy.tasks', {});
    const info = tasks.find((t) => t.task === 'scaffold_extraction')!;
    expect(info.template).toContain(G1_FACT_EXTRACTION);
    expect(info.template).toContain(G3_ENTITY_EXTRACTION);
    expect(info.placeholders).toEqual(['document']);

    const preview = await call('accuracy.preview', { task: 'scaffold_extraction', judge: 'checker' });
    const body = preview.body as Body;
    expect(body).toMatchObject({ temperature: 0.1, response_format: { type: 'json_object' } });
    expect(body.messages).toEqual([
      { role: 'system', content: PRINTED.extract },
      { role: 'user', content: G1_FACT_EXTRACTION.replace('{document}', DOC1) },
    ]);
    const plan = await call('accuracy.plan', { task: 'scaffold_extraction', judge: 'checker' });
    expect(plan).toMatchObject({ selection: 6, requests: 6 });

    // d1's facts answer without a main fact, d1's questions answer in another shape: two failed calls.
    mock.queue(
      {
        type: 'answer',
        content: JSON.stringify({ key_facts: [{ id: '1', fact: 'Only a detail.', type: 'supporting detail' }] }),
      },
      { type: 'answer', content: JSON.stringify({ facts: [] }) },
    );
    expect(await finish({ task: 'scaffold_extraction', judge: 'checker' })).toMatchObject({
      state: 'done',
      requests: 6,
      ok: 4,
      parseErrors: 2,
    });
    const failed = rows<{ item: string; error_message: string }>(
      "SELECT item, error_message FROM task_results WHERE kind = 'scaffold_extraction_g1_g3' AND error_kind = 'parse_error' ORDER BY item",
    ).map((r) => r.error_message);
    expect(failed.some((m) => m.includes('main fact'))).toBe(true);
    expect(failed.some((m) => m.includes('no "questions" list'))).toBe(true);
    // d2 has its three answers and a scaffold; d1 waits for its two parts.
    expect(
      rows<{ doc: string }>('SELECT d.doc_id AS doc FROM scaffolds s JOIN documents d ON d.id = s.document_id').map(
        (r) => r.doc,
      ),
    ).toEqual(['d2']);

    const before = mock.requests.length;
    expect(await finish({ task: 'scaffold_extraction', judge: 'checker' })).toMatchObject({
      requests: 2,
      ok: 2,
      parseErrors: 0,
    });
    // Only the two failed parts are sent again: d1's G.1 and G.2.
    const sent = mock.requests
      .slice(before)
      .map((r) => (r.body as unknown as Body).messages[1]!.content.split('\n')[0]);
    expect(sent.sort()).toEqual([
      'Extract 20-100 key facts from the document below. Each fact must be:',
      'Extract 20-100 key questions from the document below. For each question provide:',
    ]);
    expect(await finish({ task: 'scaffold_extraction', judge: 'checker' })).toMatchObject({ requests: 0 });

    const versions = rows<{ doc: string; extractor: string; note: string }>(
      'SELECT d.doc_id AS doc, s.extractor, s.note FROM scaffolds s JOIN documents d ON d.id = s.document_id ORDER BY d.doc_id',
    );
    expect(versions.map((v) => v.doc)).toEqual(['d1', 'd2']);
    for (const v of versions) {
      expect(v.extractor).toBe(`task:scaffold_extraction_g1_g3@${plan.configHash}`);
      expect(v.note).toContain("the paper's prompts G.1–G.3");
    }
    // The same scaffold as the combined prompt's rule: the "Note:" sentence (typed other) left out.
    const items = rows<{
      kind: string;
      text: string;
      tier: string | null;
      answer: string | null;
      entity: string | null;
    }>(
      "SELECT i.kind, i.text, i.tier, i.answer, i.entity FROM scaffold_items i JOIN scaffolds s ON s.id = i.scaffold_id JOIN documents d ON d.id = s.document_id WHERE d.doc_id = 'd1' ORDER BY i.id",
    );
    const kept = documentSentences(DOC1).filter((s) => !s.startsWith('Note:'));
    expect(items.filter((i) => i.kind === 'fact').map((i) => [i.text, i.tier])).toEqual(
      kept.map((s, i) => [s, i === 0 ? 'main' : 'supporting']),
    );
    expect(items.filter((i) => i.kind === 'question').map((i) => i.answer)).toEqual(kept);
    const entities = entitiesOf(documentSentences(DOC1))
      .map((e) => ({ ...e, attributes: e.attributes.filter((a) => !a.startsWith('Note:')) }))
      .filter((e) => e.attributes.length > 0);
    expect(items.filter((i) => i.kind === 'attribute').map((i) => [i.entity, i.text])).toEqual(
      entities.flatMap((e) => e.attributes.map((a) => [e.name, a])),
    );
  });

  it('scaffold_alignment: G.4, G.5, G.6 per summary; G.6 by attribute text; the analysis names the prompts', async () => {
    const preview = await call('accuracy.preview', { task: 'scaffold_alignment', judge: 'checker' });
    const body = preview.body as Body;
    expect(body).toMatchObject({ temperature: 0.1, response_format: { type: 'json_object' } });
    expect(body.messages[0]).toEqual({ role: 'system', content: PRINTED.evaluate });
    expect(
      body.messages[1]!.content.startsWith('You receive a document summary and key facts from the original document.'),
    ).toBe(true);
    expect(body.messages[1]!.content).toContain('"fact_id":"f1"');
    expect(body.messages[1]!.content).toContain('1. The city will renovate the central library.');

    const plan = await call('accuracy.plan', { task: 'scaffold_alignment', judge: 'checker' });
    expect(plan).toMatchObject({ selection: 6, requests: 6 });
    // s1's G.6 answer names an attribute the scaffold does not have: a failed call.
    mock.setResponder((req) =>
      req.prompt.includes('For each entity that appears in the summary') && req.prompt.includes('central library')
        ? {
            type: 'answer',
            content: JSON.stringify({
              entity_preservation: [{ entity_name: 'Post', preserved_attributes: ['An attribute nobody extracted.'] }],
            }),
          }
        : scaffoldResponder(req),
    );
    expect(await finish({ task: 'scaffold_alignment', judge: 'checker' })).toMatchObject({
      requests: 6,
      ok: 5,
      parseErrors: 1,
    });
    const message = rows<{ error_message: string }>(
      "SELECT error_message FROM task_results WHERE kind = 'scaffold_alignment_g4_g6' AND error_kind = 'parse_error'",
    )[0]!.error_message;
    expect(message).toContain('"An attribute nobody extracted." is not an attribute of the scaffold');
    mock.setResponder(scaffoldResponder);
    expect(await finish({ task: 'scaffold_alignment', judge: 'checker' })).toMatchObject({ requests: 1, ok: 1 });
    expect(await finish({ task: 'scaffold_alignment', judge: 'checker' })).toMatchObject({ requests: 0 });

    const events = rows<{
      summary: string;
      kind: string;
      text: string;
      answer: string | null;
      value: string;
      sentences: string;
      config_hash: string;
    }>(
      `SELECT su.summary_id AS summary, i.kind, i.text, i.answer, e.value, e.sentences, e.config_hash
       FROM scaffold_alignment_events e JOIN scaffold_items i ON i.id = e.item_id JOIN summaries su ON su.id = e.summary_id ORDER BY e.id`,
    );
    for (const e of events) expect(e.config_hash).toBe(plan.configHash);
    const s1 = events.filter((e) => e.summary === 's1');
    const lines = documentSentences(S1);
    const itemCount = rows<{ n: number }>(
      "SELECT count(*) AS n FROM scaffold_items i JOIN scaffolds s ON s.id = i.scaffold_id JOIN documents d ON d.id = s.document_id WHERE d.doc_id = 'd1'",
    )[0]!.n;
    expect(s1).toHaveLength(itemCount); // every item once: the ones G.6 does not list as missing
    for (const e of s1) {
      const found = conveyingLines(e.kind === 'question' ? e.answer! : e.text, lines);
      if (e.kind === 'question') expect(e.value).toBe(found.length > 0 ? 'answered' : 'unanswered');
      else expect(e.value).toBe(found.length > 0 ? 'preserved' : 'missing');
      expect(JSON.parse(e.sentences)).toEqual(e.kind === 'fact' ? found.map((n) => n - 1) : []);
    }
    expect(s1.some((e) => e.kind === 'attribute' && e.value === 'preserved')).toBe(true);

    // The analysis records which prompts made the scaffolds and the judge's alignments.
    const d = new Database(path, { readonly: true });
    try {
      const [dataset] = loadAnalysisDatasets(new AnalysisRepository(d), 'sc', {
        set: 'both',
        rule: 'majority',
        includeRevealed: false,
      });
      const block = computeScaffold(dataset!.scaffold!, {
        bootstrap: 0,
        seed: 0,
        dataset: 'sc',
        reference: 'both',
        includeRevealed: false,
      })!;
      expect(Object.keys(block.provenance!.scaffolds)).toEqual([
        expect.stringMatching(/^task:scaffold_extraction_g1_g3@/),
      ]);
      expect(block.provenance!.alignments).toEqual({ checker: { scaffold_alignment_g4_g6: events.length } });
    } finally {
      d.close();
    }
  });
});
