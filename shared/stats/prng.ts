/**
 * Seeded pseudo-random numbers that are identical on every machine.
 *
 * Generator: xoshiro128** 1.1 (Blackman & Vigna, https://prng.di.unimi.it/xoshiro128starstar.c),
 * 32-bit state words, all arithmetic in Math.imul / shifts, so results do not depend on the
 * platform's floating point. Its 128-bit state is filled from SplitMix64 (Steele, Lea & Flood
 * 2014) run on a 64-bit FNV-1a hash of a stream key, so independent purposes (a dataset's
 * correlation bootstrap, its human-sample bootstrap, a simulation) get independent streams that
 * do not shift when another purpose draws more or fewer numbers.
 */
import { FEEDBACK_CHUNK } from './feedback-chunk';

const MASK64 = (1n << 64n) - 1n;

/** FNV-1a, 64 bits, over the UTF-8 bytes of the text. */
function fnv1a64(text: string): bigint {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & MASK64;
  }
  return hash;
}

/** One SplitMix64 step: advances the state and returns the mixed output. */
function splitMix64Next(state: { value: bigint }): bigint {
  state.value = (state.value + 0x9e3779b97f4a7c15n) & MASK64;
  let z = state.value;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return z ^ (z >> 31n);
}

export class Xoshiro128StarStar {
  // A typed array, not four fields: int32 values beyond ±2^30 in object fields would be boxed
  // (V8's small integers are 31-bit), which made every draw allocate.
  private readonly s = new Int32Array(4);

  /** State words are taken modulo 2^32; an all-zero state is refused (the generator would stay at 0). */
  constructor(state: readonly [number, number, number, number]) {
    for (let i = 0; i < 4; i += 1) this.s[i] = state[i]! | 0;
    if ((this.s[0]! | this.s[1]! | this.s[2]! | this.s[3]!) === 0)
      throw new RangeError('xoshiro128** needs a non-zero state');
  }

  /** The next 32 random bits as an unsigned integer in [0, 2^32). */
  nextUint32(): number {
    const s = this.s;
    const s1 = s[1]!;
    const times5 = Math.imul(s1, 5);
    const result = Math.imul((times5 << 7) | (times5 >>> 25), 9) >>> 0;
    const t = s1 << 9;
    s[2]! ^= s[0]!;
    s[3]! ^= s1;
    s[1]! ^= s[2]!;
    s[0]! ^= s[3]!;
    s[2]! ^= t;
    const s3 = s[3]!;
    s[3] = (s3 << 11) | (s3 >>> 21);
    return result;
  }

  /**
   * Adds one draw count per unit for n = counts.length uniform draws with replacement (a
   * bootstrap resample), after zeroing `counts`. Same numbers as n calls of the exact uniform
   * index below, with the generator state kept in locals for speed: each index is
   * ⌊x·n / 2^32⌋ of a 32-bit output x, rejecting x when x·n mod 2^32 < 2^32 mod n (Lemire 2019),
   * which makes every index exactly equally likely. x·n is exact in a double for n ≤ 2^21.
   */
  fillResampleCounts(counts: Int32Array): void {
    const n = counts.length;
    if (n > 2097152) throw new RangeError(`cannot resample more than 2^21 units, got ${n}`);
    counts.fill(0);
    if (n === 0) return;
    const rejectBelow = 4294967296 % n;
    const s = this.s;
    let s0 = s[0]!;
    let s1 = s[1]!;
    let s2 = s[2]!;
    let s3 = s[3]!;
    // The state is written back after every chunk of draws, not only at the end (feedback-chunk.ts).
    for (let draw = 0; draw < n;) {
      const chunkEnd = Math.min(n, draw + FEEDBACK_CHUNK);
      while (draw < chunkEnd) {
        const times5 = Math.imul(s1, 5);
        const x = Math.imul((times5 << 7) | (times5 >>> 25), 9) >>> 0;
        const t = s1 << 9;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = (s3 << 11) | (s3 >>> 21);
        const product = x * n;
        const index = Math.floor(product / 4294967296);
        if (product - index * 4294967296 >= rejectBelow) {
          counts[index]! += 1;
          draw += 1;
        }
      }
      s[0] = s0;
      s[1] = s1;
      s[2] = s2;
      s[3] = s3;
    }
  }

  /** A uniform double in [0, 1) with 53 random bits (two draws). */
  nextFloat(): number {
    const high = this.nextUint32() >>> 5; // 27 bits
    const low = this.nextUint32() >>> 6; // 26 bits
    return (high * 67108864 + low) / 9007199254740992;
  }

  /**
   * A uniform integer in [0, n), exactly uniform: draws at or above the largest multiple of n
   * below 2^32 are rejected (Lemire-style bias correction without 64-bit products).
   */
  nextInt(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > 4294967296)
      throw new RangeError(`nextInt needs an integer n in [1, 2^32], got ${n}`);
    const limit = 4294967296 - (4294967296 % n);
    for (;;) {
      const x = this.nextUint32();
      if (x < limit) return x % n;
    }
  }

  /** true with probability p (p outside [0, 1] is clamped by the comparison). */
  nextBernoulli(p: number): boolean {
    return this.nextFloat() < p;
  }
}

/** Validates a user seed: an integer in [0, 2^53). */
export function checkSeed(seed: number): void {
  if (!Number.isSafeInteger(seed) || seed < 0)
    throw new RangeError(`seed must be an integer in [0, 2^53), got ${seed}`);
}

/**
 * The generator for one purpose: key = seed, then each part, separated by U+0000.
 * Same seed and parts → same stream on every machine.
 */
export function createStream(seed: number, ...parts: readonly string[]): Xoshiro128StarStar {
  checkSeed(seed);
  const state = { value: fnv1a64([String(seed), ...parts].join('\u0000')) };
  const a = splitMix64Next(state);
  const b = splitMix64Next(state);
  const words: [number, number, number, number] = [
    Number(a & 0xffffffffn),
    Number(a >> 32n),
    Number(b & 0xffffffffn),
    Number(b >> 32n),
  ];
  // SplitMix64 never returns two zero outputs in a row, but keep the guarantee explicit.
  if ((words[0] | words[1] | words[2] | words[3]) === 0) words[0] = 1;
  return new Xoshiro128StarStar(words);
}

/** A family of per-replicate streams: the seed and the purpose's key parts (plain data, so it can cross threads). */
export interface StreamKey {
  seed: number;
  parts: readonly string[];
}

/**
 * Replicate `index`'s own stream in a family. A bootstrap that draws replicate i from it gives
 * the same numbers whichever thread computes i and however the replicates are split.
 */
export function replicateStream(key: StreamKey, index: number): Xoshiro128StarStar {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`replicate index must be ≥ 0, got ${index}`);
  return createStream(key.seed, ...key.parts, 'replicate', String(index));
}
