/**
 * Reproducible uniform sampling ("hash-rank v1").
 *
 * Every summary gets a pseudo-random rank = splitmix64(fnv1a64(dataset ␀ summary_id) XOR seed);
 * a draw takes the n not-yet-sampled summaries with the smallest ranks (ties, which need a
 * 64-bit collision, go to the smaller summary_id in code-unit order).
 *
 * Why this and not a shuffle: the rank of a summary depends only on its own id, the dataset
 * name and the seed, so the sample is identical on every machine and version for the same
 * content and seed, independent of import order or database ids; a second batch simply
 * continues down the same ranking and can never repeat the first; and because ranks are
 * i.i.d. uniform, the n smallest are a uniform random subset.
 */

export const SAMPLING_ALGORITHM = 'hash-rank-v1';

const MASK64 = (1n << 64n) - 1n;
const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;

/** FNV-1a over the UTF-8 bytes of the text. */
export function fnv1a64(text: string): bigint {
  let hash = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * FNV_PRIME) & MASK64;
  }
  return hash;
}

/** splitmix64's finaliser: turns structured input into well-mixed 64 bits. */
export function splitmix64(x: bigint): bigint {
  let z = (x + 0x9e3779b97f4a7c15n) & MASK64;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return z ^ (z >> 31n);
}

export function sampleRank(dataset: string, summaryId: string, seed: number): bigint {
  return splitmix64(fnv1a64(`${dataset}\u0000${summaryId}`) ^ BigInt(seed));
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The ranking of all candidates for a seed, most-preferred first. */
export function rankForSampling<T extends { summaryId: string }>(
  dataset: string,
  candidates: readonly T[],
  seed: number,
): T[] {
  const ranked = candidates.map((c) => ({ c, rank: sampleRank(dataset, c.summaryId, seed) }));
  ranked.sort((x, y) => (x.rank < y.rank ? -1 : x.rank > y.rank ? 1 : compareCodeUnits(x.c.summaryId, y.c.summaryId)));
  return ranked.map((r) => r.c);
}

/** Draws up to n of the candidates (the not-yet-sampled summaries). */
export function drawSample<T extends { summaryId: string }>(
  dataset: string,
  candidates: readonly T[],
  n: number,
  seed: number,
): T[] {
  return rankForSampling(dataset, candidates, seed).slice(0, n);
}

// ───────────────────────────── assignments with overlap ─────────────────────────────

export const ASSIGNMENT_ALGORITHM = 'overlap-balanced-v1';

/** One summary of a batch and the annotators it goes to (one, or two when it is an overlap item). */
export interface Assignment<T> {
  item: T;
  annotators: string[];
}

/**
 * Splits a batch among annotators with a chosen overlap ("overlap-balanced-v1"):
 *
 * 1. d = round(overlap · n) of the batch's n items (n = items.length, in the batch's hash-rank
 *    order) go to two annotators, the other n − d to one. The doubled items are spread evenly over
 *    the rank order: item i (0-based) is doubled when ⌊(i+1)·d/n⌋ > ⌊i·d/n⌋. Since ranks are
 *    i.i.d. uniform, any fixed set of positions is a uniform random subset of the batch.
 * 2. The annotators' tie-break order is their own hash rank, splitmix64(fnv1a64(dataset ␀ "annotator"
 *    ␀ name) XOR seed), ties by name: it depends on the seed and the names, never on the order given.
 * 3. Items are dealt in rank order. A single item goes to the annotator with the fewest items so
 *    far (ties by the fewest single items so far, then the tie-break order). A doubled item goes to a pair that keeps the loads within
 *    one of each other (two of the least loaded, or the only least loaded with one of the next
 *    level), choosing among those pairs the one that has shared the fewest items so far, then by
 *    the tie-break order. So at every point of the deal the annotators' loads differ by at most
 *    one (each ends with ⌊(n+d)/k⌋ or ⌈(n+d)/k⌉ items), an item never goes twice to the same
 *    person, and the shared items spread over the pairs.
 *
 * Same batch, annotators (as a set), overlap and seed → the same assignment on every machine.
 * Throws a RangeError when annotators is empty or repeats a name, overlap is outside [0, 1], or
 * an overlap item is asked for with fewer than two annotators.
 */
export function assignWithOverlap<T>(
  dataset: string,
  items: readonly T[],
  annotators: readonly string[],
  overlap: number,
  seed: number,
): Assignment<T>[] {
  if (annotators.length === 0) throw new RangeError('at least one annotator is needed');
  if (new Set(annotators).size !== annotators.length) throw new RangeError('annotator names repeat');
  if (annotators.some((name) => typeof name !== 'string' || name === ''))
    throw new RangeError('annotator names must be non-empty');
  if (!(typeof overlap === 'number' && overlap >= 0 && overlap <= 1))
    throw new RangeError(`overlap must be in [0, 1], got ${String(overlap)}`);
  const n = items.length;
  const doubled = Math.round(overlap * n);
  if (doubled > 0 && annotators.length < 2) throw new RangeError('an overlap needs at least two annotators');
  const order = annotators
    .map((name) => ({ name, rank: splitmix64(fnv1a64(`${dataset}\u0000annotator\u0000${name}`) ^ BigInt(seed)) }))
    .sort((x, y) => (x.rank < y.rank ? -1 : x.rank > y.rank ? 1 : compareCodeUnits(x.name, y.name)))
    .map((entry) => entry.name);
  const load = order.map(() => 0);
  const shared = order.map(() => order.map(() => 0));
  const singles = order.map(() => 0);
  const byLoad = (a: number, b: number) => load[a]! - load[b]! || singles[a]! - singles[b]! || a - b;
  const indexes = order.map((_, i) => i);
  return items.map((item, i) => {
    const isDoubled = doubled > 0 && Math.floor(((i + 1) * doubled) / n) > Math.floor((i * doubled) / n);
    const sorted = [...indexes].sort(byLoad);
    const chosen: number[] = [sorted[0]!];
    if (isDoubled) {
      // The pairs that keep loads within one: two of the least loaded, or the only least loaded with
      // one of the next level; among them the pair that has shared the fewest items, then by order.
      const least = sorted.filter((j) => load[j] === load[sorted[0]!]);
      const pairs: Array<[number, number]> = [];
      if (least.length >= 2) {
        for (let x = 0; x < least.length; x++)
          for (let y = x + 1; y < least.length; y++) pairs.push([least[x]!, least[y]!]);
      } else {
        for (const j of sorted.filter((j) => load[j] === load[sorted[0]!]! + 1)) pairs.push([sorted[0]!, j]);
      }
      pairs.sort(
        ([a, b], [c, d]) =>
          shared[a]![b]! - shared[c]![d]! || Math.min(a, b) - Math.min(c, d) || Math.max(a, b) - Math.max(c, d),
      );
      const [first, second] = pairs[0]!;
      chosen.splice(0, 1, first, second);
      shared[first]![second]!++;
      shared[second]![first]!++;
    }
    if (!isDoubled) singles[chosen[0]!]!++;
    for (const j of chosen) load[j]!++;
    return { item, annotators: chosen.map((j) => order[j]!) };
  });
}
