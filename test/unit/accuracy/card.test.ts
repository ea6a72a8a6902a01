/**
 * The Summarization Accuracy card's two worked examples (seed 002, "Scoring") end to end: a small
 * claims/key-facts JSON Lines import (--as accuracy), then the analysis the CLI's
 * `loupe analyze --json` prints (load → analyze → the report schema). Also: a failed system call
 * scores 0.0 on all three for its system; claim edits keep earlier labels on their version; people
 * and judges see through the annotation calls only their own labels.
 *
 * Document: a library renovation with five pieces of information (budget, purpose, start date,
 * duration, temporary site); four are key facts (budget, start date, duration, temporary site).
 * Summary A: 5 claims, all supported; each key fact covered → faithfulness 5/5 = 1.0,
 *   completeness 4/4 = 1.0, conciseness (claims conveying a key fact) 4/5 = 0.8 (the purpose is
 *   not a key fact).
 * Summary B: "unanimously" not_in_source, "2.4 million euros" number_or_date, purpose and start
 *   date supported → faithfulness 2/4 = 0.5; only the start date covered → completeness 1/4 =
 *   0.25; conciseness 1/4 = 0.25.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { loadAnalysisDatasets } from '../../../electron/core/analysis/load';
import { AnalysisRepository } from '../../../db/analysisRepository';
import { analyzeDataset } from '../../../shared/analysis';
import { DatasetAnalysisSchema } from '../../../shared/analysis/schema';
import { writeJsonl } from '../../helpers/project';
import { tempDir } from '../../helpers/tmp';

const DOCUMENT =
  'The city will spend 2 million euros to renovate the central library. Work starts on 1 March 2025 and will last 18 months. ' +
  'During the works, the library moves to a temporary site in the old post office.';
const A =
  'The city will spend 2 million euros to renovate the central library. Work starts on 1 March 2025, lasts 18 months, and the library moves to a temporary site meanwhile.';
const B =
  'The council unanimously approved 2.4 million euros to renovate the central library. Work starts on 1 March 2025.';

function cardRecords(): unknown[] {
  const d = 'card';
  return [
    {
      type: 'summary',
      dataset: d,
      doc_id: 'library',
      document: DOCUMENT,
      summary_id: 'A',
      summary: A,
      system: 'system-a',
    },
    {
      type: 'summary',
      dataset: d,
      doc_id: 'library',
      document: DOCUMENT,
      summary_id: 'B',
      summary: B,
      system: 'system-b',
    },
    {
      type: 'summary',
      dataset: d,
      doc_id: 'pool',
      document: 'The town pool reopens on Monday after repairs.',
      summary_id: 'A-pool',
      summary: 'The pool reopens on Monday.',
      system: 'system-a',
    },
    // system-b's call on the pool document failed (a guardrail): no summary reached the user.
    {
      type: 'system_output',
      dataset: d,
      doc_id: 'pool',
      system: 'system-b',
      failure: 'guardrail',
      message: 'blocked by policy',
    },
    {
      type: 'key_facts',
      dataset: d,
      doc_id: 'library',
      facts: [
        'The budget is 2 million euros.',
        'Work starts on 1 March 2025.',
        'Work lasts 18 months.',
        'The library moves to a temporary site.',
      ],
      extractor: 'card',
    },
    {
      type: 'claims',
      dataset: d,
      summary_id: 'A',
      decomposer: 'card',
      claims: [
        { sentence_index: 0, text: 'The city will spend 2 million euros.' },
        { sentence_index: 0, text: 'The money is to renovate the central library.' },
        { sentence_index: 1, text: 'Work starts on 1 March 2025.' },
        { sentence_index: 1, text: 'The work lasts 18 months.' },
        { sentence_index: 1, text: 'The library moves to a temporary site during the work.' },
      ],
    },
    {
      type: 'claims',
      dataset: d,
      summary_id: 'B',
      decomposer: 'card',
      claims: [
        { sentence_index: 0, text: 'The council approved the budget unanimously.' },
        { sentence_index: 0, text: 'The budget is 2.4 million euros.' },
        { sentence_index: 0, text: 'The money is to renovate the central library.' },
        { sentence_index: 1, text: 'Work starts on 1 March 2025.' },
      ],
    },
    ...[0, 1, 2, 3, 4].map((i) => ({
      type: 'claim_label',
      dataset: d,
      summary_id: 'A',
      claim_index: i,
      annotator: 'card-people',
      label: 'supported',
    })),
    {
      type: 'claim_label',
      dataset: d,
      summary_id: 'B',
      claim_index: 0,
      annotator: 'card-people',
      label: 'unsupported',
      error_type: 'not_in_source',
    },
    {
      type: 'claim_label',
      dataset: d,
      summary_id: 'B',
      claim_index: 1,
      annotator: 'card-people',
      label: 'unsupported',
      error_type: 'number_or_date',
    },
    { type: 'claim_label', dataset: d, summary_id: 'B', claim_index: 2, annotator: 'card-people', label: 'supported' },
    { type: 'claim_label', dataset: d, summary_id: 'B', claim_index: 3, annotator: 'card-people', label: 'supported' },
    // Key fact i of A is conveyed by claim [0, 2, 3, 4][i].
    ...[0, 2, 3, 4].map((claim, i) => ({
      type: 'key_fact_label',
      dataset: d,
      summary_id: 'A',
      key_fact_index: i,
      annotator: 'card-people',
      label: 'covered',
      claims: [claim],
    })),
    {
      type: 'key_fact_label',
      dataset: d,
      summary_id: 'B',
      key_fact_index: 0,
      annotator: 'card-people',
      label: 'not_covered',
    },
    {
      type: 'key_fact_label',
      dataset: d,
      summary_id: 'B',
      key_fact_index: 1,
      annotator: 'card-people',
      label: 'covered',
      claims: [3],
    },
    {
      type: 'key_fact_label',
      dataset: d,
      summary_id: 'B',
      key_fact_index: 2,
      annotator: 'card-people',
      label: 'not_covered',
    },
    {
      type: 'key_fact_label',
      dataset: d,
      summary_id: 'B',
      key_fact_index: 3,
      annotator: 'card-people',
      label: 'not_covered',
    },
    // A lenient judge: every claim supported (wrong on B's two unsupported claims: 2 of 9 claims).
    ...[0, 1, 2, 3, 4].map((i) => ({
      type: 'claim_prediction',
      dataset: d,
      summary_id: 'A',
      claim_index: i,
      judge: 'lenient',
      supported: 1,
    })),
    ...[0, 1, 2, 3].map((i) => ({
      type: 'claim_prediction',
      dataset: d,
      summary_id: 'B',
      claim_index: i,
      judge: 'lenient',
      supported: 1,
    })),
  ];
}

async function cardProject() {
  const dir = tempDir('loupe-accuracy-card-');
  const core = createCore({
    Database,
    stateDir: dir,
    demoDir: dir,
    host: 'electron',
    fileDialogs: false,
    diskPaths: true,
    canSwitchProjects: false,
  });
  const path = join(dir, 'card.loupe');
  core.createProject(path);
  const result = await runImport(core.repository(), {
    source: { type: 'path', path: writeJsonl(join(dir, 'card.jsonl'), cardRecords()) },
  });
  return { core, path, result };
}

function analyze(path: string, humanLabel: 'unanimous' | 'majority' = 'majority') {
  const db = new Database(path);
  try {
    const [dataset] = loadAnalysisDatasets(new AnalysisRepository(db), 'card', {
      set: 'both',
      rule: humanLabel,
      includeRevealed: false,
    });
    const analysis = analyzeDataset(dataset!, { bootstrap: 200, seed: 0, humanLabel, reference: 'both' });
    return DatasetAnalysisSchema.parse(analysis);
  } finally {
    db.close();
  }
}

describe("the card's worked examples", () => {
  it('imports claims, key facts, labels and a failed call as --as accuracy (detected by content)', async () => {
    const { core, result } = await cardProject();
    expect(result.kind).toBe('accuracy');
    expect(result.summariesAdded).toBe(3);
    // 9 claim labels + 8 key-fact labels; 9 judge verdicts.
    expect(result.labelsAdded).toBe(17);
    expect(result.predictionsKept).toBe(9);
    core.close();
  });

  it("scores summary A 1.0 / 1.0 and summary B 0.5 / 0.25, with B's error types kept", async () => {
    const { core, path } = await cardProject();
    const accuracy = analyze(path).accuracy!;
    const human = accuracy.sources.human!;
    const bySummary = new Map(human.per_summary.map((r) => [r.summary_id, r]));
    expect(bySummary.get('A')).toMatchObject({
      faithfulness: 1,
      completeness: 1,
      conciseness: 0.8,
      system: 'system-a',
      failed: false,
    });
    expect(bySummary.get('B')).toMatchObject({
      faithfulness: 0.5,
      completeness: 0.25,
      conciseness: 0.25,
      system: 'system-b',
      failed: false,
    });
    // One conciseness per summary, on the claims the people linked to key facts.
    expect(human.conciseness_basis).toBe('claims');
    expect(bySummary.get('A')!.conciseness_basis).toBe('claims');
    expect(bySummary.get('B')!.conciseness_basis).toBe('claims');
    const key = core.repository().corpus.summaryKey('card', 'B')!;
    const db = new Database(path);
    const types = db
      .prepare(
        "SELECT e.error_type AS t FROM claim_label_events e JOIN claims c ON c.id = e.claim_id JOIN claim_sets s ON s.id = c.set_id WHERE s.summary_id = ? AND e.label = 'unsupported' ORDER BY c.idx",
      )
      .all(key) as Array<{ t: string }>;
    db.close();
    expect(types.map((r) => r.t)).toEqual(['not_in_source', 'number_or_date']);
    core.close();
  });

  it('a failed system call scores 0.0 on all three for its system and enters its means', async () => {
    const { core, path } = await cardProject();
    const human = analyze(path).accuracy!.sources.human!;
    const failed = human.per_summary.filter((r) => r.failed);
    expect(failed).toEqual([
      {
        summary_id: null,
        doc_id: 'pool',
        system: 'system-b',
        faithfulness: 0,
        completeness: 0,
        conciseness: 0,
        conciseness_basis: 'claims',
        failed: true,
      },
    ]);
    // system-b: B (0.5, 0.25, 0.25) and the failure (0, 0, 0) → means 0.25, 0.125, 0.125.
    const b = human.by_system['system-b']!;
    expect(b.n_summaries).toBe(1);
    expect(b.n_failed).toBe(1);
    expect(b.faithfulness!.value).toBeCloseTo(0.25, 12);
    expect(b.completeness!.value).toBeCloseTo(0.125, 12);
    expect(b.conciseness!.value).toBeCloseTo(0.125, 12);
    // Dataset means over A, B and the failure (A-pool has no claims or key facts: no figure).
    expect(human.faithfulness!.value).toBeCloseTo((1 + 0.5 + 0) / 3, 12);
    expect(human.completeness!.value).toBeCloseTo((1 + 0.25 + 0) / 3, 12);
    expect(human.faithfulness!.n).toBe(3);
    // Three summaries are too few for an interval: the point value alone (docs/methods.md, "Too few to estimate").
    expect(human.faithfulness).toMatchObject({ ci: null, too_few: true });
    core.close();
  });

  it('measures the judge against people at claim level (2 of 9 claims differ) and scores it as a source', async () => {
    const { core, path } = await cardProject();
    const accuracy = analyze(path).accuracy!;
    expect(accuracy.claim_judges['lenient']!.claim_error.value).toBeCloseTo(2 / 9, 12);
    expect(accuracy.claim_judges['lenient']!.claim_error.n).toBe(9);
    expect(accuracy.claim_judges['lenient']!.claim_error.n_summaries).toBe(2);
    const judge = accuracy.sources['lenient']!;
    expect(judge.per_summary.find((r) => r.summary_id === 'B')!.faithfulness).toBe(1);
    // The judge gave no key-fact alignment: its completeness is null, not 0.
    expect(judge.completeness).toBeNull();
    core.close();
  });
});

describe('claim edits and blind labels', () => {
  it('an edit makes a new version; labels given on version 1 stay on version 1', async () => {
    const { core } = await cardProject();
    const key = core.repository().corpus.summaryKey('card', 'B')!;
    const h = core.handlers;
    const before = await h['claims.load']({ key, annotator: 'alice' });
    expect(before.version).toBe(1);
    const first = before.sentences[0]!.claims[0]!;
    // alice sees none of card-people's labels (her own only), then labels the first claim.
    expect(before.sentences.flatMap((s) => s.claims).every((c) => c.state.label === null)).toBe(true);
    await h['claims.record']({
      claimId: first.id,
      annotator: 'alice',
      state: { label: 'unsupported', errorType: 'not_in_source', note: null },
      timeSpentMs: 900,
      cause: 'label',
    });
    // She splits the second claim in two and drops the first.
    const [v1] = await h['claims.versions']({ key });
    const second = v1!.claims[1]!;
    const edited = await h['claims.edit']({
      key,
      annotator: 'alice',
      basedOnVersion: 1,
      claims: [
        { sentenceUnitId: second.sentenceUnitId, text: 'The budget is in euros.', from: [second.id] },
        { sentenceUnitId: second.sentenceUnitId, text: 'The budget is 2.4 million.', from: [second.id] },
        ...v1!.claims.slice(2).map((c) => ({ sentenceUnitId: c.sentenceUnitId, text: c.text, from: [c.id] })),
      ],
    });
    expect(edited.version).toBe(2);
    expect(edited.source).toBe('person');
    expect(edited.claims.map((c) => c.from)).toEqual([
      [second.id],
      [second.id],
      [v1!.claims[2]!.id],
      [v1!.claims[3]!.id],
    ]);
    const after = await h['claims.load']({ key, annotator: 'alice' });
    expect(after.version).toBe(2);
    expect(after.sentences.flatMap((s) => s.claims).every((c) => c.state.label === null)).toBe(true);
    const versions = await h['claims.versions']({ key });
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    // Version 1 keeps its events: card-people's 4 and alice's 1; version 2 has none.
    expect(versions.map((v) => v.labelEvents)).toEqual([5, 0]);
    // An edit based on a stale version is refused.
    await expect(h['claims.edit']({ key, annotator: 'alice', basedOnVersion: 1, claims: [] })).rejects.toMatchObject({
      code: 'conflict',
    });
    core.close();
  });

  it('an imported label set cannot record labels on claims', async () => {
    const { core } = await cardProject();
    const key = core.repository().corpus.summaryKey('card', 'A')!;
    await expect(core.handlers['claims.load']({ key, annotator: 'card-people' })).rejects.toThrow();
    core.close();
  });
});

describe('the Markdown report', () => {
  it('has the accuracy section with each source, the unit of conciseness and the judge error', async () => {
    const { core, path } = await cardProject();
    const { renderAccuracy } = await import('../../../shared/accuracy/markdown');
    const text = renderAccuracy(analyze(path).accuracy!).join('\n\n');
    // A and B have figures (A-pool has no claims or key facts), plus system-b's failed call.
    expect(text).toContain('| human | 2 | 1 |');
    // 9 claims in 2 summaries: too few summaries for an interval.
    expect(text).toContain('| lenient | 0.222 (n = 2, too few for an interval) |');
    expect(text).toContain('| claims |');
    core.close();
  });
});
