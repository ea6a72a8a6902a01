/** annotators.*: the project's people and their activity (counts and times, never whose label was what). */
import type { AnnotatorActivity, ApiHandlers } from '../../../shared/api';
import type { Repository } from '../../../db/repository';
import type { CoreContext } from '../context';

export type AnnotatorsHandlers = Pick<ApiHandlers, 'annotators.list' | 'annotators.ensure' | 'annotators.activity'>;

/** Median decision time and fast decisions of one annotator. */
export function activityOf(a: ReturnType<Repository['annotatorActivity']>[number], fastMs: number): AnnotatorActivity {
  const { decisionTimesMs, ...rest } = a;
  const sorted = [...decisionTimesMs].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length === 0 ? null : sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return {
    ...rest,
    timedDecisions: sorted.length,
    medianMsPerDecision: median,
    fastDecisions: sorted.filter((t) => t < fastMs).length,
  };
}

export function createAnnotatorsHandlers(ctx: CoreContext): AnnotatorsHandlers {
  return {
    // People and imported label sets, each with its kind: the UI offers only people as the current annotator.
    'annotators.list': async () => ctx.project().repo.listAnnotators(),
    // Ensuring is for people: an imported set's name is refused, never taken.
    'annotators.ensure': async ({ name }) => ctx.project().repo.ensureAnnotator(name, 'person'),
    'annotators.activity': async ({ fastMs }) =>
      ctx
        .project()
        .repo.annotatorActivity()
        .map((a) => activityOf(a, fastMs)),
  };
}
