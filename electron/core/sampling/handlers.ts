/**
 * sampling.*: reproducible batches (shared/sampling.ts). Which inputs are allowed (n, seed,
 * annotator vs annotators, overlap) is the contract's; here only what needs the project.
 */
import { ApiError, type ApiHandlers, type ApiParsedInput, type SampleBatch } from '../../../shared/api';
import { SAMPLING_ALGORITHM, assignWithOverlap, drawSample } from '../../../shared/sampling';
import type { CoreContext } from '../context';

export type SamplingHandlers = Pick<ApiHandlers, 'sampling.draw' | 'sampling.list'>;

export function drawBatch(ctx: CoreContext, input: ApiParsedInput<'sampling.draw'>): SampleBatch {
  const { dataset, n, seed, annotator, annotators, overlap } = input;
  const { repo } = ctx.project();
  const datasetId = repo.datasetId(dataset);
  if (datasetId === null)
    throw new ApiError({ code: 'not_found', message: `No dataset "${dataset}" in this project.` });
  return repo.transaction(() => {
    const annotatorId = annotator ? repo.ensureAnnotator(annotator).id : null;
    const chosen = drawSample(dataset, repo.unsampledSummaries(datasetId), n, seed);
    let assignments: Map<number, number[]> | undefined;
    if (annotators !== undefined) {
      const ids = new Map(annotators.map((name) => [name, repo.ensureAnnotator(name).id]));
      assignments = new Map(
        assignWithOverlap(dataset, chosen, annotators, overlap ?? 0, seed).map((a) => [
          a.item.key,
          a.annotators.map((name) => ids.get(name)!),
        ]),
      );
    }
    const batchId = repo.insertSampleBatch({
      datasetId,
      seed,
      requested: n,
      annotatorId,
      algorithm: SAMPLING_ALGORITHM,
      keys: chosen.map((c) => c.key),
      ...(assignments ? { assignments, overlap: overlap ?? 0 } : {}),
    });
    const batch = repo.sampleBatch(batchId)!;
    return { ...batch, exhausted: chosen.length < n };
  });
}

export function createSamplingHandlers(ctx: CoreContext): SamplingHandlers {
  return {
    'sampling.draw': async (input) => drawBatch(ctx, input),
    'sampling.list': async ({ dataset }) =>
      ctx
        .project()
        .repo.sampleBatchInfos(dataset ?? null)
        .map((b) => ({ ...b, exhausted: b.summaries < b.requested })),
  };
}
