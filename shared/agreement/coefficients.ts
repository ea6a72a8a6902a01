/**
 * Agreement coefficients for nominal ratings, computed from sufficient statistics.
 *
 * Every coefficient here is a ratio of sums over units. The sums are kept in flat Float64Arrays
 * ("features") so that a bootstrap replicate is a count-weighted sum of per-summary features
 * followed by one evaluation: a resample with integer draw counts gives exactly the sums of the
 * expanded resample, and the point estimate is the same evaluation with every weight 1.
 *
 * Notation: a unit u has m_u ratings, n_uk of them in category k (K categories).
 *
 * Multi-rater figures (any number of raters, missing ratings allowed):
 * - percent agreement p_a = mean over units with m_u ≥ 2 of Σ_k n_uk(n_uk − 1) / (m_u(m_u − 1)),
 *   the share of agreeing rater pairs in the unit (Fleiss 1971; Gwet 2014, ch. 2 and 4).
 * - π_k = mean over units with m_u ≥ 1 of n_uk / m_u (Gwet 2014's generalisation to a varying
 *   number of raters; singly-rated units enter the prevalence, not p_a).
 * - Fleiss' κ = (p_a − Σ π_k²) / (1 − Σ π_k²): Fleiss (1971) when every unit has the same m,
 *   Gwet's generalised form otherwise. Undefined when every rating is in one category.
 * - Gwet's AC1 = (p_a − p_e) / (1 − p_e), p_e = Σ π_k(1 − π_k) / (K − 1) (Gwet 2008). p_e ≤ 1/K,
 *   so AC1 is defined whenever some unit has two ratings.
 * - Krippendorff's α (nominal), coincidence-matrix form (Krippendorff 2011): over pairable
 *   values (units with m_u ≥ 2), o_kk = Σ_u n_uk(n_uk − 1)/(m_u − 1), n_k = Σ_u n_uk, n = Σ n_k,
 *   α = 1 − (n − 1)(n − Σ o_kk) / (n² − Σ n_k²). Undefined when all pairable values are equal.
 * - Specific (per-class) agreement for category k (Uebersax's multi-rater form):
 *   Σ_u n_uk(n_uk − 1) / Σ_u n_uk(m_u − 1) over units with m_u ≥ 2; for two raters with table
 *   [[a, b], [c, d]] it is 2a/(2a + b + c) for the first category and 2d/(2d + b + c) for the
 *   second. Undefined when category k has no pairable rating.
 *
 * Pair figures (two raters, units both rated, contingency table T, rows rater A):
 * - percent agreement Σ T_kk / N; Cohen's κ (1960) with each rater's own marginals, undefined
 *   when both raters use a single, common category; AC1 with π_k = (row_k + col_k) / 2N;
 *   Krippendorff's α with o_kk = 2 T_kk, n_k = row_k + col_k; specific agreement
 *   2 T_kk / (row_k + col_k).
 *
 * Undefined values are NaN inside this module and become null in reports.
 */

// ───────────────────────────── multi-rater ─────────────────────────────

/** Statistics written by evaluateMultiRater, in this order, followed by K specific agreements. */
export const MULTI_RATER_STATISTICS = ['percent_agreement', 'fleiss_kappa', 'krippendorff_alpha', 'gwet_ac1'] as const;
/** Statistics written by evaluatePair, in this order, followed by K specific agreements. */
export const PAIR_STATISTICS = ['percent_agreement', 'cohen_kappa', 'krippendorff_alpha', 'gwet_ac1'] as const;

// Feature layout of a multi-rater block (K categories):
//   0 units with m ≥ 2 · 1 Σ per-unit pair agreement · 2 units with m ≥ 1
//   3 + k          Σ n_k/m over units with m ≥ 1            (prevalence)
//   3 + K + k      Σ n_k(n_k − 1)/(m − 1), m ≥ 2           (coincidence diagonal)
//   3 + 2K + k     Σ n_k, m ≥ 2                             (pairable values)
//   3 + 3K + k     Σ n_k(n_k − 1), m ≥ 2                    (specific agreement numerator)
//   3 + 4K + k     Σ n_k(m − 1), m ≥ 2                      (specific agreement denominator)
const UNITS_PAIRABLE = 0;
const AGREEMENT_SUM = 1;
const UNITS_RATED = 2;
const HEAD = 3;

