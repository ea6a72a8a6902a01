/**
 * Faithfulness, completeness and conciseness (the Summarization Accuracy card / FineSurE; docs/methods.md, "Claims and key facts") from
 * people and from each judge, per summary, per dataset and per system, with summary-bootstrap
 * CIs; judge error at claim and key-fact level; App. D on claim units; the comparison of systems
 * by one source (shared/stats/system-comparison.ts). Pure: plain rows in, plain numbers out.
 *
 * Per summary (unclear or unresolved items are left out of numerator and denominator):
 * - faithfulness = supported claims / claims with a verdict;
 * - completeness = covered key facts / key facts with a verdict;
 * - conciseness, one per summary on the source's basis (`conciseness_basis`): "claims" (the card)
 *   when the source links claims to the key facts they convey anywhere in the dataset = claims
 *   that convey a covered key fact / claims; else "sentences" (FineSurE's scripts) when it links
 *   sentences or labels sentences = sentences that convey a key fact / sentences. Defined for a
 *   summary whose key facts the source judged (or whose sentences it labeled): 0.0 when nothing
 *   conveys a key fact (zero is not undefined); undefined only on a 0 denominator. A claim's
 *   support verdict does not matter here (unclear is per judgement: an unclear claim still counts);
 * - a document for which a system produced no summary: 0.0 on all three, for every source.
 * People's labels resolve by the --human-label rule (shared/analysis/human-label.ts; majority =
 * FineSurE's aggregation), mapping supported/covered/conveys to faithful and their opposites to
 * unfaithful.
 */
import type { HumanLabel } from '../domain';
import { resolveHumanLabel } from '../analysis/human-label';
import type { Estimate } from '../stats/estimate';
import type { HumanLabelRule, ReferenceSet } from '../analysis/human-label';
import { drawReplicates, estimateOf, meanEstimate, percentileInterval } from '../stats/bootstrap';
import { tooFewToEstimate } from '../stats/estimate';
import { createStream } from '../stats/prng';
import {
  chooseComparisonSource,
  compareSystems,
  pairedDocuments,
  type SystemComparison,
} from '../stats/system-comparison';
import { kendallTauB, pearson, rocAuc, spearman } from '../stats/correlation';
import type { ClaimErrorType, ClaimLabel, ConcisenessBasis, KeyFactLabel, SystemFailure } from './domain';
import type {
  AccuracyBlock,
  ClaimReviewEntry,
  ClaimUnitsJudge,
  JudgeItemError,
  PerSummaryAccuracy,
  SourceAccuracy,
  SystemAccuracy,
} from './report';
import { agree, plural } from '../words';

export const HUMAN_SOURCE = 'human';

export interface Refs {
  claims: number[];
  sentences: number[];
}

/** One dataset's accuracy material (db/accuracySnapshot.ts datasetRows has this shape). */
export interface AccuracyInput {
  summaries: ReadonlyArray<{
    key: number;
    summaryId: string;
    docId: string;
    documentKey: number;
    system: string | null;
    sentences: ReadonlyArray<{ unitId: number; index: number; text: string }>;
  }>;
  claims: ReadonlyMap<number, ReadonlyArray<{ id: number; sentenceUnitId: number; text: string }>>;
  keyFacts: ReadonlyMap<number, { setId: number; facts: ReadonlyArray<{ id: number; text: string }> }>;
  claimLabels: ReadonlyArray<{
    claimId: number;
    annotator: string;
    annotatorKind: 'person' | 'imported';
    label: ClaimLabel | null;
    blind: boolean;
  }>;
  keyFactLabels: ReadonlyArray<{
    keyFactId: number;
    summaryKey: number;
    annotator: string;
    annotatorKind: 'person' | 'imported';
    label: KeyFactLabel | null;
    conveyedBy: Refs;
    blind: boolean;
  }>;
  sentenceKeyFactLabels: ReadonlyArray<{
    unitId: number;
    keyFactSetId: number;
    annotator: string;
    annotatorKind: 'person' | 'imported';
    conveys: boolean;
  }>;
  claimPredictions: ReadonlyArray<{
    claimId: number;
    judge: string;
    supported: boolean;
    errorType: ClaimErrorType | null;
  }>;
  keyFactPredictions: ReadonlyArray<{
    keyFactId: number;
    summaryKey: number;
    judge: string;
    covered: boolean;
    conveyedBy: Refs;
  }>;
  sentenceKeyFactPredictions: ReadonlyArray<{ unitId: number; keyFactSetId: number; judge: string; conveys: boolean }>;
  failures: ReadonlyArray<{ docId: string; system: string; failure: SystemFailure }>;
}

