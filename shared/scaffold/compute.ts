/**
 * The `scaffold` block of one dataset, pure: per source (people as "human", each judge
 * by name) every aligned summary's metrics (shared/scaffold/metrics.ts), per-system and dataset
 * means with summary-bootstrap CIs, and the model comparison (shared/scaffold/comparison.ts).
 *
 * Which alignments: each aligner's current alignment of a summary, on the highest scaffold version
 * it aligned that summary on (an edit makes a new version; alignments on older ones are not mixed
 * in). People: those of the reference set (person / imported annotators); a person's alignment
 * of a summary with any item aligned after a reveal only with includeRevealed; a summary aligned by several people gets the mean of their
 * per-summary metrics (each metric over the people for whom it is defined).
 * Streams: xoshiro128** seeded by (seed, "loupe-scaffold-v1", dataset, source, purpose) with
 * purpose "means", "system\0<system>" or "pair\0<metric>\0<a>\0<b>".
 */
import type { ReferenceSet } from '../analysis/human-label';
import { createStream } from '../stats/prng';
import { drawReplicates, meanEstimate, percentileInterval } from '../stats/bootstrap';
import { compareSystems, type SystemValues } from './comparison';
import type { ScaffoldInput } from './input';
import { COMPARED_METRICS, SCAFFOLD_METRICS, scoreSummary, type ComparedMetric, type ScaffoldScores, type ScoredItem } from './metrics';
import type { ScaffoldItemKind } from './domain';
import type { AlignmentError, JudgeVsPeople, MetricComparisons, ScaffoldBlock, ScaffoldMeans, ScaffoldSourceReport, ScaffoldSummaryRow } from './report';

export interface ScaffoldOptions {
  bootstrap: number;
  seed: number;
  dataset: string;
  reference: ReferenceSet;
  includeRevealed: boolean;
}

export const SCAFFOLD_STREAM = 'loupe-scaffold-v1';

type Aligned = Map<number, { value: ScoredItem['value']; sentences: number[] }>;