export function multiRaterWidth(categories: number): number {
  return HEAD + 5 * categories;
}

export function multiRaterOutputWidth(categories: number): number {
  return MULTI_RATER_STATISTICS.length + categories;
}

/**
 * Adds one unit, given its rating count per category (length K), to the features at `offset`.
 * Units with no rating add nothing.
 */
export function addUnitToMultiRater(
  features: Float64Array,
  offset: number,
  counts: ArrayLike<number>,
  categories: number,
): void {
  let m = 0;
  for (let k = 0; k < categories; k += 1) m += counts[k]!;
  if (m === 0) return;
  features[offset + UNITS_RATED]! += 1;
  for (let k = 0; k < categories; k += 1) features[offset + HEAD + k]! += counts[k]! / m;
  if (m < 2) return;
  features[offset + UNITS_PAIRABLE]! += 1;
  let agreeingPairs = 0;
  for (let k = 0; k < categories; k += 1) {
    const c = counts[k]!;
    const sameCategoryPairs = c * (c - 1);
    agreeingPairs += sameCategoryPairs;
    features[offset + HEAD + categories + k]! += sameCategoryPairs / (m - 1);
    features[offset + HEAD + 2 * categories + k]! += c;
    features[offset + HEAD + 3 * categories + k]! += sameCategoryPairs;
    features[offset + HEAD + 4 * categories + k]! += c * (m - 1);
  }
  features[offset + AGREEMENT_SUM]! += agreeingPairs / (m * (m - 1));
}

/**
 * Writes [p_a, Fleiss' κ, Krippendorff's α, Gwet's AC1, specific agreement of each category]
 * computed from summed features; NaN where undefined.
 */
export function evaluateMultiRater(
  sums: Float64Array,
  offset: number,
  categories: number,
  out: Float64Array,
  outOffset: number,
): void {
  const pairable = sums[offset + UNITS_PAIRABLE]!;
  const rated = sums[offset + UNITS_RATED]!;
  for (let j = 0; j < multiRaterOutputWidth(categories); j += 1) out[outOffset + j] = NaN;
  if (pairable === 0) return;
  const pa = sums[offset + AGREEMENT_SUM]! / pairable;
  let sumSquares = 0;
  let sumPiOneMinusPi = 0;
  let usedCategories = 0;
  for (let k = 0; k < categories; k += 1) {
    const shareSum = sums[offset + HEAD + k]!;
    if (shareSum > 0) usedCategories += 1;
    const pi = shareSum / rated;
    sumSquares += pi * pi;
    sumPiOneMinusPi += pi * (1 - pi);
  }
  out[outOffset] = pa;
  // One category in every rating: Σ π² = 1 exactly and κ is 0/0.
  if (usedCategories > 1) out[outOffset + 1] = (pa - sumSquares) / (1 - sumSquares);
  out[outOffset + 2] = alphaFromCoincidences(
    sums,
    offset + HEAD + categories,
    offset + HEAD + 2 * categories,
    categories,
  );
  const peAc1 = sumPiOneMinusPi / (categories - 1);
  out[outOffset + 3] = (pa - peAc1) / (1 - peAc1);
  for (let k = 0; k < categories; k += 1) {
    const denominator = sums[offset + HEAD + 4 * categories + k]!;
    if (denominator > 0) out[outOffset + 4 + k] = sums[offset + HEAD + 3 * categories + k]! / denominator;
  }
}

/** α = 1 − (n − 1)(n − Σ o_kk) / (n² − Σ n_k²); NaN when fewer than two values differ. */
function alphaFromCoincidences(
  sums: Float64Array,
  diagonalOffset: number,
  valuesOffset: number,
  categories: number,
): number {
  let n = 0;
  let sumSquares = 0;
  let diagonal = 0;
  for (let k = 0; k < categories; k += 1) {
    const nk = sums[valuesOffset + k]!;
    n += nk;
    sumSquares += nk * nk;
    diagonal += sums[diagonalOffset + k]!;
  }
  // n and n_k are integer sums, so the expected disagreement is exactly 0 when one category holds every value.
  const expected = n * n - sumSquares;
  if (expected === 0) return NaN;
  return 1 - ((n - 1) * (n - diagonal)) / expected;
}

// ───────────────────────────── pairs ─────────────────────────────

export function pairWidth(categories: number): number {
  return categories * categories;
}