export interface AccuracySettings {
  bootstrap: number;
  seed: number;
  humanLabel: HumanLabelRule;
  reference: ReferenceSet;
  includeRevealed: boolean;
  /** The dataset's name (the bootstrap streams are named after it). */
  dataset: string;
  /** App. D: each summary's resolved human sentence labels, by summary id, in sentence order. */
  sentenceHuman?: ReadonlyMap<string, ReadonlyArray<HumanLabel | null>>;
  /** The source systems are compared by ("human" or a judge); null: the default choice (chooseComparisonSource). */
  compareSource?: string | null;
}

/** What one source (people or a judge) says about one summary's items. */
interface SourceView {
  /** claim id → supported (true) / unsupported (false); absent: no usable verdict. */
  claims: Map<number, boolean>;
  /** key-fact id → covered; absent: no usable verdict. */
  facts: Map<number, boolean>;
  /** Claim ids / sentence unit ids the source links to a covered key fact. */
  conveyingClaims: Set<number>;
  conveyingSentences: Set<number>;
  /** unit id → conveys (explicit sentence labels). */
  sentenceConveys: Map<number, boolean>;
}

const ratio = (num: number, den: number): number | null => (den === 0 ? null : num / den);

function emptyView(): SourceView {
  return {
    claims: new Map(),
    facts: new Map(),
    conveyingClaims: new Set(),
    conveyingSentences: new Set(),
    sentenceConveys: new Map(),
  };
}

function inReference(kind: 'person' | 'imported', reference: ReferenceSet): boolean {
  return reference === 'both' || (reference === 'people' ? kind === 'person' : kind === 'imported');
}

/** Resolve votes (true = supported/covered/conveys) by the rule; null when unresolved or unclear. */
function resolveVotes(votes: ReadonlyMap<string, HumanLabel>, rule: HumanLabelRule): boolean | null {
  const resolved = resolveHumanLabel(votes, null, rule);
  return resolved.label === 'faithful' ? true : resolved.label === 'unfaithful' ? false : null;
}

/** The source's conciseness basis over the dataset: claims when it links any claim, else sentences when it links or labels any sentence. */
function concisenessBasis(views: Iterable<SourceView>): ConcisenessBasis | null {
  let sentences = false;
  for (const v of views) {
    if (v.conveyingClaims.size > 0) return 'claims';
    if (v.conveyingSentences.size > 0 || v.sentenceConveys.size > 0) sentences = true;
  }
  return sentences ? 'sentences' : null;
}

function perSummaryFigures(
  s: AccuracyInput['summaries'][number],
  claims: ReadonlyArray<{ id: number; sentenceUnitId: number }>,
  facts: ReadonlyArray<{ id: number }>,
  v: SourceView,
  basis: ConcisenessBasis | null,
) {
  let supported = 0;
  let judged = 0;
  for (const c of claims) {
    const verdict = v.claims.get(c.id);
    if (verdict === undefined) continue;
    judged += 1;
    if (verdict) supported += 1;
  }
  let covered = 0;
  let factsJudged = 0;
  for (const f of facts) {
    const verdict = v.facts.get(f.id);
    if (verdict === undefined) continue;
    factsJudged += 1;
    if (verdict) covered += 1;
  }
  return {
    faithfulness: ratio(supported, judged),
    completeness: ratio(covered, factsJudged),
    conciseness: conciseness(s, claims, v, basis, factsJudged > 0),
  };
}

