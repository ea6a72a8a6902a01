/**
 * Comparing systems from one source (people, or one judge) on every metric of a block
 * (docs/methods.md, "System comparisons" and "Too few to estimate"), pure; the accuracy block
 * (faithfulness, completeness, conciseness) and the scaffold block (F … EPS, the direct score)
 * both use it, so the rules below hold for every metric alike.
 *
 * - by_system: each system's mean with its summary-bootstrap interval (the block's own figure).
 * - differences: for every pair of systems (a < b by name), mean(a) − mean(b) over the documents
 *   both have a value on, each system's value on a document being the mean of its summaries
 *   there; the paired-bootstrap interval resamples those documents (one draw for both systems).
 *   Fewer than MIN_RESAMPLING_UNITS paired documents: no interval (too_few).
 * - ranks: none with fewer than two systems, or when a pair of them has fewer than
 *   MIN_RESAMPLING_UNITS paired documents (ranking_note says which). Otherwise systems whose
 *   difference interval covers 0 (or has none) are linked; every group of linked systems (linked
 *   directly or through others) shares one rank, so two systems are never ordered unless every
 *   path between them is separable; groups are ordered by their best mean, and a group's rank is
 *   1 + the number of systems in the groups above it.
 * - saturated: with ≥ 2 systems that have a mean and an interval, spread = max − min of their
 *   means, noise = the median half-width of their intervals; saturated = spread ≤ noise.
 */
import { z } from 'zod';
import { drawReplicates, meanEstimate } from './bootstrap';
import { EstimateSchema, MIN_RESAMPLING_UNITS, tooFewToEstimate, type Estimate } from './estimate';
import type { Xoshiro128StarStar } from './prng';

/** One pair's paired difference: mean(a) − mean(b), n = the paired documents. */
export interface SystemDifference extends Estimate {
  a: string;
  b: string;
}

export interface MetricComparison {
  by_system: Record<string, Estimate | null>;
  differences: SystemDifference[];
  /** system → rank (1 = best; equal ranks are shared); null: no ranking (ranking_note says why). */
  ranks: Record<string, number> | null;
  ranking_note: string | null;
  /** max − min of the means of the systems that have an interval. */
  spread: number | null;
  /** The median half-width of those systems' intervals. */
  noise: number | null;
  /** spread ≤ noise, with ≥ 2 such systems; null otherwise. */
  saturated: boolean | null;
}

export interface SystemComparison {
  /** "human" (the people, by the --human-label rule) or a judge's name. */
  source: string;
  systems: string[];
  /** Documents on which at least two systems have a value of some metric from this source. */
  n_documents: number;
  metrics: Record<string, MetricComparison>;
}

/** A source one can compare by, with its paired documents (what the default choice looks at). */
export interface ComparisonCandidate {
  source: string;
  n_documents: number;
}

export const SystemDifferenceSchema = EstimateSchema.extend({
  a: z.string(),
  b: z.string(),
}) satisfies z.ZodType<SystemDifference>;

export const MetricComparisonSchema = z.object({
  by_system: z.record(z.string(), EstimateSchema.nullable()),
  differences: z.array(SystemDifferenceSchema),
  ranks: z.record(z.string(), z.number().int()).nullable(),
  ranking_note: z.string().nullable(),
  spread: z.number().nullable(),
  noise: z.number().nullable(),
  saturated: z.boolean().nullable(),
}) satisfies z.ZodType<MetricComparison>;

export const SystemComparisonSchema = z.object({
  source: z.string(),
  systems: z.array(z.string()),
  n_documents: z.number().int(),
  metrics: z.record(z.string(), MetricComparisonSchema),
}) satisfies z.ZodType<SystemComparison>;

export const ComparisonCandidateSchema = z.object({
  source: z.string(),
  n_documents: z.number().int(),
}) satisfies z.ZodType<ComparisonCandidate>;

// The other direction: every field of the schema is a field of the type.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const checks: [
  Exact<z.infer<typeof SystemComparisonSchema>, SystemComparison>,
  Exact<z.infer<typeof MetricComparisonSchema>, MetricComparison>,
] = [true, true];
void checks;

const byName = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** "1 paired document", "6 paired documents": how a comparison's documents are counted in words. */
export const pairedDocumentsText = (n: number): string =>
  `${n.toLocaleString('en-US')} paired document${n === 1 ? '' : 's'}`;

/**
 * Mean(a) − mean(b) over the documents both have a value on (sorted by document id), with a
 * percentile interval over `bootstrap` resamples of those documents (one draw used for both).
 */