export function pairOutputWidth(categories: number): number {
  return PAIR_STATISTICS.length + categories;
}

/** Adds one unit rated `a` by the first rater and `b` by the second (category indexes). */
export function addUnitToPair(features: Float64Array, offset: number, a: number, b: number, categories: number): void {
  features[offset + a * categories + b]! += 1;
}

/**
 * Writes [p_a, Cohen's κ, Krippendorff's α, Gwet's AC1, specific agreement of each category]
 * from a summed contingency table (row-major, rows = first rater); NaN where undefined.
 */
export function evaluatePair(
  sums: Float64Array,
  offset: number,
  categories: number,
  out: Float64Array,
  outOffset: number,
): void {
  for (let j = 0; j < pairOutputWidth(categories); j += 1) out[outOffset + j] = NaN;
  let n = 0;
  let agree = 0;
  for (let a = 0; a < categories; a += 1) {
    for (let b = 0; b < categories; b += 1) {
      const cell = sums[offset + a * categories + b]!;
      n += cell;
      if (a === b) agree += cell;
    }
  }
  if (n === 0) return;
  const pa = agree / n;
  out[outOffset] = pa;
  let peCohen = 0;
  let sumPiOneMinusPi = 0;
  let sumSquares = 0;
  let degenerate = false;
  for (let k = 0; k < categories; k += 1) {
    let row = 0;
    let column = 0;
    for (let j = 0; j < categories; j += 1) {
      row += sums[offset + k * categories + j]!;
      column += sums[offset + j * categories + k]!;
    }
    // Both raters put every unit in category k: p_e = 1 and κ is 0/0 (integer sums, exact).
    if (row === n && column === n) degenerate = true;
    peCohen += (row / n) * (column / n);
    const pi = (row + column) / (2 * n);
    sumPiOneMinusPi += pi * (1 - pi);
    const values = row + column;
    sumSquares += values * values;
    if (values > 0) out[outOffset + 4 + k] = (2 * sums[offset + k * categories + k]!) / values;
  }
  if (!degenerate) out[outOffset + 1] = (pa - peCohen) / (1 - peCohen);
  // Coincidences of two raters: n = 2N values, o_kk = 2 T_kk, Σ o_kk = 2·agree.
  const values = 2 * n;
  const expected = values * values - sumSquares;
  if (expected !== 0) out[outOffset + 2] = 1 - ((values - 1) * (values - 2 * agree)) / expected;
  const peAc1 = sumPiOneMinusPi / (categories - 1);
  out[outOffset + 3] = (pa - peAc1) / (1 - peAc1);
}

// ───────────────────────────── convenience API ─────────────────────────────

export interface MultiRaterCoefficients {
  percent_agreement: number | null;
  fleiss_kappa: number | null;
  krippendorff_alpha: number | null;
  gwet_ac1: number | null;
  /** Per category, in column order. */
  specific_agreement: (number | null)[];
  /** Units with ≥ 2 ratings (the units p_a and α rest on). */
  n_units: number;
  /** Units with exactly one rating (they enter only the prevalence π of Fleiss' κ and AC1). */
  n_units_single: number;
}

export interface PairCoefficients {
  percent_agreement: number | null;
  cohen_kappa: number | null;
  krippendorff_alpha: number | null;
  gwet_ac1: number | null;
  specific_agreement: (number | null)[];
  /** Units both raters rated. */
  n_units: number;
}

function nullable(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}

function checkCategories(categories: number): void {
  if (!Number.isInteger(categories) || categories < 2)
    throw new RangeError(`agreement needs at least 2 categories, got ${categories}`);
}

function checkCount(value: number, where: string): void {
  if (!Number.isInteger(value) || value < 0)
    throw new RangeError(`${where} must be a non-negative integer, got ${value}`);
}

/**
 * Every multi-rater coefficient from a units × categories matrix of rating counts (row u,
 * column k = how many raters put unit u in category k). The number of categories is the number
 * of columns (≥ 2), used or not: it sets AC1's chance term.
 */
