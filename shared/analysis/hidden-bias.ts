/**
 * Simulation of hidden averaging bias (§6, Fig. 3).
 *
 * Simulated summaries repeat the dataset's lengths (≥ 2 sentences) until at least
 * `minSummaries` exist. Each sentence is faithful with probability p̂ (i.i.d.); a fraction y of
 * the summaries (exactly round(y·N), chosen by one fixed random order) is labeled by the
 * averaging rule (faithful when at least half the sentences are: 2K ≥ M), the rest by the
 * minimum rule (K = M). A perfect judge sees the true sentences; the noisy judge flips each
 * with probability ε̄. For each y: gap = ρ(Y, mean) − ρ(Y, min), Pearson.
 *
 * Common random numbers: sentences, flips and the order that picks the averaging summaries are
 * drawn once (three separate streams) and reused for every y, so the curve is smooth in y and the
 * perfect curve does not depend on ε̄.
 */
import { pearson } from '../stats/correlation';
import type { Xoshiro128StarStar } from '../stats/prng';
import type { HiddenBiasCurvePoint, HiddenBiasPoint, HiddenBiasReport } from './types';

export interface HiddenBiasInput {
  pHat: number;
  epsilonBar: number | null;
  nJudgesAveraged: number;
  lengths: number[];
  points: number;
  minSummaries: number;
  sentenceRng: Xoshiro128StarStar;
  judgeRng: Xoshiro128StarStar;
  orderRng: Xoshiro128StarStar;
}

function curvePoint(labels: Float64Array, mean: Float64Array, min: Float64Array): HiddenBiasCurvePoint {
  const rhoMean = pearson(labels, mean);
  const rhoMin = pearson(labels, min);
  return { gap: rhoMean !== null && rhoMin !== null ? rhoMean - rhoMin : null, rho_mean: rhoMean, rho_min: rhoMin };
}

export function simulateHiddenBias(input: HiddenBiasInput): HiddenBiasReport {
  const { pHat, epsilonBar, lengths, points, minSummaries, sentenceRng, judgeRng, orderRng } = input;
  const repeats = Math.ceil(minSummaries / lengths.length);
  const n = lengths.length * repeats;
  const minRule = new Float64Array(n);
  const averagingRule = new Float64Array(n);
  const perfectMean = new Float64Array(n);
  const perfectMin = new Float64Array(n);
  const noisyMean = new Float64Array(n);
  const noisyMin = new Float64Array(n);
  for (let s = 0; s < n; s += 1) {
    const m = lengths[s % lengths.length]!;
    let faithful = 0;
    let judgedFaithful = 0;
    for (let i = 0; i < m; i += 1) {
      const truth = sentenceRng.nextFloat() < pHat ? 1 : 0;
      faithful += truth;
      const flipped = epsilonBar !== null && judgeRng.nextFloat() < epsilonBar;
      judgedFaithful += flipped ? 1 - truth : truth;
    }
    minRule[s] = faithful === m ? 1 : 0;
    averagingRule[s] = 2 * faithful >= m ? 1 : 0;
    perfectMean[s] = faithful / m;
    perfectMin[s] = faithful === m ? 1 : 0;
    noisyMean[s] = judgedFaithful / m;
    noisyMin[s] = judgedFaithful === m ? 1 : 0;
  }
  // A uniformly random order (Fisher–Yates); the first round(y·n) summaries in it average.
  const rankInOrder = new Int32Array(n);
  const order = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i -= 1) {
    const j = orderRng.nextInt(i + 1);
    const swap = order[i]!;
    order[i] = order[j]!;
    order[j] = swap;
  }
  order.forEach((summary, rank) => {
    rankInOrder[summary] = rank;
  });

  const labels = new Float64Array(n);
  const curve: HiddenBiasPoint[] = [];
  for (let step = 0; step < points; step += 1) {
    const averaging = Math.round((step * n) / (points - 1));
    for (let s = 0; s < n; s += 1) labels[s] = rankInOrder[s]! < averaging ? averagingRule[s]! : minRule[s]!;
    curve.push({
      y: step / (points - 1),
      perfect: curvePoint(labels, perfectMean, perfectMin),
      noisy: epsilonBar === null ? null : curvePoint(labels, noisyMean, noisyMin),
    });
  }
  return {
    p_hat: pHat,
    epsilon_bar: epsilonBar,
    n_judges_averaged: input.nJudgesAveraged,
    n_simulated_summaries: n,
    points: curve,
  };
}
