/**
 * The `scaffold` block of one dataset, pure: per source (people as "human", each judge
 * by name) every aligned summary's metrics (shared/scaffold/metrics.ts), per-system and dataset
 * means with summary-bootstrap CIs, and the comparison of systems by one source
 * (shared/stats/system-comparison.ts).
 *
 * Which alignments: each aligner's current alignment of a summary, on the highest scaffold version
 * it aligned that summary on (an edit makes a new version; alignments on older ones are not mixed
 * in). People: those of the reference set (person / imported annotators); a person's alignment
 * of a summary with any item aligned after a reveal only with includeRevealed. Several people on a
 * summary (docs/methods.md, "Semantic Scaffold"): those who aligned its highest version vote item
 * by item by the several-annotator rule (humanLabel: the value all give, or the most frequent); a
 * tie (or a disagreement under unanimous) leaves the item out of every count of that summary and
 * is counted; a fact's sentence links are those of the people who gave the resolved value.
 * People who aligned only an older version of that summary's scaffold are left out and counted.
 * Fact Focus is defined for a source that gives sentence links anywhere in the dataset.
 * Streams: xoshiro128** seeded by (seed, "loupe-scaffold-v1", dataset, source, purpose) with
 * purpose "means", "system\0<system>" or "pair\0<metric>\0<a>\0<b>".
 */
import { resolveByRule, type HumanLabelRule, type ReferenceSet } from '../analysis/human-label';
import { createStream } from '../stats/prng';
import { drawReplicates, estimateOf, meanEstimate, percentileInterval } from '../stats/bootstrap';
import { tooFewToEstimate } from '../stats/estimate';
import { chooseComparisonSource, compareSystems, pairedDocuments } from '../stats/system-comparison';
import type { ScaffoldInput } from './input';
import { COMPARED_METRICS, scoreSummary, type ScaffoldScores, type ScoredItem } from './metrics';
import type { AlignmentValue, ScaffoldItemKind } from './domain';
import type {
  AlignmentError,
  JudgeVsPeople,
  ScaffoldBlock,
  ScaffoldMeans,
  ScaffoldProvenance,
  ScaffoldSourceReport,
  ScaffoldSummaryRow,
} from './report';

export interface ScaffoldOptions {
  bootstrap: number;
  seed: number;
  dataset: string;
  reference: ReferenceSet;
  includeRevealed: boolean;
  /** How several people's values of one item resolve (default unanimous, as for units). */
  humanLabel?: HumanLabelRule;
  /** The source systems are compared by ("human" or a judge); null: the default choice. */
  compareSource?: string | null;
}

export const SCAFFOLD_STREAM = 'loupe-scaffold-v1';

type Aligned = Map<number, { value: ScoredItem['value']; sentences: number[] }>;
type ScaffoldVersion = ScaffoldInput['scaffolds'][number];

