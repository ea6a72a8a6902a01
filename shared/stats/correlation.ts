/**
 * Correlation and ranking statistics on paired samples (unweighted, general data).
 * An undefined statistic is returned as null, never 0 or NaN.
 */

function checkPaired(x: ArrayLike<number>, y: ArrayLike<number>): void {
  if (x.length !== y.length) throw new RangeError(`paired samples differ in length (${x.length} vs ${y.length})`);
  for (let i = 0; i < x.length; i += 1) {
    if (!Number.isFinite(x[i]) || !Number.isFinite(y[i])) throw new RangeError(`non-finite value at position ${i}`);
  }
}

function isConstant(values: ArrayLike<number>): boolean {
  for (let i = 1; i < values.length; i += 1) if (values[i] !== values[0]) return false;
  return true;
}

function clampUnit(r: number): number {
  return r > 1 ? 1 : r < -1 ? -1 : r;
}

/** Pearson's r (two-pass). null when n < 2 or either variable is constant. */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  checkPaired(x, y);
  const n = x.length;
  if (n < 2 || isConstant(x) || isConstant(y)) return null;
  let sumX = 0;
  let sumY = 0;
  for (let i = 0; i < n; i += 1) {
    sumX += x[i]!;
    sumY += y[i]!;
  }
  const meanX = sumX / n;
  const meanY = sumY / n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < n; i += 1) {
    const dx = x[i]! - meanX;
    const dy = y[i]! - meanY;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return clampUnit(sxy / Math.sqrt(sxx * syy));
}

/** 1-based ranks; tied values share the average of the positions they occupy. */
export function averageRanks(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const ranks = new Float64Array(n);
  let start = 0;
  while (start < n) {
    let end = start + 1;
    while (end < n && values[order[end]!] === values[order[start]!]) end += 1;
    const average = (start + 1 + end) / 2; // mean of positions start+1 … end
    for (let k = start; k < end; k += 1) ranks[order[k]!] = average;
    start = end;
  }
  return ranks;
}

/** Spearman's ρ = Pearson's r of the average ranks. null when either variable is constant. */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  checkPaired(x, y);
  return pearson(averageRanks(x), averageRanks(y));
}

/** Σ t(t−1)/2 over groups of equal adjacent values (the array must be sorted by that key). */
function tiedPairs(n: number, same: (a: number, b: number) => boolean): number {
  let pairs = 0;
  let run = 1;
  for (let i = 1; i < n; i += 1) {
    if (same(i - 1, i)) {
      run += 1;
    } else {
      pairs += (run * (run - 1)) / 2;
      run = 1;
    }
  }
  return pairs + (run * (run - 1)) / 2;
}

/**
 * Kendall's τ-b in O(n log n) (Knight 1966): sort by (x, y), count x ties and joint ties,
 * count the exchanges a stable merge sort by y needs (discordant pairs), then
 * S = n0 − n1 − n2 + n3 − 2·swaps and τ-b = S / √((n0 − n1)(n0 − n2)).
 * null when either variable is constant (a zero in the denominator).
 */
export function kendallTauB(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  checkPaired(x, y);
  const n = x.length;
  if (n < 2) return null;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a]! - x[b]! || y[a]! - y[b]!);
  const xs = Float64Array.from(order, (i) => x[i]!);
  let ys = Float64Array.from(order, (i) => y[i]!);
  const n0 = (n * (n - 1)) / 2;
  const n1 = tiedPairs(n, (a, b) => xs[a] === xs[b]);
  const n3 = tiedPairs(n, (a, b) => xs[a] === xs[b] && ys[a] === ys[b]);

  // Bottom-up merge sort of ys counting, for each element taken from the right run,
  // how many elements of the left run are strictly greater (pairs that are discordant).
  let swaps = 0;
  let buffer = new Float64Array(n);
  for (let width = 1; width < n; width *= 2) {
    for (let left = 0; left < n; left += 2 * width) {
      const middle = Math.min(left + width, n);
      const right = Math.min(left + 2 * width, n);
      let i = left;
      let j = middle;
      let k = left;
      while (i < middle && j < right) {
        if (ys[j]! < ys[i]!) {
          swaps += middle - i;
          buffer[k++] = ys[j++]!;
        } else {
          buffer[k++] = ys[i++]!;
        }
      }
      while (i < middle) buffer[k++] = ys[i++]!;
      while (j < right) buffer[k++] = ys[j++]!;
    }
    [ys, buffer] = [buffer, ys];
  }
  const n2 = tiedPairs(n, (a, b) => ys[a] === ys[b]);
  const denominator = (n0 - n1) * (n0 - n2);
  if (denominator <= 0) return null;
  return clampUnit((n0 - n1 - n2 + n3 - 2 * swaps) / Math.sqrt(denominator));
}

/**
 * ROC-AUC of `scores` for the class `labels[i] === positive` (Mann–Whitney U / (n₊ n₋),
 * ties between a positive and a negative count ½). null when either class is empty;
 * 0.5 when the scores are constant.
 */
export function rocAuc(scores: ArrayLike<number>, labels: ArrayLike<number>, positive = 1): number | null {
  checkPaired(scores, labels);
  const ranks = averageRanks(scores);
  let nPositive = 0;
  let rankSum = 0;
  for (let i = 0; i < scores.length; i += 1) {
    if (labels[i] === positive) {
      nPositive += 1;
      rankSum += ranks[i]!;
    }
  }
  const nNegative = scores.length - nPositive;
  if (nPositive === 0 || nNegative === 0) return null;
  return (rankSum - (nPositive * (nPositive + 1)) / 2) / (nPositive * nNegative);
}
