/**
 * The review part of the core (issue 5): review.* handlers. The contract is fixed first so the
 * Review view can be built against it; the handlers land next.
 */
import { ApiError, type ApiHandlers } from '../../../shared/api';

export type ReviewMethod = Extract<keyof ApiHandlers, `review.${string}`>;
export type ReviewHandlers = Pick<ApiHandlers, ReviewMethod>;

export function createReviewHandlers(): ReviewHandlers {
  const notYet = (): never => {
    throw new ApiError({ code: 'unsupported', message: 'Review queues are not wired yet.' });
  };
  return {
    'review.queue': async () => notYet(),
    'review.card': async () => notYet(),
    'review.record': async () => notYet(),
    'review.reveal': async () => notYet(),
    'review.table': async () => notYet(),
    'review.corrections': async () => notYet(),
  };
}