/** The module comment's conciseness of one summary; `judgedFacts`: the source judged at least one of its key facts. */
function conciseness(
  s: AccuracyInput['summaries'][number],
  claims: ReadonlyArray<{ id: number; sentenceUnitId: number }>,
  v: SourceView,
  basis: ConcisenessBasis | null,
  judgedFacts: boolean,
): number | null {
  if (basis === 'claims')
    return judgedFacts ? ratio(claims.filter((c) => v.conveyingClaims.has(c.id)).length, claims.length) : null;
  if (basis !== 'sentences') return null;
  if (v.sentenceConveys.size > 0) {
    const known = s.sentences.filter((u) => v.sentenceConveys.has(u.unitId));
    return ratio(known.filter((u) => v.sentenceConveys.get(u.unitId)).length, known.length);
  }
  if (!judgedFacts) return null;
  const bySentence = new Set(v.conveyingSentences);
  for (const c of claims) if (v.conveyingClaims.has(c.id)) bySentence.add(c.sentenceUnitId);
  return ratio(s.sentences.filter((u) => bySentence.has(u.unitId)).length, s.sentences.length);
}

export const ACCURACY_METRICS = ['faithfulness', 'completeness', 'conciseness'] as const;
type MetricName = (typeof ACCURACY_METRICS)[number];

/** Resamples of n entries from the stream named by (seed, purpose…). */
const replicatesOf = (n: number, bootstrap: number, ...stream: string[]): Int32Array[] =>
  drawReplicates(n, bootstrap, () => createStream(Number(stream[0]), ...stream.slice(1)));

/** Ratio of sums (mismatches / items) with a CI resampling summaries. */
function itemError(
  perSummary: ReadonlyArray<{ wrong: number; n: number }>,
  replicates: ReadonlyArray<Int32Array>,
): JudgeItemError {
  const total = (counts: ArrayLike<number> | null) => {
    let wrong = 0;
    let n = 0;
    perSummary.forEach((s, i) => {
      const c = counts ? counts[i]! : 1;
      wrong += c * s.wrong;
      n += c * s.n;
    });
    return n === 0 ? Number.NaN : wrong / n;
  };
  const n = perSummary.reduce((a, s) => a + s.n, 0);
  const summaries = perSummary.filter((s) => s.n > 0).length;
  const interval =
    replicates.length > 0 && !tooFewToEstimate(summaries) ? percentileInterval(replicates.map((c) => total(c))) : null;
  return { ...estimateOf(n === 0 ? Number.NaN : total(null), interval, n, summaries), n_summaries: summaries };
}

