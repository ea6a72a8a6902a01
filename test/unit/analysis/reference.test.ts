/**
 * Whose labels are the reference, by which rule, and the reveal rule.
 *
 * - The rule as a table of cases: unanimous vs majority on 2 vs 1, a 1 vs 1 tie, unclear votes,
 *   an adjudicated label overriding either (resolveHumanLabel and unitHumanLabels, the one source).
 * - The reference filter on rows (selectReferenceLabels): set first, then the reveal; review-phase
 *   events untouched; the counts.
 * - A project with FRANK's XSum labels (three imported annotators) and a person's labels, some
 *   given after a reveal, analysed through the real worker job: people / imported / both change
 *   the annotators, labels and units as counted by hand; revealed labels are left out by default
 *   and counted, and enter with includeRevealed; majority resolves FRANK's 2-vs-1 units and counts
 *   the ties a fourth voter makes; the defaults give exactly today's report.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  analyzeDataset,
  resolveHumanLabel,
  unitHumanLabels,
  type AnalysisDataset,
  type AnalysisReport,
  type CurrentLabelEvent,
  type DatasetAnalysis,
} from '../../../shared/analysis';
import { selectReferenceLabels, type ReferenceLabelEvent } from '../../../shared/analysis/reference';
import type { HumanLabel } from '../../../shared/domain';
import { createCore, type Core } from '../../../electron/core/index';
import { runImport } from '../../../electron/core/imports/run';
import { runAnalysisJob, type AnalysisJobSettings } from '../../../electron/core/analysis/job';
import { computeReport } from '../../../electron/core/analysis/compute';
import { loadAnalysisDatasets } from '../../../electron/core/analysis/load';
import { AnalysisRepository, openProjectReadOnly } from '../../../db/analysisRepository';
import { parseApiInput } from '../../../shared/api';
import { frankSummaryId, frankXsumRecords, writeFrankXsum } from '../../helpers/frank-xsum';
import { tempDir } from '../../helpers/tmp';

const F: HumanLabel = 'faithful';
const U: HumanLabel = 'unfaithful';
const C: HumanLabel = 'unclear';

describe('the human-label rule: unanimous vs majority', () => {
  type Case = [string, HumanLabel[], HumanLabel | null, [HumanLabel | null, string], [HumanLabel | null, string]];
  // name, votes, adjudicated, unanimous → [label, status], majority → [label, status]
  const cases: Case[] = [
    ['nobody', [], null, [null, 'none'], [null, 'none']],
    ['one annotator', [U], null, [U, 'single'], [U, 'single']],
    ['all agree', [F, F, F], null, [F, 'agreed'], [F, 'agreed']],
    ['all unclear', [C, C], null, [C, 'agreed'], [C, 'agreed']],
    ['2 vs 1', [F, U, F], null, [null, 'disagreement'], [F, 'majority']],
    ['1 vs 2', [U, F, U], null, [null, 'disagreement'], [U, 'majority']],
    ['1 vs 1: a tie', [F, U], null, [null, 'disagreement'], [null, 'tie']],
    ['2 vs 2: a tie', [F, U, U, F], null, [null, 'disagreement'], [null, 'tie']],
    ['an unclear vote does not vote', [F, C], null, [null, 'disagreement'], [F, 'majority']],
    ['two unclear votes do not outvote one usable label', [C, U, C], null, [null, 'disagreement'], [U, 'majority']],
    ['1 vs 1 with an unclear vote: a tie', [F, U, C], null, [null, 'disagreement'], [null, 'tie']],
    ['adjudicated overrides a majority', [F, F, U], U, [U, 'adjudicated'], [U, 'adjudicated']],
    ['adjudicated settles a tie', [F, U], F, [F, 'adjudicated'], [F, 'adjudicated']],
    ['adjudicated overrides agreement', [F, F], U, [U, 'adjudicated'], [U, 'adjudicated']],
  ];
  it.each(cases)('%s', (_name, votes, adjudicated, unanimous, majority) => {
    const ratings = Object.fromEntries(votes.map((label, i) => [`a${i}`, label]));
    const asPair = (r: { label: HumanLabel | null; status: string }) => [r.label, r.status];
    expect(asPair(resolveHumanLabel(ratings, adjudicated))).toEqual(unanimous); // the default is unanimous
    expect(asPair(resolveHumanLabel(ratings, adjudicated, 'unanimous'))).toEqual(unanimous);
    expect(asPair(resolveHumanLabel(ratings, adjudicated, 'majority'))).toEqual(majority);
    expect(asPair(resolveHumanLabel(new Map(Object.entries(ratings)), adjudicated, 'majority'))).toEqual(majority);
  });

  it('unitHumanLabels applies the rule after the audit-adjudicated label (human-human queue, ≥ 2 annotators)', () => {
    const ann = (annotator: string, label: HumanLabel): CurrentLabelEvent => ({
      annotator,
      phase: 'annotation',
      label,
      queue: null,
    });
    const votes = [ann('a', F), ann('b', F), ann('c', U)];
    expect(unitHumanLabels(votes, undefined, 'majority')).toMatchObject({ human: F, humanStatus: 'majority' });
    expect(unitHumanLabels(votes)).toMatchObject({ human: null, humanStatus: 'disagreement' });
    const decided = [...votes, { annotator: 'lead', phase: 'review', label: U, queue: 'human-human' } as const];
    expect(unitHumanLabels(decided, undefined, 'majority')).toMatchObject({ human: U, humanStatus: 'adjudicated' });
    // A suspicious-queue decision is a review label, never the audit label: the majority stands.
    const reviewed = [...votes, { annotator: 'lead', phase: 'review', label: U, queue: 'suspicious' } as const];
    expect(unitHumanLabels(reviewed, undefined, 'majority')).toMatchObject({
      human: F,
      humanStatus: 'majority',
      review: U,
    });
  });

  it('a dataset built with another rule than the settings is refused (the report would misstate it)', () => {
    const dataset: AnalysisDataset = {
      name: 'x',
      judges: [],
      summaries: [],
      reference: {
        set: 'both',
        rule: 'majority',
        includeRevealed: false,
        kinds: {},
        nLabelsOutside: 0,
        nAnnotatorsOutside: 0,
        nLabelsRevealed: 0,
      },
    };
    expect(() => analyzeDataset(dataset, { bootstrap: 0 })).toThrow(
      /loaded with human label rule majority \(settings: unanimous\)/,
    );
    expect(analyzeDataset(dataset, { bootstrap: 0, humanLabel: 'majority' }).reference.rule).toBe('majority');
  });
});

describe('selecting the reference labels', () => {
  const row = (
    annotator: string,
    kind: 'person' | 'imported',
    blind: boolean,
    label: HumanLabel | null = F,
    phase: 'annotation' | 'review' = 'annotation',
  ): ReferenceLabelEvent & { unitIndex: number } => ({
    annotator,
    kind,
    blind,
    label,
    phase,
    queue: phase === 'review' ? 'human-human' : null,
    unitIndex: 0,
  });
  const rows = [
    row('frank-0', 'imported', true),
    row('frank-1', 'imported', true, U),
    row('alice', 'person', true),
    row('alice', 'person', false, U),
    row('bob', 'person', false),
    row('lead', 'person', false, U, 'review'),
  ];

  it('keeps the set, then leaves revealed labels out unless asked, and passes review events through', () => {
    const pick = (set: 'people' | 'imported' | 'both', includeRevealed = false) =>
      selectReferenceLabels(rows, { set, rule: 'unanimous', includeRevealed });
    const names = (r: ReturnType<typeof pick>) => r.labels.map((l) => `${l.annotator}:${l.phase}`);
    const both = pick('both');
    expect(names(both)).toEqual(['frank-0:annotation', 'frank-1:annotation', 'alice:annotation', 'lead:review']);
    expect(both.reference).toMatchObject({
      nLabelsOutside: 0,
      nAnnotatorsOutside: 0,
      nLabelsRevealed: 2,
      kinds: { alice: 'person', bob: 'person', 'frank-0': 'imported', 'frank-1': 'imported' },
    });
    const people = pick('people');
    expect(names(people)).toEqual(['alice:annotation', 'lead:review']);
    expect(people.reference).toMatchObject({ nLabelsOutside: 2, nAnnotatorsOutside: 2, nLabelsRevealed: 2 });
    const imported = pick('imported');
    expect(names(imported)).toEqual(['frank-0:annotation', 'frank-1:annotation', 'lead:review']);
    expect(imported.reference).toMatchObject({ nLabelsOutside: 3, nAnnotatorsOutside: 2, nLabelsRevealed: 0 });
    const withRevealed = pick('people', true);
    expect(names(withRevealed)).toEqual(['alice:annotation', 'alice:annotation', 'bob:annotation', 'lead:review']);
    expect(withRevealed.reference).toMatchObject({ includeRevealed: true, nLabelsRevealed: 2 });
  });
});

// ───────────────────────── a project: FRANK's XSum labels + a person ─────────────────────────

const xsum = frankXsumRecords();
/** FRANK's three votes on a summary's one sentence (1 = has an error → unfaithful). */
const frankVotes = (summaryId: string): HumanLabel[] =>
  Object.values(xsum.find((r) => frankSummaryId(r) === summaryId)!.raw_annotations).map((a) =>
    a.factuality_labels[0] === 1 ? U : F,
  );

