/** Error helpers for the UI; ApiError itself lives in shared/errors.ts (no zod, so no bundle cost). */
import type { ApiErrorBody } from '../../shared/errors';

export { ApiError } from '../../shared/errors';

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