export function computeScaffold(input: ScaffoldInput, options: ScaffoldOptions): ScaffoldBlock | null {
  if (input.scaffolds.length === 0) return null;
  const scaffolds = new Map(input.scaffolds.map((s) => [s.id, s]));
  const itemKinds = new Map(input.scaffolds.flatMap((s) => s.items.map((i) => [i.id, i.kind] as const)));
  const summaries = new Map(input.summaries.map((s) => [s.key, s]));
  const notes: string[] = [];

  // source key → summary key → aligner → scaffold id → item id → value
  const bySource = new Map<string, Map<number, Map<string, Map<number, Aligned>>>>();
  // A person's alignment of a summary with any item aligned after a reveal is left out whole
  // (leaving out only those items would count them as not kept).
  const inReference = (a: ScaffoldInput['alignments'][number]) => options.reference === 'both' || (options.reference === 'people' ? a.annotatorKind === 'person' : a.annotatorKind === 'imported');
  const leftOutRevealed = new Set<string>();
  if (!options.includeRevealed) for (const a of input.alignments) if (a.source.startsWith('human:') && inReference(a) && !a.blind) leftOutRevealed.add(`${a.summaryKey}\u0000${a.source}`);
  for (const a of input.alignments) {
    let source: string;
    if (a.source.startsWith('human:')) {
      if (!inReference(a)) continue;
      if (leftOutRevealed.has(`${a.summaryKey}\u0000${a.source}`)) continue;
      source = 'human';
    } else {
      const name = a.source.slice('judge:'.length);
      source = name === 'human' ? a.source : name;
    }
    const perSummary = getOrSet(bySource, source, () => new Map());
    const perAligner = getOrSet(perSummary, a.summaryKey, () => new Map());
    const perScaffold = getOrSet(perAligner, a.source, () => new Map());
    getOrSet(perScaffold, a.scaffoldId, () => new Map()).set(a.itemId, { value: a.value, sentences: a.sentences });
  }
  if (leftOutRevealed.size > 0) notes.push(`${leftOutRevealed.size} (summary, person) alignment(s) with items aligned after a reveal left out (include_revealed is off).`);

  // Direct scores (App. G.7): judge → summary key → score; people's rows take direct_score_judge's.
  const direct = new Map<string, Map<number, number>>();
  for (const d of input.directScores ?? []) getOrSet(direct, d.judge, () => new Map()).set(d.summaryKey, d.score);
  const directScoreJudge = [...direct.keys()].sort()[0] ?? null;
  const directFor = (source: string) => direct.get(source) ?? (directScoreJudge === null ? undefined : direct.get(directScoreJudge));

  const sources: Record<string, ScaffoldSourceReport> = {};
  for (const source of [...bySource.keys()].sort(humanFirst)) {
    const scores = directFor(source);
    const rows: ScaffoldSummaryRow[] = [];
    for (const [summaryKey, aligners] of bySource.get(source)!) {
      const summary = summaries.get(summaryKey)!;
      const scored: Array<{ version: number; scores: ScaffoldScores }> = [];
      for (const perScaffold of aligners.values()) {
        const scaffoldId = [...perScaffold.keys()].reduce((best, id) => (scaffolds.get(id)!.version > scaffolds.get(best)!.version ? id : best));
        const scaffold = scaffolds.get(scaffoldId)!;
        const values = perScaffold.get(scaffoldId)!;
        const items: ScoredItem[] = scaffold.items.map((it) => ({ kind: it.kind, tier: it.tier, value: values.get(it.id)?.value ?? null, sentences: values.get(it.id)?.sentences ?? [] }));
        scored.push({ version: scaffold.version, scores: scoreSummary(items, summary.sentenceCount) });
      }
      const metrics = Object.fromEntries(SCAFFOLD_METRICS.map((m) => [m, meanOfDefined(scored.map((s) => s.scores[m]))])) as ScaffoldScores;
      rows.push({ summary_id: summary.summaryId, doc_id: summary.docId, system: summary.system, scaffold_version: Math.max(...scored.map((s) => s.version)), n_aligners: scored.length, ...metrics, direct_score: scores?.get(summaryKey) ?? null });
    }
    rows.sort((x, y) => (x.summary_id < y.summary_id ? -1 : x.summary_id > y.summary_id ? 1 : 0));
    sources[source] = sourceReport(rows, source, options);
    if (source !== 'human') sources[source]!.vs_people = judgeVsPeople(bySource.get(source)!, bySource.get('human'), itemKinds, source, options);
  }

  const noSystem = new Set(Object.values(sources).flatMap((s) => s.per_summary.filter((r) => r.system === null).map((r) => r.summary_id)));
  if (noSystem.size > 0) notes.push(`${noSystem.size} aligned summary(ies) without a system: in the means, not in by_system or the comparison.`);
  const comparisonSource = Object.keys(sources).sort(humanFirst)[0] ?? null;
  return { sources, comparison: comparisonSource === null ? null : sources[comparisonSource]!.comparison, comparison_source: comparisonSource, direct_score_judge: directScoreJudge, notes };
}

function sourceReport(rows: ScaffoldSummaryRow[], source: string, o: ScaffoldOptions): ScaffoldSourceReport {
  const stream = (...purpose: string[]) => () => createStream(o.seed, SCAFFOLD_STREAM, o.dataset, source, purpose.join('\u0000'));
  const means = meansOf(rows, drawReplicates(rows.length, o.bootstrap, stream('means')));
  const systems = [...new Set(rows.map((r) => r.system).filter((s): s is string => s !== null))].sort();
  const by_system: Record<string, ScaffoldMeans> = {};
  const systemRows = new Map<string, ScaffoldSummaryRow[]>();
  for (const system of systems) {
    const mine = rows.filter((r) => r.system === system);
    systemRows.set(system, mine);
    by_system[system] = meansOf(mine, drawReplicates(mine.length, o.bootstrap, stream('system', system)));
  }
  const comparison = Object.fromEntries(
    COMPARED_METRICS.map((metric) => {
      const values: SystemValues[] = systems.map((system) => ({ system, mean: by_system[system]![metric] ?? null, byDocument: byDocument(systemRows.get(system)!, metric) }));
      return [metric, compareSystems(values, o.bootstrap, (a, b) => stream('pair', metric, a, b))];
    }),
  ) as MetricComparisons;
  return { per_summary: rows, by_system, means, comparison };
}