export function computeAccuracy(input: AccuracyInput, settings: AccuracySettings): AccuracyBlock | null {
  const hasMaterial = input.claims.size > 0 || input.keyFacts.size > 0 || input.failures.length > 0;
  if (!hasMaterial) return null;
  const notes: string[] = [];
  const seed = String(settings.seed);

  // --- people: resolve each item's current labels by the rule --------------------------------
  const usable = <T extends { annotatorKind: 'person' | 'imported'; blind?: boolean }>(rows: readonly T[]) =>
    rows.filter(
      (r) => inReference(r.annotatorKind, settings.reference) && (settings.includeRevealed || r.blind !== false),
    );
  const claimVotes = new Map<number, Map<string, HumanLabel>>();
  for (const l of usable(input.claimLabels)) {
    if (l.label === null) continue;
    const votes = claimVotes.get(l.claimId) ?? new Map<string, HumanLabel>();
    votes.set(l.annotator, l.label === 'supported' ? 'faithful' : l.label === 'unsupported' ? 'unfaithful' : 'unclear');
    claimVotes.set(l.claimId, votes);
  }
  const factVotes = new Map<string, Map<string, HumanLabel>>();
  const factConveyed = new Map<string, Refs[]>();
  for (const l of usable(input.keyFactLabels)) {
    if (l.label === null) continue;
    const k = `${l.summaryKey}:${l.keyFactId}`;
    const votes = factVotes.get(k) ?? new Map<string, HumanLabel>();
    votes.set(l.annotator, l.label === 'covered' ? 'faithful' : 'unfaithful');
    factVotes.set(k, votes);
    if (l.label === 'covered') factConveyed.set(k, [...(factConveyed.get(k) ?? []), l.conveyedBy]);
  }
  const sentenceVotes = new Map<string, Map<string, HumanLabel>>();
  for (const l of usable(input.sentenceKeyFactLabels)) {
    const k = `${l.keyFactSetId}:${l.unitId}`;
    const votes = sentenceVotes.get(k) ?? new Map<string, HumanLabel>();
    votes.set(l.annotator, l.conveys ? 'faithful' : 'unfaithful');
    sentenceVotes.set(k, votes);
  }
  let unresolved = 0;

  const humanView = (s: AccuracyInput['summaries'][number]): SourceView => {
    const v = emptyView();
    for (const c of input.claims.get(s.key) ?? []) {
      const votes = claimVotes.get(c.id);
      if (!votes) continue;
      const r = resolveVotes(votes, settings.humanLabel);
      if (r === null && [...votes.values()].some((x) => x !== 'unclear')) unresolved += 1;
      if (r !== null) v.claims.set(c.id, r);
    }
    const kf = input.keyFacts.get(s.documentKey);
    for (const f of kf?.facts ?? []) {
      const k = `${s.key}:${f.id}`;
      const votes = factVotes.get(k);
      if (!votes) continue;
      const r = resolveVotes(votes, settings.humanLabel);
      if (r === null) unresolved += 1;
      else v.facts.set(f.id, r);
      if (r === true) {
        for (const refs of factConveyed.get(k) ?? []) {
          refs.claims.forEach((id) => v.conveyingClaims.add(id));
          refs.sentences.forEach((id) => v.conveyingSentences.add(id));
        }
      }
    }
    if (kf) {
      for (const u of s.sentences) {
        const votes = sentenceVotes.get(`${kf.setId}:${u.unitId}`);
        if (!votes) continue;
        const r = resolveVotes(votes, settings.humanLabel);
        if (r === null) unresolved += 1;
        else v.sentenceConveys.set(u.unitId, r);
      }
    }
    return v;
  };

  // --- judges ----------------------------------------------------------------------------------
  const judges = [
    ...new Set([
      ...input.claimPredictions.map((p) => p.judge),
      ...input.keyFactPredictions.map((p) => p.judge),
      ...input.sentenceKeyFactPredictions.map((p) => p.judge),
    ]),
  ].sort();
  const claimPred = new Map<string, Map<number, boolean>>();
  for (const p of input.claimPredictions) {
    const m = claimPred.get(p.judge) ?? new Map<number, boolean>();
    m.set(p.claimId, p.supported);
    claimPred.set(p.judge, m);
  }
  const factPred = new Map<string, Map<string, { covered: boolean; conveyedBy: Refs }>>();
  for (const p of input.keyFactPredictions) {
    const m = factPred.get(p.judge) ?? new Map<string, { covered: boolean; conveyedBy: Refs }>();
    m.set(`${p.summaryKey}:${p.keyFactId}`, { covered: p.covered, conveyedBy: p.conveyedBy });
    factPred.set(p.judge, m);
  }
  const sentencePred = new Map<string, Map<string, boolean>>();
  for (const p of input.sentenceKeyFactPredictions) {
    const m = sentencePred.get(p.judge) ?? new Map<string, boolean>();
    m.set(`${p.keyFactSetId}:${p.unitId}`, p.conveys);
    sentencePred.set(p.judge, m);
  }
  const judgeView = (judge: string, s: AccuracyInput['summaries'][number]): SourceView => {
    const v = emptyView();
    const cp = claimPred.get(judge);
    for (const c of input.claims.get(s.key) ?? []) {
      const x = cp?.get(c.id);
      if (x !== undefined) v.claims.set(c.id, x);
    }
    const kf = input.keyFacts.get(s.documentKey);
    const fp = factPred.get(judge);
    for (const f of kf?.facts ?? []) {
      const x = fp?.get(`${s.key}:${f.id}`);
      if (x === undefined) continue;
      v.facts.set(f.id, x.covered);
      if (x.covered) {
        x.conveyedBy.claims.forEach((id) => v.conveyingClaims.add(id));
        x.conveyedBy.sentences.forEach((id) => v.conveyingSentences.add(id));
      }
    }
    const sp = sentencePred.get(judge);
    if (kf && sp) {
      for (const u of s.sentences) {
        const x = sp.get(`${kf.setId}:${u.unitId}`);
        if (x !== undefined) v.sentenceConveys.set(u.unitId, x);
      }
    }
    return v;
  };

  // --- one source's block ---------------------------------------------------------------------
  // Entries: every summary, then every failed call; the same order (and resamples) for every source.
  const entries: Array<{
    summary: AccuracyInput['summaries'][number] | null;
    docId: string;
    system: string | null;
    failure: boolean;
  }> = [
    ...input.summaries.map((s) => ({ summary: s, docId: s.docId, system: s.system, failure: false })),
    ...input.failures.map((f) => ({ summary: null, docId: f.docId, system: f.system, failure: true })),
  ];
  const replicates = replicatesOf(entries.length, settings.bootstrap, seed, 'accuracy', settings.dataset);
  const systems = [...new Set(entries.map((e) => e.system).filter((s): s is string => s !== null))].sort();
  const systemReplicates = new Map(
    systems.map((system) => [
      system,
      replicatesOf(
        entries.filter((e) => e.system === system).length,
        settings.bootstrap,
        seed,
        'accuracy-system',
        settings.dataset,
        system,
      ),
    ]),
  );

  const sourceBlock = (view: (s: AccuracyInput['summaries'][number]) => SourceView): SourceAccuracy => {
    const basis = concisenessBasis(input.summaries.map(view));
    const rows: PerSummaryAccuracy[] = entries.map((e) => {
      if (e.failure || e.summary === null)
        return {
          summary_id: null,
          doc_id: e.docId,
          system: e.system,
          faithfulness: 0,
          completeness: 0,
          conciseness: 0,
          conciseness_basis: basis,
          failed: true,
        };
      const s = e.summary;
      const f = perSummaryFigures(
        s,
        input.claims.get(s.key) ?? [],
        input.keyFacts.get(s.documentKey)?.facts ?? [],
        view(s),
        basis,
      );
      return {
        summary_id: s.summaryId,
        doc_id: s.docId,
        system: s.system,
        ...f,
        conciseness_basis: f.conciseness === null ? null : basis,
        failed: false,
      };
    });
    // A metric the source never gives stays null, failures included (a 0.0 only counts where the metric exists).
    for (const m of ACCURACY_METRICS) {
      if (rows.some((r) => !r.failed && r[m] !== null)) continue;
      for (const r of rows) if (r.failed) r[m] = null;
    }
    for (const r of rows) if (r.failed && r.conciseness === null) r.conciseness_basis = null;
    const estimates = Object.fromEntries(
      ACCURACY_METRICS.map((m) => [
        m,
        meanEstimate(
          rows.map((r) => r[m]),
          replicates,
        ),
      ]),
    ) as Record<MetricName, Estimate | null>;
    const bySystem: Record<string, SystemAccuracy> = {};
    for (const system of systems) {
      const subset = rows.filter((r) => r.system === system);
      const reps = systemReplicates.get(system) ?? [];
      const est = (m: MetricName) =>
        meanEstimate(
          subset.map((r) => r[m]),
          reps,
        );
      bySystem[system] = {
        n_summaries: subset.filter((r) => !r.failed).length,
        n_failed: subset.filter((r) => r.failed).length,
        faithfulness: est('faithfulness'),
        completeness: est('completeness'),
        conciseness: est('conciseness'),
      };
    }
    const withFigures = rows.filter((r) => ACCURACY_METRICS.some((m) => r[m] !== null));
    return {
      n_summaries: withFigures.filter((r) => !r.failed).length,
      n_failed: rows.filter((r) => r.failed).length,
      faithfulness: estimates.faithfulness,
      completeness: estimates.completeness,
      conciseness: estimates.conciseness,
      conciseness_basis: estimates.conciseness === null ? null : basis,
      per_summary: rows,
      by_system: bySystem,
    };
  };

  const humanViews = new Map(input.summaries.map((s) => [s.key, humanView(s)]));
  const sources: Record<string, SourceAccuracy> = { [HUMAN_SOURCE]: sourceBlock((s) => humanViews.get(s.key)!) };
  for (const judge of judges) sources[judge] = sourceBlock((s) => judgeView(judge, s));
  if (unresolved > 0) {
    notes.push(
      `${plural(unresolved, 'claim, key-fact or sentence label')} of people ${agree(unresolved, 'was', 'were')} unresolved by the "${settings.humanLabel}" rule and left out.`,
    );
  }
  notes.push(
    `People's labels: reference "${settings.reference}", rule "${settings.humanLabel}"${settings.includeRevealed ? ', labels given after a reveal included' : ''}. Conciseness: claim units where the source links claims to key facts, else sentence units (conciseness_basis).`,
  );

  // --- the comparison of systems by one source ------------------------------------------------
  const candidates = Object.entries(sources)
    .filter(([, s]) => s.n_summaries + s.n_failed > 0)
    .map(([source, s]) => ({ source, n_documents: pairedDocuments(s.per_summary, ACCURACY_METRICS) }));
  const choice = chooseComparisonSource(candidates, settings.compareSource ?? null);
  const comparison: SystemComparison | null =
    choice.source === null
      ? null
      : compareSystems({
          source: choice.source,
          rows: sources[choice.source]!.per_summary,
          metrics: ACCURACY_METRICS,
          mean: (system, metric) => sources[choice.source!]!.by_system[system]?.[metric] ?? null,
          bootstrap: settings.bootstrap,
          pairStream: (metric, a, b) => () =>
            createStream(settings.seed, 'accuracy-comparison', settings.dataset, choice.source!, metric, a, b),
        });

  // --- judge error vs people ------------------------------------------------------------------
  const errorReplicates = replicatesOf(
    input.summaries.length,
    settings.bootstrap,
    seed,
    'accuracy-judge-error',
    settings.dataset,
  );
  const claimJudges: AccuracyBlock['claim_judges'] = {};
  const keyfactJudges: AccuracyBlock['keyfact_judges'] = {};
  for (const judge of judges) {
    if (claimPred.has(judge)) {
      const per = input.summaries.map((s) => {
        const human = humanViews.get(s.key)!;
        let wrong = 0;
        let n = 0;
        for (const c of input.claims.get(s.key) ?? []) {
          const h = human.claims.get(c.id);
          const j = claimPred.get(judge)!.get(c.id);
          if (h === undefined || j === undefined) continue;
          n += 1;
          if (h !== j) wrong += 1;
        }
        return { wrong, n };
      });
      claimJudges[judge] = { claim_error: itemError(per, errorReplicates) };
    }
    if (factPred.has(judge)) {
      const per = input.summaries.map((s) => {
        const human = humanViews.get(s.key)!;
        let wrong = 0;
        let n = 0;
        for (const f of input.keyFacts.get(s.documentKey)?.facts ?? []) {
          const h = human.facts.get(f.id);
          const j = factPred.get(judge)!.get(`${s.key}:${f.id}`);
          if (h === undefined || j === undefined) continue;
          n += 1;
          if (h !== j.covered) wrong += 1;
        }
        return { wrong, n };
      });
      keyfactJudges[judge] = { alignment_error: itemError(per, errorReplicates) };
    }
  }

  return {
    sources,
    keyfact_judges: keyfactJudges,
    claim_judges: claimJudges,
    claim_units: claimUnits(input, settings, [...claimPred.keys()].sort(), claimPred),
    comparison,
    comparison_sources: candidates,
    comparison_note: choice.note,
    notes,
  };
}