export function computeScaffold(input: ScaffoldInput, options: ScaffoldOptions): ScaffoldBlock | null {
  if (input.scaffolds.length === 0) return null;
  const scaffolds = new Map(input.scaffolds.map((s) => [s.id, s]));
  const itemKinds = new Map(input.scaffolds.flatMap((s) => s.items.map((i) => [i.id, i.kind] as const)));
  const summaries = new Map(input.summaries.map((s) => [s.key, s]));
  const rule = options.humanLabel ?? 'unanimous';
  const notes: string[] = [];

  // source key → summary key → aligner → scaffold id → item id → value
  const bySource = new Map<string, Map<number, Map<string, Map<number, Aligned>>>>();
  // A person's alignment of a summary with any item aligned after a reveal is left out whole
  // (leaving out only those items would count them as not kept).
  const inReference = (a: ScaffoldInput['alignments'][number]) =>
    options.reference === 'both' ||
    (options.reference === 'people' ? a.annotatorKind === 'person' : a.annotatorKind === 'imported');
  const leftOutRevealed = new Set<string>();
  if (!options.includeRevealed)
    for (const a of input.alignments)
      if (a.source.startsWith('human:') && inReference(a) && !a.blind)
        leftOutRevealed.add(`${a.summaryKey}\u0000${a.source}`);
  const linksGiven = new Set<string>();
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
    if (a.sentences.length > 0) linksGiven.add(source);
    const perSummary = getOrSet(bySource, source, () => new Map());
    const perAligner = getOrSet(perSummary, a.summaryKey, () => new Map());
    const perScaffold = getOrSet(perAligner, a.source, () => new Map());
    getOrSet(perScaffold, a.scaffoldId, () => new Map()).set(a.itemId, { value: a.value, sentences: a.sentences });
  }
  if (leftOutRevealed.size > 0)
    notes.push(
      `${leftOutRevealed.size} (summary, person) alignment(s) with items aligned after a reveal left out (include_revealed is off).`,
    );

  // Direct scores (App. G.7): judge → summary key → score; people's rows take direct_score_judge's.
  const direct = new Map<string, Map<number, number>>();
  for (const d of input.directScores ?? []) getOrSet(direct, d.judge, () => new Map()).set(d.summaryKey, d.score);
  const directScoreJudge = [...direct.keys()].sort()[0] ?? null;
  const directFor = (source: string) =>
    direct.get(source) ?? (directScoreJudge === null ? undefined : direct.get(directScoreJudge));

  const highest = (ids: Iterable<number>): ScaffoldVersion =>
    [...ids].map((id) => scaffolds.get(id)!).reduce((best, s) => (s.version > best.version ? s : best));
  let unresolvedItems = 0;
  let olderVersion = 0;
  const sources: Record<string, ScaffoldSourceReport> = {};
  for (const source of [...bySource.keys()].sort(humanFirst)) {
    const scores = directFor(source);
    const rows: ScaffoldSummaryRow[] = [];
    for (const [summaryKey, aligners] of bySource.get(source)!) {
      const summary = summaries.get(summaryKey)!;
      // The version: the highest any aligner of this source aligned this summary on.
      const scaffold = highest([...aligners.values()].flatMap((perScaffold) => [...perScaffold.keys()]));
      const voters = [...aligners.values()]
        .map((perScaffold) => perScaffold.get(scaffold.id))
        .filter((v): v is Aligned => v !== undefined);
      olderVersion += aligners.size - voters.length;
      const items: ScoredItem[] = [];
      let unresolved = 0;
      for (const it of scaffold.items) {
        const given = voters
          .map((v) => v.get(it.id))
          .filter((x): x is { value: AlignmentValue; sentences: number[] } => x !== undefined && x.value !== null);
        const resolved = resolveByRule(
          given.map((x) => x.value),
          rule,
        );
        if (resolved.status === 'disagreement' || resolved.status === 'tie') {
          unresolved += 1;
          continue;
        }
        const sentences = [...new Set(given.filter((x) => x.value === resolved.value).flatMap((x) => x.sentences))];
        items.push({ kind: it.kind, tier: it.tier, value: resolved.value, sentences });
      }
      unresolvedItems += unresolved;
      const metrics: ScaffoldScores = scoreSummary(items, summary.sentenceCount, linksGiven.has(source));
      rows.push({
        summary_id: summary.summaryId,
        doc_id: summary.docId,
        system: summary.system,
        scaffold_version: scaffold.version,
        n_aligners: voters.length,
        n_unresolved: unresolved,
        ...metrics,
        direct_score: scores?.get(summaryKey) ?? null,
      });
    }
    rows.sort((x, y) => (x.summary_id < y.summary_id ? -1 : x.summary_id > y.summary_id ? 1 : 0));
    sources[source] = sourceReport(rows, source, options);
    if (source !== 'human')
      sources[source]!.vs_people = judgeVsPeople(
        bySource.get(source)!,
        bySource.get('human'),
        itemKinds,
        source,
        options,
      );
  }
  if (unresolvedItems > 0)
    notes.push(
      `${unresolvedItems} (summary, item) value(s) of people unresolved by the "${rule}" rule (a tie${rule === 'unanimous' ? ' or a disagreement' : ''}) left out of every count of that summary.`,
    );
  if (olderVersion > 0)
    notes.push(
      `${olderVersion} (summary, person) alignment(s) on an older scaffold version than another person's left out.`,
    );

  const noSystem = new Set(
    Object.values(sources).flatMap((s) => s.per_summary.filter((r) => r.system === null).map((r) => r.summary_id)),
  );
  if (noSystem.size > 0)
    notes.push(
      `${noSystem.size} aligned summary(ies) without a system: in the means, not in by_system or the comparison.`,
    );

  const metrics = COMPARED_METRICS.filter((m) => m !== 'direct_score' || directScoreJudge !== null);
  const candidates = Object.entries(sources).map(([source, s]) => ({
    source,
    n_documents: pairedDocuments(s.per_summary, metrics),
  }));
  const choice = chooseComparisonSource(candidates, options.compareSource ?? null);
  const comparison =
    choice.source === null
      ? null
      : compareSystems({
          source: choice.source,
          rows: sources[choice.source]!.per_summary,
          metrics,
          mean: (system, metric) => sources[choice.source!]!.by_system[system]?.[metric] ?? null,
          bootstrap: options.bootstrap,
          pairStream: (metric, a, b) => stream(options, choice.source!, 'pair', metric, a, b),
        });
  return {
    sources,
    comparison,
    comparison_sources: candidates,
    comparison_note: choice.note,
    direct_score_judge: directScoreJudge,
    provenance: provenanceOf(input),
    notes,
  };
}

