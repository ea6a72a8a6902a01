/**
 * The judges part of the core: configuration CRUD, request previews and background runs.
 * (Contract first: the handlers are filled in by the following commits.)
 */
import { ApiError, type ApiHandlers } from '../../../shared/api';

export type JudgeMethod = Extract<keyof ApiHandlers, `judges.${string}`>;
export type JudgeHandlers = Pick<ApiHandlers, JudgeMethod>;

function notYet(): never {
  throw new ApiError({ code: 'unsupported', message: 'Judges are not available in this build yet.' });
}

export function createJudgeService(): { handlers: JudgeHandlers; stopAll(): void } {
  const handlers: JudgeHandlers = {
    'judges.defaults': async () => notYet(),
    'judges.list': async () => notYet(),
    'judges.add': async () => notYet(),
    'judges.update': async () => notYet(),
    'judges.remove': async () => notYet(),
    'judges.preview': async () => notYet(),
    'judges.start': async () => notYet(),
    'judges.pause': async () => notYet(),
    'judges.resume': async () => notYet(),
    'judges.cancel': async () => notYet(),
    'judges.status': async () => notYet(),
    'judges.runs': async () => notYet(),
  };
  return { handlers, stopAll: () => {} };
}
