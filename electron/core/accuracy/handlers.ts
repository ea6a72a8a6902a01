/** accuracy.*: issue 11 (Summarization Accuracy). Contract: shared/accuracy/contract.ts. */
import { ApiError, type ApiHandlers } from '../../../shared/api';
import type { CoreContext } from '../context';

export type AccuracyHandlers = Pick<ApiHandlers, 'accuracy.tasks' | 'accuracy.preview' | 'accuracy.plan' | 'accuracy.start' | 'accuracy.status' | 'accuracy.pause' | 'accuracy.resume' | 'accuracy.cancel' | 'accuracy.runs'>;

function notYet(method: string): never {
  throw new ApiError({ code: 'unsupported', message: `${method} is not implemented yet` });
}

export function createAccuracyHandlers(ctx: CoreContext): AccuracyHandlers {
  void ctx;
  return {
    'accuracy.tasks': async () => notYet('accuracy.tasks'),
    'accuracy.preview': async () => notYet('accuracy.preview'),
    'accuracy.plan': async () => notYet('accuracy.plan'),
    'accuracy.start': async () => notYet('accuracy.start'),
    'accuracy.status': async () => notYet('accuracy.status'),
    'accuracy.pause': async () => notYet('accuracy.pause'),
    'accuracy.resume': async () => notYet('accuracy.resume'),
    'accuracy.cancel': async () => notYet('accuracy.cancel'),
    'accuracy.runs': async () => notYet('accuracy.runs'),
  };
}