/** App. D: the sentence's human label as the global label, its claims as units (min and mean of the judge's verdicts). */
function claimUnits(
  input: AccuracyInput,
  settings: AccuracySettings,
  judges: string[],
  claimPred: Map<string, Map<number, boolean>>,
): AccuracyBlock['claim_units'] {
  const sentences: Array<{
    summaryIndex: number;
    summaryId: string;
    index: number;
    text: string;
    human: 0 | 1;
    claims: ReadonlyArray<{ id: number; text: string }>;
  }> = [];
  input.summaries.forEach((s, summaryIndex) => {
    const labels = settings.sentenceHuman?.get(s.summaryId);
    const claims = input.claims.get(s.key) ?? [];
    for (const u of s.sentences) {
      const label = labels?.[u.index] ?? null;
      if (label !== 'faithful' && label !== 'unfaithful') continue;
      const mine = claims.filter((c) => c.sentenceUnitId === u.unitId);
      if (mine.length === 0) continue;
      sentences.push({
        summaryIndex,
        summaryId: s.summaryId,
        index: u.index,
        text: u.text,
        human: label === 'faithful' ? 1 : 0,
        claims: mine,
      });
    }
  });
  const summaryCount = input.summaries.length;
  const reps = replicatesOf(
    summaryCount,
    settings.bootstrap,
    String(settings.seed),
    'accuracy-claim-units',
    settings.dataset,
  );
  const out: Record<string, ClaimUnitsJudge> = {};
  for (const judge of judges) {
    const p = claimPred.get(judge)!;
    const rows = sentences
      .filter((s) => s.claims.length >= 2 && s.claims.every((c) => p.has(c.id)))
      .map((s) => {
        const v = s.claims.map((c) => (p.get(c.id) ? 1 : 0));
        return {
          summaryIndex: s.summaryIndex,
          human: s.human,
          min: Math.min(...v),
          mean: v.reduce((a: number, b: number) => a + b, 0) / v.length,
        };
      });
    const cell = (agg: 'min' | 'mean') => {
      const stat = (f: (x: number[], y: number[]) => number | null, counts: Int32Array | null): number => {
        const x: number[] = [];
        const y: number[] = [];
        for (const r of rows) {
          const c = counts ? counts[r.summaryIndex]! : 1;
          for (let k = 0; k < c; k += 1) {
            x.push(r[agg]);
            y.push(r.human);
          }
        }
        const v = x.length === 0 ? null : f(x, y);
        return v === null ? Number.NaN : v;
      };
      // The resampling units are the summaries the sentences belong to.
      const summaries = new Set(rows.map((r) => r.summaryIndex)).size;
      const estimate = (f: (x: number[], y: number[]) => number | null): Estimate => {
        const interval =
          reps.length > 0 && !tooFewToEstimate(summaries) ? percentileInterval(reps.map((c) => stat(f, c))) : null;
        return estimateOf(stat(f, null), interval, rows.length, summaries);
      };
      return {
        pearson: estimate(pearson),
        spearman: estimate(spearman),
        kendall: estimate(kendallTauB),
        roc_auc: estimate((x, y) => rocAuc(x, y)),
      };
    };
    out[judge] = { n_sentences: rows.length, min: cell('min'), mean: cell('mean') };
  }
  // D.4: human-faithful sentences where every judge flags at least one claim unsupported.
  const faithful = sentences.filter(
    (s) =>
      s.human === 1 && judges.length > 0 && judges.every((j) => s.claims.every((c) => claimPred.get(j)!.has(c.id))),
  );
  const queue: ClaimReviewEntry[] = faithful
    .filter((s) => judges.every((j) => s.claims.some((c) => claimPred.get(j)!.get(c.id) === false)))
    .map((s) => ({
      summary_id: s.summaryId,
      sentence_index: s.index,
      sentence: s.text,
      flagged_claims: s.claims
        .filter((c) => judges.some((j) => claimPred.get(j)!.get(c.id) === false))
        .map((c) => c.text),
    }))
    .sort((a, b) =>
      a.summary_id < b.summary_id ? -1 : a.summary_id > b.summary_id ? 1 : a.sentence_index - b.sentence_index,
    );
  return { judges: out, review_queue: queue, human_faithful_sentences: faithful.length };
}
