/**
 * Agreement per dataset: human raters among themselves and each judge against the
 * resolved human label, every figure with its n and a 95% bootstrap interval over summaries.
 *
 * Every figure of a dataset is computed from per-summary sufficient statistics ("features", see
 * coefficients.ts). One resample of the dataset's summaries per replicate is shared by all of
 * its figures (humans, every pair, every judge), so differences between figures are paired.
 */
import { HUMAN_LABELS, type HumanLabel } from '../domain';
import { resolveHumanLabel } from '../analysis/human-label';
import { drawResampleCounts, estimateOf, percentileInterval, type PercentileInterval } from '../stats/bootstrap';
import { checkSeed, createStream } from '../stats/prng';
import {
  addUnitToMultiRater,
  addUnitToPair,
  evaluateMultiRater,
  evaluatePair,
  multiRaterOutputWidth,
  multiRaterWidth,
  pairOutputWidth,
  pairWidth,
} from './coefficients';
import {
  DEFAULT_AGREEMENT_OPTIONS,
  UNCLEAR_HANDLINGS,
  type AgreementDataset,
  type AgreementOptions,
  type AgreementReport,
  type AgreementSummary,
  type DatasetAgreement,
  type Estimate,
  type JudgeHardLabel,
  type JudgeHumanAgreement,
  type MultiRaterAgreement,
  type PairAgreement,
  type UnclearHandling,
} from './types';

/** First part of every stream key of this module. Changing it changes every interval. */
export const AGREEMENT_STREAM_VERSION = 'loupe-agreement-v1';
/** The one purpose of a dataset's stream: the summaries resampled for every agreement figure. */
export const AGREEMENT_STREAM_PURPOSE = 'summaries';

// ───────────────────────────── categories ─────────────────────────────

interface Scheme {
  unclear: UnclearHandling;
  categories: string[];
  /** Category index of a label; -1 = unclear under `exclude`. */
  index: (label: HumanLabel) => number;
}

function scheme(unclear: UnclearHandling): Scheme {
  const categories = unclear === 'category' ? ['faithful', 'unfaithful', 'unclear'] : ['faithful', 'unfaithful'];
  return {
    unclear,
    categories,
    index: (label) => (label === 'faithful' ? 0 : label === 'unfaithful' ? 1 : unclear === 'category' ? 2 : -1),
  };
}

/** A judge's hard label as a human label: 1 → faithful, 0 → unfaithful. */
export function judgeLabelAsHuman(hard: 0 | 1): HumanLabel {
  return hard === 1 ? 'faithful' : 'unfaithful';
}

// ───────────────────────────── options and input checks ─────────────────────────────

function resolveOptions(options: AgreementOptions | undefined): Required<AgreementOptions> {
  const resolved = { ...DEFAULT_AGREEMENT_OPTIONS, ...stripUndefined(options ?? {}) };
  if (!UNCLEAR_HANDLINGS.includes(resolved.unclear))
    throw new RangeError(`unclear must be one of ${UNCLEAR_HANDLINGS.join(', ')}, got ${String(resolved.unclear)}`);
  if (!Number.isSafeInteger(resolved.bootstrap) || resolved.bootstrap < 0)
    throw new RangeError(`bootstrap must be a non-negative integer, got ${resolved.bootstrap}`);
  checkSeed(resolved.seed);
  return resolved;
}

function stripUndefined(options: AgreementOptions): AgreementOptions {
  const out: AgreementOptions = {};
  if (options.unclear !== undefined) out.unclear = options.unclear;
  if (options.bootstrap !== undefined) out.bootstrap = options.bootstrap;
  if (options.seed !== undefined) out.seed = options.seed;
  return out;
}

const HUMAN_LABEL_SET: ReadonlySet<string> = new Set(HUMAN_LABELS);

function checkHumanLabel(label: unknown, where: string): HumanLabel {
  if (typeof label !== 'string' || !HUMAN_LABEL_SET.has(label))
    throw new RangeError(`${where}: label must be one of ${HUMAN_LABELS.join(', ')}, got ${JSON.stringify(label)}`);
  return label as HumanLabel;
}

function checkJudgeLabel(label: unknown, where: string): JudgeHardLabel {
  if (label === 0 || label === 1 || label === null) return label;
  throw new RangeError(`${where}: judge label must be 0, 1 or null, got ${JSON.stringify(label)}`);
}

