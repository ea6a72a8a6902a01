/**
 * The renderer's ApiError: the same shape as `ApiError` in shared/api.ts (code, message,
 * problems). It is redeclared here because importing a value from shared/api.ts drags the
 * whole zod contract into the bundle; the renderer only needs its types.
 */
import type { ApiErrorBody } from '../../shared/api';

export class ApiError extends Error {
  readonly code: ApiErrorBody['code'];
  readonly problems: ApiErrorBody['problems'];
  constructor(body: ApiErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.code = body.code;
    this.problems = body.problems;
  }
}

/** A message a user can read, whatever was thrown (errors crossing IPC lose their class). */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'object' && err !== null && typeof (err as { message?: unknown }).message === 'string') {
    return (err as { message: string }).message;
  }
  return String(err);
}

/** The import problems carried by an error, if any (ApiError from either side of the bridge). */
export function errorProblems(err: unknown): NonNullable<ApiErrorBody['problems']> {
  if (typeof err === 'object' && err !== null) {
    const problems = (err as { problems?: unknown }).problems;
    if (Array.isArray(problems)) return problems as NonNullable<ApiErrorBody['problems']>;
  }
  return [];
}
