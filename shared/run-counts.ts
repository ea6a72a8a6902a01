/**
 * How a run's counters read, in every host (the Judges view, the Accuracy tasks, `loupe serve`'s
 * pages and the CLI): the numbers all come from the engine's one counter object
 * (electron/core/tasks/counters.ts) through the run status; this module only words them.
 */
import { formatCount, plural } from './words';

/** The counters of a run status that these phrases read. */
export interface RunCountFields {
  cached: number;
  reusedParseErrors: number;
  requests: number;
  dropped: number;
  ok: number;
  parseErrors: number;
  failed: number;
  failuresInARow: number;
  errors: ReadonlyArray<{ kind: string; count: number }>;
}

/** Items with a usable answer: found stored or in the cache, or answered by a request. */
export function answeredCount(c: Pick<RunCountFields, 'cached' | 'ok'>): number {
  return c.cached + c.ok;
}

/** Items without a usable answer because it did not parse, fresh or reused. */
export function unparseableCount(c: Pick<RunCountFields, 'parseErrors' | 'reusedParseErrors'>): number {
  return c.parseErrors + c.reusedParseErrors;
}

/** "20 unparseable answers (12 reused from an item with the same content)"; `note` joins the parentheses. */
export function unparseableText(c: Pick<RunCountFields, 'parseErrors' | 'reusedParseErrors'>, note?: string): string {
  const notes = [
    ...(c.reusedParseErrors > 0
      ? [`${formatCount(c.reusedParseErrors)} reused from an item with the same content`]
      : []),
    ...(note ? [note] : []),
  ];
  return `${plural(unparseableCount(c), 'unparseable answer')}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

/** "16 requests" or "16 requests (2 dropped by a pause, sent again on resume)". */
export function requestsText(c: Pick<RunCountFields, 'requests' | 'dropped'>): string {
  const dropped = c.dropped > 0 ? ` (${formatCount(c.dropped)} dropped by a pause, sent again on resume)` : '';
  return `${plural(c.requests, 'request')}${dropped}`;
}

/** The failed attempts (retries included) of every kind. */
export function failedAttempts(c: Pick<RunCountFields, 'errors'>): number {
  return c.errors.reduce((n, e) => n + e.count, 0);
}

/** "no errors" or "errors 9 (connection 8, parse_error 1)". */
export function errorsText(c: Pick<RunCountFields, 'errors'>): string {
  const n = failedAttempts(c);
  if (n === 0) return 'no errors';
  return `errors ${formatCount(n)} (${c.errors.map((e) => `${e.kind} ${formatCount(e.count)}`).join(', ')})`;
}

/** "8 failures in a row" (failed attempts since the last answer, across resumes). */
export function inARowText(c: Pick<RunCountFields, 'failuresInARow'>): string {
  return `${plural(c.failuresInARow, 'failure')} in a row`;
}

/** "12 answered · 20 unparseable answers (…) · 1 failed": what became of the items. */
export function outcomesText(c: RunCountFields): string {
  return `${formatCount(answeredCount(c))} answered · ${unparseableText(c)} · ${formatCount(c.failed)} failed`;
}
