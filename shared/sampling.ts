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
export function rankForSampling<T extends { summaryId: string }>(dataset: string, candidates: readonly T[], seed: number): T[] {
  const ranked = candidates.map((c) => ({ c, rank: sampleRank(dataset, c.summaryId, seed) }));
  ranked.sort((x, y) => (x.rank < y.rank ? -1 : x.rank > y.rank ? 1 : compareCodeUnits(x.c.summaryId, y.c.summaryId)));
  return ranked.map((r) => r.c);
}

/** Draws up to n of the candidates (the not-yet-sampled summaries). */
export function drawSample<T extends { summaryId: string }>(dataset: string, candidates: readonly T[], n: number, seed: number): T[] {
  return rankForSampling(dataset, candidates, seed).slice(0, n);
}
