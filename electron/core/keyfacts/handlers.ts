/** keyfacts.*: issue 11 (Summarization Accuracy). Contract: shared/accuracy/contract.ts. */
import { ApiError, type ApiHandlers } from '../../../shared/api';
import type { CoreContext } from '../context';

export type KeyfactsHandlers = Pick<ApiHandlers, 'keyfacts.list' | 'keyfacts.versions' | 'keyfacts.load' | 'keyfacts.record' | 'keyfacts.edit'>;

function notYet(method: string): never {
  throw new ApiError({ code: 'unsupported', message: `${method} is not implemented yet` });
}

export function createKeyfactsHandlers(ctx: CoreContext): KeyfactsHandlers {
  void ctx;
  return {
    'keyfacts.list': async () => notYet('keyfacts.list'),
    'keyfacts.versions': async () => notYet('keyfacts.versions'),
    'keyfacts.load': async () => notYet('keyfacts.load'),
    'keyfacts.record': async () => notYet('keyfacts.record'),
    'keyfacts.edit': async () => notYet('keyfacts.edit'),
  };
}
