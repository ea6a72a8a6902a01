/**
 * The error value that crosses every boundary (IPC, HTTP). Kept apart from shared/api.ts, which
 * builds zod schemas, so the renderer can use it without bundling the contract's validators.
 */
import type { ImportProblem } from './formats/types';

// forbidden: the host refused the call itself (e.g. a disk path the user never chose in this app).
export const API_ERROR_CODES = [
  'invalid_input',
  'not_found',
  'no_project',
  'conflict',
  'unsupported',
  'forbidden',
  'import_failed',
  'internal',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

export interface ApiErrorBody {
  code: ApiErrorCode;
  message: string;
  problems?: ImportProblem[] | undefined;
}

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly problems: ImportProblem[] | undefined;
  constructor(body: ApiErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.code = body.code;
    this.problems = body.problems;
  }
  toBody(): ApiErrorBody {
    return { code: this.code, message: this.message, ...(this.problems ? { problems: this.problems } : {}) };
  }
}
