/** systems.*: issue 11 (Summarization Accuracy). Contract: shared/accuracy/contract.ts. */
import { ApiError, type ApiHandlers } from '../../../shared/api';
import type { CoreContext } from '../context';

export type SystemsHandlers = Pick<ApiHandlers, 'systems.list' | 'systems.add' | 'systems.remove'>;

function notYet(method: string): never {
  throw new ApiError({ code: 'unsupported', message: `${method} is not implemented yet` });
}

export function createSystemsHandlers(ctx: CoreContext): SystemsHandlers {
  void ctx;
  return {
    'systems.list': async () => notYet('systems.list'),
    'systems.add': async () => notYet('systems.add'),
    'systems.remove': async () => notYet('systems.remove'),
  };
}