export function pairedDifference(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  bootstrap: number,
  rng: () => Xoshiro128StarStar,
): Estimate {
  const docs = [...a.keys()].filter((d) => b.has(d)).sort(byName);
  const diffs = docs.map((d) => a.get(d)! - b.get(d)!);
  const replicates = tooFewToEstimate(docs.length) ? [] : drawReplicates(docs.length, bootstrap, rng);
  return meanEstimate(diffs, replicates) ?? { value: null, ci: null, n: 0, replicates_dropped: 0, too_few: true };
}

/** One system's values of one metric: its mean (the block's figure) and its value per document. */
export interface SystemValues {
  system: string;
  mean: Estimate | null;
  byDocument: ReadonlyMap<string, number>;
}

/** The comparison of one metric (the module comment's rules). */
export function compareMetric(
  values: readonly SystemValues[],
  bootstrap: number,
  pairStream: (a: string, b: string) => () => Xoshiro128StarStar,
): MetricComparison {
  const sorted = [...values].sort((x, y) => byName(x.system, y.system));
  const differences: SystemDifference[] = [];
  for (let i = 0; i < sorted.length; i += 1) {
    for (let j = i + 1; j < sorted.length; j += 1) {
      const a = sorted[i]!;
      const b = sorted[j]!;
      differences.push({
        a: a.system,
        b: b.system,
        ...pairedDifference(a.byDocument, b.byDocument, bootstrap, pairStream(a.system, b.system)),
      });
    }
  }
  const by_system = Object.fromEntries(sorted.map((s) => [s.system, s.mean]));
  return { by_system, differences, ...ranking(sorted, differences), ...saturation(sorted.map((s) => s.mean)) };
}

function ranking(
  systems: readonly SystemValues[],
  differences: readonly SystemDifference[],
): Pick<MetricComparison, 'ranks' | 'ranking_note'> {
  const ranked = systems.filter((s) => s.mean?.value != null);
  if (ranked.length < 2) return { ranks: null, ranking_note: 'fewer than two systems with a value' };
  const pair = (x: string, y: string) => differences.find((d) => (d.a === x && d.b === y) || (d.a === y && d.b === x))!;
  const names = new Set(ranked.map((s) => s.system));
  const among = differences.filter((d) => names.has(d.a) && names.has(d.b));
  const thin = among.filter((d) => d.too_few);
  if (thin.length > 0)
    return {
      ranks: null,
      ranking_note: `fewer than ${MIN_RESAMPLING_UNITS} paired documents: ${thin.map((d) => `${d.a} and ${d.b} (${d.n})`).join(', ')}`,
    };
  // Groups of systems linked by differences whose interval covers 0 (or that have none).
  const group = new Map(ranked.map((s) => [s.system, s.system]));
  const root = (x: string): string => (group.get(x) === x ? x : root(group.get(x)!));
  for (const x of ranked) {
    for (const y of ranked) {
      if (x.system >= y.system) continue;
      const d = pair(x.system, y.system);
      if (d.ci === null || (d.ci[0] <= 0 && d.ci[1] >= 0)) group.set(root(y.system), root(x.system));
    }
  }
  const groups = new Map<string, SystemValues[]>();
  for (const s of ranked) groups.set(root(s.system), [...(groups.get(root(s.system)) ?? []), s]);
  const best = (g: readonly SystemValues[]) => Math.max(...g.map((s) => s.mean!.value!));
  const ordered = [...groups.values()].sort((g, h) => best(h) - best(g));
  const ranks: Record<string, number> = {};
  let above = 0;
  for (const g of ordered) {
    for (const s of g) ranks[s.system] = above + 1;
    above += g.length;
  }
  return { ranks, ranking_note: null };
}

/** The saturation rule of the module comment. */
export function saturation(
  means: ReadonlyArray<Estimate | null>,
): Pick<MetricComparison, 'spread' | 'noise' | 'saturated'> {
  const usable = means.filter(
    (m): m is Estimate & { value: number; ci: [number, number] } => m !== null && m.value !== null && m.ci !== null,
  );
  if (usable.length < 2) return { spread: null, noise: null, saturated: null };
  const values = usable.map((m) => m.value);
  const spread = Math.max(...values) - Math.min(...values);
  const halves = usable.map((m) => (m.ci[1] - m.ci[0]) / 2).sort((x, y) => x - y);
  const mid = halves.length >> 1;
  const noise = halves.length % 2 === 1 ? halves[mid]! : (halves[mid - 1]! + halves[mid]!) / 2;
  return { spread, noise, saturated: spread <= noise };
}

