/**
 * The judge-audit part of the core (issue 4): analysis.* handlers. Work in progress: the
 * contract is fixed first so the Analysis view can be built against it.
 */
import { ApiError, type ApiHandlers } from '../../../shared/api';

export type AnalysisMethod = Extract<keyof ApiHandlers, `analysis.${string}`>;
export type AnalysisHandlers = Pick<ApiHandlers, AnalysisMethod>;

export interface AnalysisService {
  handlers: AnalysisHandlers;
  stopAll(): void;
}

export function createAnalysisService(): AnalysisService {
  const notYet = (): never => {
    throw new ApiError({ code: 'unsupported', message: 'The judge audit is not wired yet.' });
  };
  return {
    handlers: {
      'analysis.start': async () => notYet(),
      'analysis.status': async () => notYet(),
      'analysis.cancel': async () => notYet(),
      'analysis.latest': async () => ({ running: null, done: null }),
    },
    stopAll: () => undefined,
  };
}