/** The module comment's stream of one source and purpose. */
function stream(o: ScaffoldOptions, source: string, ...purpose: string[]) {
  return () => createStream(o.seed, SCAFFOLD_STREAM, o.dataset, source, purpose.join('\u0000'));
}

/** Which prompts made the scaffolds and the judges' alignments (the loader says; absent: not known). */
function provenanceOf(input: ScaffoldInput): ScaffoldProvenance {
  const scaffolds: Record<string, number> = {};
  for (const s of input.scaffolds)
    if (s.extractor !== undefined) scaffolds[s.extractor] = (scaffolds[s.extractor] ?? 0) + 1;
  const alignments: Record<string, Record<string, number>> = {};
  for (const a of input.alignments) {
    if (!a.source.startsWith('judge:') || a.madeBy === undefined) continue;
    const judge = (alignments[a.source.slice('judge:'.length)] ??= {});
    judge[a.madeBy] = (judge[a.madeBy] ?? 0) + 1;
  }
  return { scaffolds, alignments };
}

function sourceReport(rows: ScaffoldSummaryRow[], source: string, o: ScaffoldOptions): ScaffoldSourceReport {
  const means = meansOf(rows, drawReplicates(rows.length, o.bootstrap, stream(o, source, 'means')));
  const systems = [...new Set(rows.map((r) => r.system).filter((s): s is string => s !== null))].sort();
  const by_system: Record<string, ScaffoldMeans> = {};
  for (const system of systems) {
    const mine = rows.filter((r) => r.system === system);
    by_system[system] = meansOf(mine, drawReplicates(mine.length, o.bootstrap, stream(o, source, 'system', system)));
  }
  return { per_summary: rows, by_system, means };
}

function meansOf(rows: readonly ScaffoldSummaryRow[], replicates: Int32Array[]): ScaffoldMeans {
  const out = { n_summaries: rows.length } as ScaffoldMeans;
  for (const m of COMPARED_METRICS)
    out[m] = meanEstimate(
      rows.map((r) => r[m] ?? null),
      replicates,
    );
  return out;
}

type PerSummary = Map<number, Map<string, Map<number, Aligned>>>;

/**
 * A judge's error against people per kind of item: every (summary, item, person) where the judge
 * and that person both aligned the item (item ids belong to one scaffold version, so both aligned
 * the same version) is one comparison; error = differing / comparisons, with a percentile interval
 * over resamples of the summaries (the ratio of the resampled sums).
 */
function judgeVsPeople(
  judge: PerSummary,
  people: PerSummary | undefined,
  kindOf: ReadonlyMap<number, ScaffoldItemKind>,
  source: string,
  o: ScaffoldOptions,
): JudgeVsPeople | null {
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
    const replicates = tooFewToEstimate(perSummary.length)
      ? []
      : drawReplicates(perSummary.length, o.bootstrap, stream(o, source, 'vs_people', kind));
    const ratios = replicates.map((c) => {
      let num = 0;
      let den = 0;
      perSummary.forEach((x, i) => {
        num += c[i]! * x.differ;
        den += c[i]! * x.n;
      });
      return den === 0 ? Number.NaN : num / den;
    });
    const interval = replicates.length > 0 ? percentileInterval(ratios) : null;
    return {
      n_items: nItems,
      n_differ: nDiffer,
      error: estimateOf(nDiffer / nItems, interval, perSummary.length, perSummary.length),
    };
  }
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
