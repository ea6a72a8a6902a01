/**
 * Whether the people's labels of a dataset rest on a uniform seeded sample of its summaries, the
 * condition under which p̂_PP (prediction-powered.ts) is unbiased (PROTOCOL "Prediction-powered
 * estimates"). Told from the project's sampling records, never assumed:
 *
 * 1. the reference holds no imported label set (a benchmark's annotators labeled summaries it
 *    chose, not a draw of this project), and every reference annotator's kind is known;
 * 2. the dataset has draws, all by hash-rank-v1 with one seed (draws with different seeds are
 *    not one ranking: their union is not what a single seeded draw gives);
 * 3. the drawn summaries are exactly the first n of that seed's ranking of the dataset's
 *    summaries as they are now (summaries imported after a draw break it);
 * 4. every annotated summary lies in those draws (labels merged from a copy that drew another
 *    sample, or given outside the sample, do not).
 *
 * Drawn summaries not yet annotated are allowed and counted: the estimate then assumes that which
 * drawn summaries have labels so far does not depend on their content (queues follow the draw's
 * rank order).
 */
import { SAMPLING_ALGORITHM, rankForSampling } from '../sampling';
import type { AnalysisDataset, AnalysisSummary, HumanReferenceReport } from './types';

export type SampleDesign =
  { uniform: true; seed: number; nDrawn: number; nAnnotated: number } | { uniform: false; reason: string };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function checkSampleDesign(
  dataset: AnalysisDataset,
  annotated: readonly AnalysisSummary[],
  reference: HumanReferenceReport,
): SampleDesign {
  const refuse = (reason: string): SampleDesign => ({ uniform: false, reason });
  if (annotated.length === 0)
    return refuse('No annotated summary yet: p̂_PP needs people’s labels on a seeded sample of the dataset.');
  const records = dataset.sampling;
  if (!records) return refuse('The analysis input does not say how the human sample was drawn (no sampling records).');

  const imported = reference.annotators.filter((a) => a.kind === 'imported' && a.n_labels > 0).map((a) => a.name);
  if (imported.length > 0) {
    return refuse(
      `The human reference includes imported label sets (${imported.join(', ')}): they labeled summaries their benchmark chose, not a seeded draw of this project. Choose the reference “people” for p̂_PP.`,
    );
  }
  if (reference.annotators.length === 0 || reference.annotators.some((a) => a.kind === null)) {
    return refuse(
      'The analysis input does not say whose labels these are (annotator kinds unknown), so it cannot tell imported label sets from people.',
    );
  }

  const draws = records.draws;
  if (draws.length === 0)
    return refuse(
      'No sample was drawn from this dataset in this project: the labeled summaries are not a seeded draw.',
    );
  const otherAlgorithm = draws.find((d) => d.algorithm !== SAMPLING_ALGORITHM);
  if (otherAlgorithm)
    return refuse(`Draw ${otherAlgorithm.batch} used ${otherAlgorithm.algorithm}, not ${SAMPLING_ALGORITHM}.`);
  const seeds = [...new Set(draws.map((d) => d.seed))];
  if (seeds.length > 1) {
    return refuse(
      `The sample was drawn in several draws with different seeds (${seeds.join(', ')}): their union is not one seeded ranking, so not a uniform sample. Continue a sample with the seed it started with.`,
    );
  }
  const seed = seeds[0]!;

  const drawn = new Set(draws.flatMap((d) => d.summaryIds));
  const firstRanked = rankForSampling(dataset.name, dataset.summaries, seed).slice(0, drawn.size);
  if (firstRanked.some((summary) => !drawn.has(summary.summaryId))) {
    return refuse(
      `The draws (${plural(drawn.size, 'summary', 'summaries')}) are not the first ${drawn.size} of the seed-${seed} ranking of the dataset’s ${dataset.summaries.length} summaries (summaries added after a draw?): not a uniform sample of the dataset as it is now.`,
    );
  }
  const outside = annotated.filter((summary) => !drawn.has(summary.summaryId)).length;
  if (outside > 0) {
    return refuse(
      `${plural(outside, 'annotated summary lies', 'annotated summaries lie')} outside this project’s draws (labels merged from a copy that drew another sample, or given outside the sample): not a uniform seeded sample.`,
    );
  }
  return { uniform: true, seed, nDrawn: drawn.size, nAnnotated: annotated.length };
}