/** A per-summary row of a block: its document, its system and its value of each metric (null: undefined). */
export type ComparedRow<M extends string> = { doc_id: string; system: string | null } & { [K in M]?: number | null };

/** Each system's value per document on one metric: the mean of its summaries' defined values there. */
export function valuesByDocument<M extends string>(
  rows: ReadonlyArray<ComparedRow<M>>,
  metric: M,
): Map<string, number> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const r of rows) {
    const v = r[metric] ?? null;
    if (v === null) continue;
    const s = sums.get(r.doc_id) ?? { sum: 0, n: 0 };
    s.sum += v;
    s.n += 1;
    sums.set(r.doc_id, s);
  }
  return new Map([...sums].map(([doc, s]) => [doc, s.sum / s.n]));
}

export interface CompareInput<M extends string> {
  source: string;
  /** The source's per-summary rows (rows without a system are not compared). */
  rows: ReadonlyArray<ComparedRow<M>>;
  metrics: readonly M[];
  /** The block's mean of a system on a metric (its summary-bootstrap estimate). */
  mean(system: string, metric: M): Estimate | null;
  bootstrap: number;
  pairStream(metric: M, a: string, b: string): () => Xoshiro128StarStar;
}

/** Documents on which at least two systems have a value of some metric. */
export function pairedDocuments<M extends string>(rows: ReadonlyArray<ComparedRow<M>>, metrics: readonly M[]): number {
  const systemsOn = new Map<string, Set<string>>();
  for (const r of rows) {
    if (r.system === null || !metrics.some((m) => (r[m] ?? null) !== null)) continue;
    const on = systemsOn.get(r.doc_id) ?? new Set<string>();
    on.add(r.system);
    systemsOn.set(r.doc_id, on);
  }
  return [...systemsOn.values()].filter((s) => s.size >= 2).length;
}

/** The comparison of every metric from one source. */
export function compareSystems<M extends string>(input: CompareInput<M>): SystemComparison {
  const systems = [...new Set(input.rows.map((r) => r.system).filter((s): s is string => s !== null))].sort(byName);
  const rowsOf = new Map(systems.map((system) => [system, input.rows.filter((r) => r.system === system)]));
  const metrics: Record<string, MetricComparison> = {};
  for (const metric of input.metrics) {
    const values = systems.map((system) => ({
      system,
      mean: input.mean(system, metric),
      byDocument: valuesByDocument(rowsOf.get(system)!, metric),
    }));
    metrics[metric] = compareMetric(values, input.bootstrap, (a, b) => input.pairStream(metric, a, b));
  }
  return { source: input.source, systems, n_documents: pairedDocuments(input.rows, input.metrics), metrics };
}

/** The source a block compares by, and what to tell the reader about the choice. */
export interface ComparisonChoice {
  source: string | null;
  note: string | null;
}

/** What `--compare-source people` asks for; the blocks name the people's source "human". */
export const PEOPLE_SOURCE = 'human';

/**
 * The requested source when it has figures here; without a request the people when they pair at
 * least MIN_RESAMPLING_UNITS documents; otherwise none, with a note naming the judge sources one
 * can pick (or the people's thin comparison when there is no judge source).
 */
export function chooseComparisonSource(
  candidates: readonly ComparisonCandidate[],
  requested: string | null,
): ComparisonChoice {
  const people = candidates.find((c) => c.source === PEOPLE_SOURCE) ?? null;
  const judges = candidates.filter((c) => c.source !== PEOPLE_SOURCE);
  const listed = judges.map((c) => `${c.source} (${pairedDocumentsText(c.n_documents)})`).join(', ');
  if (requested !== null) {
    if (candidates.some((c) => c.source === requested)) return { source: requested, note: null };
    const name = requested === PEOPLE_SOURCE ? 'the people' : `judge ${requested}`;
    return {
      source: null,
      note: `No figures from ${name} on this dataset${candidates.length > 0 ? `; sources here: ${candidates.map((c) => (c.source === PEOPLE_SOURCE ? 'people' : c.source)).join(', ')}` : ''}.`,
    };
  }
  if (people !== null && !tooFewToEstimate(people.n_documents)) return { source: PEOPLE_SOURCE, note: null };
  const peopleSay =
    people === null
      ? 'People have no figures here'
      : `People's figures give ${pairedDocumentsText(people.n_documents)} across systems (fewer than ${MIN_RESAMPLING_UNITS})`;
  if (judges.length > 0)
    return {
      source: null,
      note: `${peopleSay}: compare by a judge instead (--compare-source, or the source picker): ${listed}.`,
    };
  return { source: people?.source ?? null, note: people === null ? null : `${peopleSay}: no ranking.` };
}