function checkNames(names: readonly string[], what: string): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (typeof name !== 'string' || name === '') throw new RangeError(`${what} names must be non-empty strings`);
    if (seen.has(name)) throw new RangeError(`${what} ${JSON.stringify(name)} is listed twice`);
    seen.add(name);
  }
}

// ───────────────────────────── bootstrap over blocks ─────────────────────────────

/** A group of figures computed from the same per-summary features. */
interface Block {
  width: number;
  outWidth: number;
  /** nSummaries × width, row-major. */
  features: Float64Array;
  evaluate: (sums: Float64Array, out: Float64Array) => void;
}

interface BlockResult {
  point: Float64Array;
  /** One interval per output; null when no bootstrap was run. */
  intervals: (PercentileInterval | null)[];
}

/**
 * Point estimates (every summary once) and percentile intervals of every block, with one
 * resample of the nSummaries summaries per replicate shared by all blocks.
 */
function runBlocks(
  blocks: readonly Block[],
  nSummaries: number,
  bootstrap: number,
  rng: ReturnType<typeof createStream> | null,
): BlockResult[] {
  const sums = blocks.map((block) => new Float64Array(block.width));
  const outs = blocks.map((block) => new Float64Array(block.outWidth));
  const points = blocks.map((block, b) => {
    const total = sums[b]!;
    for (let s = 0; s < nSummaries; s += 1) {
      const row = s * block.width;
      for (let j = 0; j < block.width; j += 1) total[j]! += block.features[row + j]!;
    }
    const point = new Float64Array(block.outWidth);
    block.evaluate(total, point);
    return point;
  });
  if (bootstrap === 0 || rng === null) {
    return points.map((point) => ({ point, intervals: Array.from(point, () => null) }));
  }
  const replicates = blocks.map((block) => Array.from({ length: block.outWidth }, () => new Float64Array(bootstrap)));
  const counts = new Int32Array(nSummaries);
  for (let r = 0; r < bootstrap; r += 1) {
    drawResampleCounts(rng, counts);
    blocks.forEach((block, b) => {
      const total = sums[b]!;
      total.fill(0);
      for (let s = 0; s < nSummaries; s += 1) {
        const weight = counts[s]!;
        if (weight === 0) continue;
        const row = s * block.width;
        for (let j = 0; j < block.width; j += 1) total[j]! += weight * block.features[row + j]!;
      }
      const out = outs[b]!;
      block.evaluate(total, out);
      const target = replicates[b]!;
      for (let j = 0; j < block.outWidth; j += 1) target[j]![r] = out[j]!;
    });
  }
  return points.map((point, b) => ({ point, intervals: replicates[b]!.map((values) => percentileInterval(values)) }));
}

/** A figure on n units of `summaries` summaries (its resampling units: too few, no interval). */
function estimate(value: number, interval: PercentileInterval | null, n: number, summaries: number): Estimate {
  return estimateOf(value, interval, n, summaries);
}

// ───────────────────────────── human raters ─────────────────────────────

interface PairCounts {
  rater_a: string;
  rater_b: string;
  a: number;
  b: number;
  table: number[][];
  summaries: number;
}

interface Assembled<T> {
  blocks: Block[];
  assemble: (results: readonly BlockResult[]) => T;
}

interface HumanBlocks extends Assembled<MultiRaterAgreement> {
  unclearDropped: number;
  unitsRated: number;
}