function meansOf(rows: readonly ScaffoldSummaryRow[], replicates: Int32Array[]): ScaffoldMeans {
  const out = { n_summaries: rows.length } as ScaffoldMeans;
  for (const m of COMPARED_METRICS) out[m] = meanEstimate(rows.map((r) => r[m] ?? null), replicates);
  return out;
}

/** The system's value per document: the mean of its summaries' defined values there. */
function byDocument(rows: readonly ScaffoldSummaryRow[], metric: ComparedMetric): Map<string, number> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const r of rows) {
    const v = r[metric] ?? null;
    if (v === null) continue;
    const s = getOrSet(sums, r.doc_id, () => ({ sum: 0, n: 0 }));
    s.sum += v;
    s.n += 1;
  }
  return new Map([...sums].map(([doc, s]) => [doc, s.sum / s.n]));
}

type PerSummary = Map<number, Map<string, Map<number, Aligned>>>;

/**
 * A judge's error against people per kind of item: every (summary, item, person) where the judge
 * and that person both aligned the item (item ids belong to one scaffold version, so both aligned
 * the same version) is one comparison; error = differing / comparisons, with a percentile interval
 * over resamples of the summaries (the ratio of the resampled sums).
 */
function judgeVsPeople(judge: PerSummary, people: PerSummary | undefined, kindOf: ReadonlyMap<number, ScaffoldItemKind>, source: string, o: ScaffoldOptions): JudgeVsPeople | null {
  if (people === undefined) return null;
  return {
    facts: errorOf('fact'),
    questions: errorOf('question'),
    attributes: errorOf('attribute'),
  };
  function errorOf(kind: ScaffoldItemKind): AlignmentError | null {
    const perSummary: Array<{ n: number; differ: number }> = [];
    for (const [summaryKey, judgeAligners] of judge) {
      const persons = people!.get(summaryKey);
      if (!persons) continue;
      let n = 0;
      let differ = 0;
      for (const judgeScaffolds of judgeAligners.values()) {
        for (const [scaffoldId, judgeItems] of judgeScaffolds) {
          for (const personScaffolds of persons.values()) {
            const personItems = personScaffolds.get(scaffoldId);
            if (!personItems) continue;
            for (const [itemId, j] of judgeItems) {
              if (kindOf.get(itemId) !== kind) continue;
              const p = personItems.get(itemId);
              if (p === undefined || p.value === null || j.value === null) continue;
              n += 1;
              if (p.value !== j.value) differ += 1;
            }
          }
        }
      }
      if (n > 0) perSummary.push({ n, differ });
    }
    if (perSummary.length === 0) return null;
    const nItems = perSummary.reduce((a, x) => a + x.n, 0);
    const nDiffer = perSummary.reduce((a, x) => a + x.differ, 0);
    const replicates = drawReplicates(perSummary.length, o.bootstrap, () => createStream(o.seed, SCAFFOLD_STREAM, o.dataset, source, `vs_people\u0000${kind}`));
    const ratios = replicates.map((c) => {
      let num = 0;
      let den = 0;
      perSummary.forEach((x, i) => {
        num += c[i]! * x.differ;
        den += c[i]! * x.n;
      });
      return den === 0 ? Number.NaN : num / den;
    });
    const interval = replicates.length > 0 ? percentileInterval(ratios) : { ci: null, dropped: 0 };
    return { n_items: nItems, n_differ: nDiffer, error: { value: nDiffer / nItems, ci: interval.ci, n: perSummary.length, replicates_dropped: interval.dropped } };
  }
}

function meanOfDefined(values: ReadonlyArray<number | null>): number | null {
  const defined = values.filter((v): v is number => v !== null);
  return defined.length === 0 ? null : defined.reduce((a, b) => a + b, 0) / defined.length;
}

function humanFirst(a: string, b: string): number {
  if (a === 'human') return -1;
  if (b === 'human') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function getOrSet<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make()));
  return v;
}
