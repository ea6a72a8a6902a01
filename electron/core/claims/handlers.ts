/** claims.*: issue 11 (Summarization Accuracy). Contract: shared/accuracy/contract.ts. */
import { ApiError, type ApiHandlers } from '../../../shared/api';
import type { CoreContext } from '../context';

export type ClaimsHandlers = Pick<ApiHandlers, 'claims.list' | 'claims.versions' | 'claims.load' | 'claims.record' | 'claims.edit'>;

function notYet(method: string): never {
  throw new ApiError({ code: 'unsupported', message: `${method} is not implemented yet` });
}

export function createClaimsHandlers(ctx: CoreContext): ClaimsHandlers {
  void ctx;
  return {
    'claims.list': async () => notYet('claims.list'),
    'claims.versions': async () => notYet('claims.versions'),
    'claims.load': async () => notYet('claims.load'),
    'claims.record': async () => notYet('claims.record'),
    'claims.edit': async () => notYet('claims.edit'),
  };
}