export function multiRaterCoefficients(
  counts: readonly (readonly number[])[],
  categories?: number,
): MultiRaterCoefficients {
  const k = categories ?? counts[0]?.length ?? 0;
  checkCategories(k);
  const features = new Float64Array(multiRaterWidth(k));
  let single = 0;
  counts.forEach((row, u) => {
    if (row.length !== k) throw new RangeError(`unit ${u} has ${row.length} category counts, expected ${k}`);
    let m = 0;
    for (const value of row) {
      checkCount(value, `unit ${u}'s category count`);
      m += value;
    }
    if (m === 1) single += 1;
    addUnitToMultiRater(features, 0, row, k);
  });
  const out = new Float64Array(multiRaterOutputWidth(k));
  evaluateMultiRater(features, 0, k, out, 0);
  return {
    percent_agreement: nullable(out[0]!),
    fleiss_kappa: nullable(out[1]!),
    krippendorff_alpha: nullable(out[2]!),
    gwet_ac1: nullable(out[3]!),
    specific_agreement: Array.from(out.subarray(4), nullable),
    n_units: features[UNITS_PAIRABLE]!,
    n_units_single: single,
  };
}

/** Every pair coefficient from a K × K contingency table (rows = first rater, columns = second). */
export function pairCoefficients(table: readonly (readonly number[])[]): PairCoefficients {
  const k = table.length;
  checkCategories(k);
  const features = new Float64Array(pairWidth(k));
  table.forEach((row, a) => {
    if (row.length !== k) throw new RangeError(`contingency table row ${a} has ${row.length} cells, expected ${k}`);
    row.forEach((value, b) => {
      checkCount(value, `contingency cell [${a}][${b}]`);
      features[a * k + b] = value;
    });
  });
  const out = new Float64Array(pairOutputWidth(k));
  evaluatePair(features, 0, k, out, 0);
  let n = 0;
  for (const value of features) n += value;
  return {
    percent_agreement: nullable(out[0]!),
    cohen_kappa: nullable(out[1]!),
    krippendorff_alpha: nullable(out[2]!),
    gwet_ac1: nullable(out[3]!),
    specific_agreement: Array.from(out.subarray(4), nullable),
    n_units: n,
  };
}

/**
 * Units × categories count matrix from raw ratings: `ratings[u][r]` is rater r's category index
 * for unit u, or null when rater r did not rate it.
 */
export function categoryCounts(ratings: readonly (readonly (number | null)[])[], categories: number): number[][] {
  checkCategories(categories);
  return ratings.map((row, u) => {
    const counts = new Array<number>(categories).fill(0);
    for (const value of row) {
      if (value === null) continue;
      if (!Number.isInteger(value) || value < 0 || value >= categories)
        throw new RangeError(`unit ${u}: category ${value} is not in [0, ${categories})`);
      counts[value]! += 1;
    }
    return counts;
  });
}

/** K × K contingency table of two raters over the units both rated (null = not rated). */
export function contingencyTable(
  a: readonly (number | null)[],
  b: readonly (number | null)[],
  categories: number,
): number[][] {
  checkCategories(categories);
  if (a.length !== b.length) throw new RangeError(`rating vectors differ in length: ${a.length} and ${b.length}`);
  const table = Array.from({ length: categories }, () => new Array<number>(categories).fill(0));
  for (let u = 0; u < a.length; u += 1) {
    const x = a[u]!;
    const y = b[u]!;
    if (x === null || y === null) continue;
    for (const value of [x, y]) {
      if (!Number.isInteger(value) || value < 0 || value >= categories)
        throw new RangeError(`unit ${u}: category ${value} is not in [0, ${categories})`);
    }
    table[x]![y]! += 1;
  }
  return table;
}

/** Cohen's κ of a contingency table; null when undefined (no unit, or both raters constant on one category). */
export function cohenKappa(table: readonly (readonly number[])[]): number | null {
  return pairCoefficients(table).cohen_kappa;
}

/** Fleiss' κ (Gwet's generalisation for a varying number of ratings) from a units × categories count matrix. */
export function fleissKappa(counts: readonly (readonly number[])[]): number | null {
  return multiRaterCoefficients(counts).fleiss_kappa;
}

/** Krippendorff's α (nominal) from a units × categories count matrix. */
export function krippendorffAlpha(counts: readonly (readonly number[])[]): number | null {
  return multiRaterCoefficients(counts).krippendorff_alpha;
}

/** Gwet's AC1 (multi-rater, Gwet 2008) from a units × categories count matrix. */
export function gwetAc1(counts: readonly (readonly number[])[]): number | null {
  return multiRaterCoefficients(counts).gwet_ac1;
}