function humanBlocks(summaries: readonly AgreementSummary[], raters: readonly string[], sch: Scheme): HumanBlocks {
  const k = sch.categories.length;
  const nSummaries = summaries.length;
  const multiWidth = multiRaterWidth(k);
  const multi = new Float64Array(nSummaries * multiWidth);
  const pairs: PairCounts[] = [];
  for (let a = 0; a < raters.length; a += 1) {
    for (let b = a + 1; b < raters.length; b += 1) {
      pairs.push({
        rater_a: raters[a]!,
        rater_b: raters[b]!,
        a,
        b,
        table: Array.from({ length: k }, () => new Array<number>(k).fill(0)),
        summaries: 0,
      });
    }
  }
  const pairFeatures = pairs.map(() => new Float64Array(nSummaries * pairWidth(k)));
  const ratingsPerUnit = new Map<number, number>();
  const categoryTotals = new Array<number>(k).fill(0);
  const unitsWithCategory = new Array<number>(k).fill(0);
  let single = 0;
  let pairable = 0;
  let unclearDropped = 0;
  let unitsRated = 0;
  const ratingIndexes = new Int32Array(raters.length);
  const counts = new Array<number>(k);

  let pairableSummaries = 0;
  summaries.forEach((summary, s) => {
    const pairSeen = new Uint8Array(pairs.length);
    let pairableHere = false;
    for (const unit of summary.units) {
      let rated = 0;
      let dropped = false;
      for (let r = 0; r < raters.length; r += 1) {
        const raw = unit.ratings[raters[r]!];
        if (raw === undefined) {
          ratingIndexes[r] = -2;
          continue;
        }
        const index = sch.index(raw);
        ratingIndexes[r] = index;
        rated += 1;
        if (index === -1) dropped = true;
      }
      if (rated > 0) unitsRated += 1;
      if (dropped) {
        unclearDropped += 1;
        continue;
      }
      if (rated === 0) continue;
      counts.fill(0);
      for (let r = 0; r < raters.length; r += 1) if (ratingIndexes[r]! >= 0) counts[ratingIndexes[r]!]! += 1;
      addUnitToMultiRater(multi, s * multiWidth, counts, k);
      ratingsPerUnit.set(rated, (ratingsPerUnit.get(rated) ?? 0) + 1);
      if (rated === 1) single += 1;
      else {
        pairable += 1;
        pairableHere = true;
        for (let c = 0; c < k; c += 1) {
          categoryTotals[c]! += counts[c]!;
          if (counts[c]! > 0) unitsWithCategory[c]! += 1;
        }
      }
      pairs.forEach((pair, p) => {
        const x = ratingIndexes[pair.a]!;
        const y = ratingIndexes[pair.b]!;
        if (x < 0 || y < 0) return;
        addUnitToPair(pairFeatures[p]!, s * pairWidth(k), x, y, k);
        pair.table[x]![y]! += 1;
        pairSeen[p] = 1;
      });
    }
    pairSeen.forEach((seen, p) => {
      if (seen) pairs[p]!.summaries += 1;
    });
    if (pairableHere) pairableSummaries += 1;
  });

  const blocks: Block[] = [
    {
      width: multiWidth,
      outWidth: multiRaterOutputWidth(k),
      features: multi,
      evaluate: (sums, out) => evaluateMultiRater(sums, 0, k, out, 0),
    },
    ...pairs.map((_, p): Block => ({
      width: pairWidth(k),
      outWidth: pairOutputWidth(k),
      features: pairFeatures[p]!,
      evaluate: (sums, out) => evaluatePair(sums, 0, k, out, 0),
    })),
  ];

  const assemble = (results: readonly BlockResult[]): MultiRaterAgreement => {
    const m = results[0]!;
    const at = (j: number, n: number) => estimate(m.point[j]!, m.intervals[j]!, n, pairableSummaries);
    const specific: Record<string, Estimate> = {};
    sch.categories.forEach((category, c) => {
      specific[category] = at(4 + c, unitsWithCategory[c]!);
    });
    const perUnit: Record<string, number> = {};
    for (const key of [...ratingsPerUnit.keys()].sort((x, y) => x - y)) perUnit[String(key)] = ratingsPerUnit.get(key)!;
    const categoryCounts: Record<string, number> = {};
    sch.categories.forEach((category, c) => {
      categoryCounts[category] = categoryTotals[c]!;
    });
    return {
      raters: [...raters],
      n_raters: raters.length,
      n_units: pairable,
      n_units_single: single,
      n_ratings: categoryTotals.reduce((x, y) => x + y, 0),
      ratings_per_unit: perUnit,
      category_counts: categoryCounts,
      percent_agreement: at(0, pairable),
      fleiss_kappa: at(1, pairable),
      krippendorff_alpha: at(2, pairable),
      gwet_ac1: at(3, pairable),
      specific_agreement: specific,
      pairs: pairs.map((pair, p) =>
        assemblePair(pair.rater_a, pair.rater_b, pair.table, pair.summaries, results[1 + p]!, sch),
      ),
    };
  };
  return { blocks, assemble, unclearDropped, unitsRated };
}

