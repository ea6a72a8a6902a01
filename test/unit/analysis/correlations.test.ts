import { describe, expect, it } from 'vitest';
import {
  computeCorrelations,
  correlationData,
  correlationReplicates,
  correlationWidth,
  createCorrelationEngine,
  engineOf,
  startCorrelations,
  writeCorrelationReplicates,
  type CorrelationReplicator,
} from '../../../shared/analysis/correlations';
import { splitRange } from '../../../shared/stats/split-range';
import type { AnalysisSummary, JudgePrediction } from '../../../shared/analysis/types';
import { kendallTauB, pearson, rocAuc, spearman } from '../../../shared/stats/correlation';
import { createStream, type Xoshiro128StarStar } from '../../../shared/stats/prng';

const JUDGES = ['a', 'b'];

/** Random population: lengths 2–4, some missing predictions, soft values with or without ties. */
function randomPopulation(
  rng: Xoshiro128StarStar,
  size: number,
  tiedSoft: boolean,
  missingRate: number,
): AnalysisSummary[] {
  return Array.from({ length: size }, (_, s) => {
    const length = 2 + rng.nextInt(3);
    return {
      summaryId: `s${s}`,
      docId: `d${s}`,
      globalLabel: rng.nextInt(2) as 0 | 1,
      annotated: false,
      units: Array.from({ length }, (_, index) => {
        const judges: Record<string, JudgePrediction> = {};
        for (const judge of JUDGES) {
          if (rng.nextFloat() < missingRate) continue;
          const hard = rng.nextInt(2) as 0 | 1;
          const soft = tiedSoft ? rng.nextInt(5) / 4 : rng.nextFloat();
          judges[judge] = {
            hard: rng.nextFloat() < missingRate ? null : hard,
            soft: rng.nextFloat() < missingRate ? null : soft,
          };
        }
        return { index, text: 'x', human: null, humanStatus: 'none' as const, judges };
      }),
    };
  });
}

/** The four statistics on the expanded resample, by the general (SciPy-checked) implementations. */
function reference(scores: Float64Array, labels: number[], weights: Int32Array): number[] {
  const x: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < scores.length; i += 1) {
    if (Number.isNaN(scores[i]!)) continue; // left out of the cell
    for (let c = 0; c < weights[i]!; c += 1) {
      x.push(scores[i]!);
      y.push(labels[i]!);
    }
  }
  const orNaN = (value: number | null) => (value === null ? NaN : value);
  return [orNaN(pearson(x, y)), orNaN(spearman(x, y)), orNaN(kendallTauB(x, y)), orNaN(rocAuc(x, y))];
}

function expectSame(actual: number, expected: number): void {
  if (Number.isNaN(expected)) expect(actual).toBeNaN();
  else expect(actual).toBeCloseTo(expected, 10);
}