describe('the reference of a project with an imported label set and a person', () => {
  const dir = tempDir('loupe-analysis-reference-');
  const path = join(dir, 'frank-xsum.loupe');
  /** alice's labels by summary id, and which were given after the reveal. */
  const alice = new Map<string, { label: HumanLabel; blind: boolean }>();
  const reports = new Map<string, AnalysisReport>();

  const run = (settings: Partial<AnalysisJobSettings> = {}): DatasetAnalysis => {
    const full: AnalysisJobSettings = {
      bootstrap: 0,
      seed: 0,
      cap: 25,
      reference: 'both',
      humanLabel: 'unanimous',
      includeRevealed: false,
      ...settings,
    };
    const key = JSON.stringify(full);
    if (!reports.has(key))
      reports.set(key, runAnalysisJob(Database, { projectPath: path, dataset: null, settings: full }).report);
    return reports.get(key)!.datasets[0]!;
  };

  beforeAll(async () => {
    const file = writeFrankXsum(dir, xsum);
    const core: Core = createCore({
      Database,
      stateDir: dir,
      demoDir: dir,
      host: 'web',
      fileDialogs: false,
      diskPaths: false,
      canSwitchProjects: false,
    });
    core.createProject(path);
    try {
      await runImport(core.repository(), { source: { type: 'path', path: file } });
      await core.handlers['sampling.draw']({ dataset: 'frank', n: 8, seed: 0 });
      const queue = await core.handlers['annotation.queue']({ annotator: 'alice' });
      expect(queue.items).toHaveLength(8);
      const label = async (i: number, blind: boolean) => {
        const summary = await core.handlers['annotation.load']({ key: queue.items[i]!.key, annotator: 'alice' });
        // alice takes the minority side where FRANK is split (a 2–2 tie under majority), else disagrees on every other one.
        const votes = frankVotes(summary.summaryId);
        const faithful = votes.filter((v) => v === F).length;
        const value: HumanLabel =
          faithful === 1 ? F : faithful === 2 ? U : i % 2 === 0 ? (faithful === 3 ? U : F) : faithful === 3 ? F : U;
        await core.handlers['annotation.record']({
          unitId: summary.units[0]!.id,
          annotator: 'alice',
          state: { label: value, errorType: null, note: null },
          timeSpentMs: 10,
          cause: 'label',
        });
        alice.set(summary.summaryId, { label: value, blind });
      };
      // Five summaries labeled blind, then the reveal (analysis view), then three more: blind false.
      for (let i = 0; i < 5; i++) await label(i, true);
      expect(
        (await core.handlers['annotation.reveal']({ annotator: 'alice', view: 'analysis', confirmFor: 'alice' }))
          .revealed,
      ).toBe(3);
      for (let i = 5; i < 8; i++) await label(i, false);
    } finally {
      core.close();
    }
  }, 60_000);

  /** By hand: the reference's votes per summary, resolved by counting them. */
  function byHand(set: 'people' | 'imported' | 'both', includeRevealed: boolean) {
    let units = 0;
    let labels = 0;
    const outcome = { agreed: 0, single: 0, disagreement: 0, majority: 0, tie: 0 };
    for (const r of xsum) {
      const id = frankSummaryId(r);
      const votes: HumanLabel[] = set === 'people' ? [] : frankVotes(id);
      const mine = alice.get(id);
      if (mine && set !== 'imported' && (mine.blind || includeRevealed)) votes.push(mine.label);
      if (votes.length === 0) continue;
      units += 1;
      labels += votes.length;
      const f = votes.filter((v) => v === F).length;
      const u = votes.length - f;
      if (votes.length === 1) outcome.single += 1;
      else if (f === 0 || u === 0) outcome.agreed += 1;
      else {
        outcome.disagreement += 1;
        if (f === u) outcome.tie += 1;
        else outcome.majority += 1;
      }
    }
    return { units, labels, ...outcome };
  }

  it("both (default): FRANK's three and alice, her revealed labels left out and counted", () => {
    const d = run();
    const hand = byHand('both', false);
    expect(d.reference).toMatchObject({
      set: 'both',
      rule: 'unanimous',
      include_revealed: false,
      n_annotators: 4,
      n_labels: 64 * 3 + 5,
    });
    expect(d.reference.annotators.map((a) => [a.name, a.kind, a.n_labels])).toEqual([
      ['alice', 'person', 5],
      ['frank-0', 'imported', 64],
      ['frank-1', 'imported', 64],
      ['frank-2', 'imported', 64],
    ]);
    expect([
      d.reference.n_labels_revealed,
      d.reference.n_labels_revealed_excluded,
      d.reference.n_labels_outside_reference,
    ]).toEqual([3, 3, 0]);
    expect(d.reference.n_units_disagreement).toBe(hand.disagreement);
    expect(d.all_units.human.n_unresolved).toBe(hand.disagreement);
    expect(d.all_units.p_hat.n).toBe(hand.agreed + hand.single);
  });

  it("people: only alice; FRANK's labels are outside the reference", () => {
    const d = run({ reference: 'people' });
    expect(d.reference).toMatchObject({
      set: 'people',
      n_annotators: 1,
      n_labels: 5,
      n_annotators_outside_reference: 3,
      n_labels_outside_reference: 192,
      n_labels_revealed_excluded: 3,
    });
    expect(d.all_units.n_summaries).toBe(5);
    expect(d.agreement.humans.raters).toEqual(['alice']);
    const truth = [...alice.values()].filter((a) => a.blind);
    expect(d.all_units.p_hat.value).toBe(truth.filter((a) => a.label === F).length / truth.length);
  });

  it("imported: only FRANK; alice's labels are outside and none counts as revealed", () => {
    const d = run({ reference: 'imported' });
    const hand = byHand('imported', false);
    expect(d.reference).toMatchObject({
      set: 'imported',
      n_annotators: 3,
      n_labels: 192,
      n_annotators_outside_reference: 1,
      n_labels_outside_reference: 8,
      n_labels_revealed: 0,
    });
    expect(d.all_units.n_summaries).toBe(64);
    expect(d.all_units.human.n_unresolved).toBe(hand.disagreement);
    expect(d.agreement.humans.raters).toEqual(['frank-0', 'frank-1', 'frank-2']);
  });

  it("includeRevealed: alice's labels after the reveal enter, still counted", () => {
    const d = run({ reference: 'people', includeRevealed: true });
    expect(d.reference).toMatchObject({
      include_revealed: true,
      n_labels: 8,
      n_labels_revealed: 3,
      n_labels_revealed_excluded: 0,
    });
    expect(d.all_units.n_summaries).toBe(8);
  });

  it("majority: FRANK's 2-vs-1 units resolve, the ties alice makes stay unresolved and are counted", () => {
    const imported = run({ reference: 'imported', humanLabel: 'majority' });
    const handImported = byHand('imported', false);
    expect(handImported.tie).toBe(0); // three binary votes never tie
    expect(imported.reference).toMatchObject({
      rule: 'majority',
      n_units_majority: handImported.majority,
      n_units_tied: 0,
      n_units_disagreement: 0,
    });
    expect(imported.all_units.human.n_unresolved).toBe(0);
    expect(imported.all_units.p_hat.n).toBe(64);
    const both = run({ reference: 'both', humanLabel: 'majority' });
    const hand = byHand('both', false);
    expect(hand.tie).toBeGreaterThan(0);
    expect(both.reference).toMatchObject({ n_units_majority: hand.majority, n_units_tied: hand.tie });
    expect(both.all_units.human.n_unresolved).toBe(hand.tie);
    // By hand, FRANK's majority label (≥ 2 of 3 say an error → unfaithful) gives p̂ on the imported reference.
    const faithful = xsum.filter(
      (r) => Object.values(r.raw_annotations).filter((a) => a.factuality_labels[0] === 1).length < 2,
    ).length;
    expect(imported.all_units.p_hat.value).toBe(faithful / 64);
    expect(both.reference.rule).toBe('majority');
  });

  it("the defaults of analysis.start are today's: both sets, unanimous, revealed labels left out; the report says so", () => {
    const parsed = parseApiInput('analysis.start', { bootstrap: 50, seed: 1 });
    if (!parsed.ok) throw new Error(parsed.error.message);
    const { reference, humanLabel, includeRevealed } = parsed.value;
    expect({ reference, humanLabel, includeRevealed }).toEqual({
      reference: 'both',
      humanLabel: 'unanimous',
      includeRevealed: false,
    });
    const report = runAnalysisJob(Database, {
      projectPath: path,
      dataset: null,
      settings: { bootstrap: 50, seed: 1, cap: 25, reference, humanLabel, includeRevealed },
    }).report;
    expect(report.settings).toMatchObject({ human_label: 'unanimous', reference: 'both', include_revealed: false });
    // The loader's default path (no options) is the same report.
    const ro = openProjectReadOnly(Database, path);
    try {
      expect(
        computeReport(loadAnalysisDatasets(new AnalysisRepository(ro), null), { bootstrap: 50, seed: 1, cap: 25 })
          .report,
      ).toEqual(report);
    } finally {
      ro.close();
    }
    expect(report.definitions.human_label).toMatch(/majority = the adjudicated label, else the mode of the usable/);
    expect(report.definitions.revealed_labels).toMatch(/blind: false/);
    // And the contract refuses an unknown rule or set.
    expect(parseApiInput('analysis.start', { humanLabel: 'mode' }).ok).toBe(false);
    expect(parseApiInput('analysis.start', { reference: 'everyone' }).ok).toBe(false);
  });
});