function assemblePair(
  raterA: string,
  raterB: string,
  table: number[][],
  summaries: number,
  result: BlockResult,
  sch: Scheme,
): PairAgreement {
  const k = sch.categories.length;
  let n = 0;
  for (const row of table) for (const cell of row) n += cell;
  const at = (j: number, units: number) => estimate(result.point[j]!, result.intervals[j]!, units, summaries);
  const specific: Record<string, Estimate> = {};
  sch.categories.forEach((category, c) => {
    let either = 0;
    for (let j = 0; j < k; j += 1) either += table[c]![j]! + table[j]![c]!;
    either -= table[c]![c]!;
    specific[category] = at(4 + c, either);
  });
  return {
    rater_a: raterA,
    rater_b: raterB,
    n_units: n,
    n_summaries: summaries,
    table: table.map((row) => [...row]),
    percent_agreement: at(0, n),
    cohen_kappa: at(1, n),
    krippendorff_alpha: at(2, n),
    gwet_ac1: at(3, n),
    specific_agreement: specific,
  };
}

// ───────────────────────────── judges against the human label ─────────────────────────────

/** One unit of a judge-vs-human comparison. */
export interface HumanJudgeUnit {
  /** Resolved human label; null = none. */
  human: HumanLabel | null;
  /** The judge's hard label; null = none. */
  judge: JudgeHardLabel;
}

function judgeBlock(
  units: readonly (readonly HumanJudgeUnit[])[],
  judge: string,
  sch: Scheme,
): Assembled<JudgeHumanAgreement> {
  const k = sch.categories.length;
  const width = pairWidth(k);
  const features = new Float64Array(units.length * width);
  const table = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  let summaries = 0;
  let noHuman = 0;
  let noJudge = 0;
  let unclearDropped = 0;
  units.forEach((summaryUnits, s) => {
    let compared = false;
    for (const unit of summaryUnits) {
      if (unit.human === null) {
        if (unit.judge !== null) noHuman += 1;
        continue;
      }
      const x = sch.index(unit.human);
      if (x === -1) {
        unclearDropped += 1;
        continue;
      }
      if (unit.judge === null) {
        noJudge += 1;
        continue;
      }
      const y = sch.index(judgeLabelAsHuman(unit.judge));
      addUnitToPair(features, s * width, x, y, k);
      table[x]![y]! += 1;
      compared = true;
    }
    if (compared) summaries += 1;
  });
  return {
    blocks: [
      { width, outWidth: pairOutputWidth(k), features, evaluate: (sums, out) => evaluatePair(sums, 0, k, out, 0) },
    ],
    assemble: (results) => ({
      ...assemblePair('human', judge, table, summaries, results[0]!, sch),
      n_units_no_human: noHuman,
      n_units_no_judge: noJudge,
      n_units_unclear_dropped: unclearDropped,
    }),
  };
}

/** The label a unit's judges are compared with: `human` when given (null = none), else resolved from the ratings. */
function humanLabelOf(unit: AgreementSummary['units'][number]): HumanLabel | null {
  if (unit.human !== undefined) return unit.human;
  return resolveHumanLabel(unit.ratings).label;
}

// ───────────────────────────── public API ─────────────────────────────

function streamFor(name: string, seed: number) {
  return createStream(seed, AGREEMENT_STREAM_VERSION, name, AGREEMENT_STREAM_PURPOSE);
}

function validateSummaries(summaries: readonly AgreementSummary[], where: string): void {
  const ids = new Set<string>();
  summaries.forEach((summary, s) => {
    if (ids.has(summary.summaryId))
      throw new RangeError(`${where}: summary ${JSON.stringify(summary.summaryId)} appears twice`);
    ids.add(summary.summaryId);
    summary.units.forEach((unit, u) => {
      const at = `${where}, summary ${JSON.stringify(summary.summaryId)} (#${s}), unit ${u}`;
      for (const [rater, label] of Object.entries(unit.ratings))
        checkHumanLabel(label, `${at}, rater ${JSON.stringify(rater)}`);
      if (unit.human !== undefined && unit.human !== null) checkHumanLabel(unit.human, `${at}, human`);
      for (const [judge, label] of Object.entries(unit.judges ?? {}))
        checkJudgeLabel(label, `${at}, judge ${JSON.stringify(judge)}`);
    });
  });
}

function namesFound(
  summaries: readonly AgreementSummary[],
  pick: (unit: AgreementSummary['units'][number]) => object | undefined,
): string[] {
  const names = new Set<string>();
  for (const summary of summaries)
    for (const unit of summary.units) for (const name of Object.keys(pick(unit) ?? {})) names.add(name);
  return [...names].sort();
}

/**
 * Agreement figures of one dataset: the listed human raters among themselves (multi-rater and
 * every pair) and each judge against the resolved human label. Bootstrap units are the summaries
 * with ≥ 1 rating or human label; one resample per replicate serves every figure.
 */