describe('correlation engine (both fast paths) against the expanded resample', () => {
  for (const path of ['auto', 'sorted', 'pattern'] as const) {
    for (const tiedSoft of [true, false]) {
      it(`${path} path, ${tiedSoft ? 'tied' : 'continuous'} soft labels`, () => {
        const rng = createStream(21, 'engine', path, String(tiedSoft));
        for (let trial = 0; trial < 60; trial += 1) {
          const size = 2 + rng.nextInt(40);
          const population = randomPopulation(rng, size, tiedSoft, trial % 3 === 0 ? 0.05 : 0);
          const labels = population.map((summary) => summary.globalLabel!);
          const engine = createCorrelationEngine(population, JUDGES, path);
          const out = new Float64Array(4 * engine.cells.length);
          for (let replicate = 0; replicate < 5; replicate += 1) {
            // Bootstrap-like counts, including all-ones (the point estimate) and zeros.
            const weights = Int32Array.from({ length: size }, () => (replicate === 0 ? 1 : rng.nextInt(4)));
            engine.evaluate(weights, out);
            engine.cells.forEach((cell, c) => {
              const expected = reference(cell.scores, labels, weights);
              for (let s = 0; s < 4; s += 1) expectSame(out[4 * c + s]!, expected[s]!);
            });
          }
        }
      });
    }
  }

  it('a cell leaves out summaries with a missing prediction and counts them', () => {
    const unit = (index: number, hard: 0 | 1 | null) => ({
      index,
      text: 'x',
      human: null,
      humanStatus: 'none' as const,
      judges: { a: { hard, soft: null } },
    });
    const population: AnalysisSummary[] = [
      { summaryId: 's1', docId: 'd', globalLabel: 1, annotated: false, units: [unit(0, 1), unit(1, 1)] },
      { summaryId: 's2', docId: 'd', globalLabel: 0, annotated: false, units: [unit(0, 0), unit(1, null)] },
      { summaryId: 's3', docId: 'd', globalLabel: 0, annotated: false, units: [unit(0, 0), unit(1, 1)] },
    ];
    const engine = createCorrelationEngine(population, ['a']);
    // No soft prediction at all: only the three hard cells.
    expect(engine.cells.map((cell) => `${cell.kind}/${cell.aggregator}`)).toEqual([
      'hard/min',
      'hard/mean',
      'hard/max',
    ]);
    expect(engine.cells[0]).toMatchObject({ n: 2, nLeftOut: 1, nFaithful: 1 });
    const out = new Float64Array(12);
    engine.evaluate(new Int32Array([1, 1, 1]), out);
    // min: s1 → 1 (Y=1), s3 → 0 (Y=0): perfect separation, r = 1, AUC = 1.
    expect(out[0]).toBeCloseTo(1, 14);
    expect(out[3]).toBe(1);
    // max: both 1 → constant: correlations undefined, AUC 0.5.
    expect(Array.from(out.slice(8))).toEqual([NaN, NaN, NaN, 0.5]);
  });
});

describe('the correlation bootstrap split over threads', () => {
  const population = randomPopulation(createStream(11, 'split-population'), 60, false, 0.05);
  const data = correlationData(population, JUDGES);
  const stream = { seed: 5, parts: ['split-test', 'correlations'] };
  const B = 40;
  const whole = correlationReplicates({ data, stream, from: 0, to: B });

  it('gives replicate i the same statistics however the replicates are cut into ranges', () => {
    const width = correlationWidth(data);
    expect(whole.length).toBe(B * width);
    for (const parts of [2, 3, 7, B]) {
      const pieces = splitRange(B, parts).map(([from, to]) => correlationReplicates({ data, stream, from, to }));
      const joined = new Float64Array(pieces.reduce((n, p) => n + p.length, 0));
      pieces.reduce((offset, piece) => (joined.set(piece, offset), offset + piece.length), 0);
      expect(joined).toEqual(whole);
    }
    // Replicate 17 alone is the 17th row of the whole run: its stream depends on its index only.
    expect(correlationReplicates({ data, stream, from: 17, to: 18 })).toEqual(whole.slice(17 * width, 18 * width));
  });

  it('reports the same correlations with a replicator that splits the work as with the one-thread default', () => {
    // As the thread pool does: pieces claimed in any order, each written at its replicates' own
    // rows of one target; some on fresh engines (as a helper thread builds its own) before the
    // collection, the rest with the collecting thread's engine.
    const split: CorrelationReplicator = (d, bootstrap, s) => {
      const target = new Float64Array(bootstrap * correlationWidth(d));
      const [first, second, ...rest] = splitRange(bootstrap, 5).reverse();
      for (const [from, to] of [first!, second!])
        writeCorrelationReplicates({ data: d, stream: s, from, to }, engineOf(d), target);
      return (engine) => {
        for (const [from, to] of rest) writeCorrelationReplicates({ data: d, stream: s, from, to }, engine, target);
        return target;
      };
    };
    const input = { population, judges: JUDGES, bootstrap: B, stream };
    expect(computeCorrelations({ ...input, replicator: split })).toEqual(computeCorrelations(input));
    // Started first and finished after other work: the same report.
    const finish = startCorrelations({ ...input, replicator: split });
    expect(finish()).toEqual(computeCorrelations(input));
  });

  it('cuts a range into ordered, contiguous, non-empty pieces', () => {
    expect(splitRange(10, 3)).toEqual([
      [0, 3],
      [3, 6],
      [6, 10],
    ]);
    expect(splitRange(2, 4)).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(splitRange(0, 2)).toEqual([]);
  });
});