export function agreementForDataset(dataset: AgreementDataset, options?: AgreementOptions): DatasetAgreement {
  const settings = resolveOptions(options);
  const sch = scheme(settings.unclear);
  validateSummaries(dataset.summaries, `dataset ${JSON.stringify(dataset.name)}`);
  const raters = dataset.raters ? [...dataset.raters] : namesFound(dataset.summaries, (unit) => unit.ratings);
  const judges = dataset.judges ? [...dataset.judges] : namesFound(dataset.summaries, (unit) => unit.judges);
  checkNames(raters, 'rater');
  checkNames(judges, 'judge');

  const labeled = dataset.summaries.filter((summary) =>
    summary.units.some((unit) => Object.keys(unit.ratings).length > 0 || humanLabelOf(unit) !== null),
  );
  const humans = humanBlocks(labeled, raters, sch);
  const judgeParts = judges.map((judge) =>
    judgeBlock(
      labeled.map((summary) =>
        summary.units.map((unit) => ({ human: humanLabelOf(unit), judge: unit.judges?.[judge] ?? null })),
      ),
      judge,
      sch,
    ),
  );
  const parts: Assembled<unknown>[] = [humans, ...judgeParts];
  const blocks = parts.flatMap((part) => part.blocks);
  const results = runBlocks(
    blocks,
    labeled.length,
    settings.bootstrap,
    settings.bootstrap > 0 ? streamFor(dataset.name, settings.seed) : null,
  );

  let next = 0;
  const take = <T>(part: Assembled<T>): T => {
    const slice = results.slice(next, next + part.blocks.length);
    next += part.blocks.length;
    return part.assemble(slice);
  };
  const humanFigures = take(humans);
  const judgeFigures: Record<string, JudgeHumanAgreement> = {};
  judgeParts.forEach((part, j) => {
    judgeFigures[judges[j]!] = take(part);
  });
  return {
    dataset: dataset.name,
    unclear: settings.unclear,
    categories: [...sch.categories],
    n_summaries: labeled.length,
    n_summaries_without_labels: dataset.summaries.length - labeled.length,
    n_units: labeled.reduce((total, summary) => total + summary.units.length, 0),
    n_units_rated: humans.unitsRated,
    n_units_unclear_dropped: humans.unclearDropped,
    humans: humanFigures,
    judges: judgeFigures,
    judge_names: judges,
  };
}

/**
 * Multi-rater and pairwise figures of human raters (or any raters) over the summaries passed,
 * every one of which is a bootstrap unit. The stream is that of dataset `name` (default ''), so
 * with a dataset's labeled summaries and name the numbers equal the report's.
 */
export function raterAgreement(
  summaries: readonly AgreementSummary[],
  options?: AgreementOptions & { name?: string; raters?: readonly string[] },
): MultiRaterAgreement & { n_units_unclear_dropped: number } {
  const settings = resolveOptions(options);
  const sch = scheme(settings.unclear);
  const name = options?.name ?? '';
  validateSummaries(summaries, 'raterAgreement');
  const raters = options?.raters ? [...options.raters] : namesFound(summaries, (unit) => unit.ratings);
  checkNames(raters, 'rater');
  const humans = humanBlocks(summaries, raters, sch);
  const results = runBlocks(
    humans.blocks,
    summaries.length,
    settings.bootstrap,
    settings.bootstrap > 0 ? streamFor(name, settings.seed) : null,
  );
  return { ...humans.assemble(results), n_units_unclear_dropped: humans.unclearDropped };
}

/**
 * A judge against the human label: `summaries[s]` lists the units of summary s, each with the
 * resolved human label and the judge's hard label. Every summary passed is a bootstrap unit; the
 * stream is that of dataset `name` (default ''), so with a dataset's labeled summaries and name the
 * numbers equal the report's.
 */
export function judgeHumanAgreement(
  summaries: readonly (readonly HumanJudgeUnit[])[],
  options?: AgreementOptions & { name?: string; judge?: string },
): JudgeHumanAgreement {
  const settings = resolveOptions(options);
  const sch = scheme(settings.unclear);
  summaries.forEach((units, s) =>
    units.forEach((unit, u) => {
      if (unit.human !== null) checkHumanLabel(unit.human, `judgeHumanAgreement, summary ${s}, unit ${u}, human`);
      checkJudgeLabel(unit.judge, `judgeHumanAgreement, summary ${s}, unit ${u}`);
    }),
  );
  const part = judgeBlock(summaries, options?.judge ?? 'judge', sch);
  const results = runBlocks(
    part.blocks,
    summaries.length,
    settings.bootstrap,
    settings.bootstrap > 0 ? streamFor(options?.name ?? '', settings.seed) : null,
  );
  return part.assemble(results);
}

export const AGREEMENT_DEFINITIONS: Record<string, string> = {
  unclear:
    "'exclude' (default): two categories, faithful and unfaithful; a unit that any listed rater rated unclear is left out of the human figures (n_units_unclear_dropped), and a unit whose resolved human label is unclear is left out of the judge figures. 'category': three categories, unclear included (judges never say unclear, so a human unclear is always a judge disagreement).",
  bootstrap:
    'Resample the summaries with ≥ 1 rating or human label, with replacement; one resample per replicate serves every figure of the dataset (paired). 95% interval: 2.5/97.5 percentiles, linear interpolation between order statistics (type 7). Replicates where a figure is undefined are dropped and counted (replicates_dropped). A figure resting on fewer than 5 summaries has no interval (too_few; multi-rater figures: the summaries with a pairable unit; a pair or a judge: the summaries both rated).',
  percent_agreement:
    'Multi-rater: mean over units with ≥ 2 ratings of the share of agreeing rater pairs in the unit. Pair: share of units both rated on which they agree.',
  cohen_kappa:
    "Cohen (1960) for each pair, over units both rated, each rater's own marginals. Undefined (null) when both raters put every unit in the same single category.",
  fleiss_kappa:
    "Fleiss (1971) generalised to a varying number of ratings per unit (Gwet 2014): p_a = mean over units with ≥ 2 ratings of Σ n_k(n_k−1)/(m(m−1)); π_k = mean over units with ≥ 1 rating of n_k/m; κ = (p_a − Σπ_k²)/(1 − Σπ_k²). Equals Fleiss' κ when every unit has the same number of ratings. With missing ratings prefer Krippendorff's α. Undefined when every rating is in one category.",
  krippendorff_alpha:
    "Krippendorff's α, nominal, from the coincidence matrix over pairable values (units with ≥ 2 ratings): α = 1 − (n−1)(n − Σ o_kk)/(n² − Σ n_k²). Handles missing ratings and any number of raters. Undefined when all pairable values are equal.",
  gwet_ac1:
    "Gwet's AC1 (Gwet 2008): (p_a − p_e)/(1 − p_e), p_e = Σ π_k(1 − π_k)/(K − 1) with K the number of categories of the scheme (2, or 3 with unclear as a category); multi-rater p_a and π_k as for Fleiss' κ, pair π_k = mean of the two raters' shares. Defined whenever p_a is, including when one category is used everywhere (κ and α are then undefined); less affected than κ when faithful dominates.",
  specific_agreement:
    'Per category k (Uebersax): Σ n_k(n_k−1) / Σ n_k(m−1) over units with ≥ 2 ratings; for two raters with table [[a, b], [c, d]], 2a/(2a+b+c) for faithful and 2d/(2d+b+c) for unfaithful. n = units where the category occurs.',
  judges:
    'Each judge against the resolved human label (one rater, or the label all raters agree on, or an adjudicated label given as human; raters who disagree leave no label): the pair figures, judge hard label 1 = faithful, 0 = unfaithful, over units with both labels.',
  n: 'n of a figure = the units it rests on; n_raters and the pair names give the raters.',
};

/** Agreement report of one or several datasets (plain JSON). */
export function agreementReport(
  datasets: AgreementDataset | readonly AgreementDataset[],
  options?: AgreementOptions,
): AgreementReport {
  const settings = resolveOptions(options);
  const list: readonly AgreementDataset[] = Array.isArray(datasets)
    ? (datasets as readonly AgreementDataset[])
    : [datasets as AgreementDataset];
  const names = new Set<string>();
  for (const dataset of list) {
    if (names.has(dataset.name)) throw new RangeError(`dataset ${JSON.stringify(dataset.name)} appears twice`);
    names.add(dataset.name);
  }
  return {
    settings: { bootstrap: settings.bootstrap, seed: settings.seed, unclear: settings.unclear },
    definitions: { ...AGREEMENT_DEFINITIONS },
    datasets: list.map((dataset) => agreementForDataset(dataset, settings)),
  };
}
