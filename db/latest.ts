/**
 * Which event of a (unit, annotator, phase) is its current label: the latest by `created_at`, the
 * event id breaking ties. Every current-state query (db/repository.ts, db/reviewRepository.ts,
 * db/analysisRepository.ts) uses this rule.
 *
 * Why not the id alone (schema 1–3): events merged from an annotator's copy
 * (db/mergeRepository.ts) get new ids here, so an older event merged after a newer local one would
 * otherwise become current. Timestamps are ISO-8601 UTC with milliseconds (`toISOString()`), so
 * text order is time order. Within one project an event's id and created_at grow together, so
 * this changes nothing for a project that never merged.
 *
 * The same rule in TypeScript: shared/latest-event.ts (`compareCurrentFirst`); a test runs both
 * on the same rows (test/unit/review/review-label-sql.test.ts).
 */

/** The window order of one (unit, annotator, phase): its current event first (`alias.` before each column when given). */
export function currentFirst(alias?: string): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return `${column('created_at')} DESC, ${column('id')} DESC`;
}

/** The window order of one (unit, annotator, phase): its current event first. */
export const CURRENT_FIRST = currentFirst();

/** The same order reversed: the history of one (unit, annotator, phase) oldest first (its first event is the blind one). */
export function oldestFirst(alias?: string): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return `${column('created_at')}, ${column('id')}`;
}

/** The window that numbers the events of each (unit, annotator, phase), current first. */
export const PER_LABEL_CURRENT_FIRST = `PARTITION BY unit_id, annotator_id, phase ORDER BY ${CURRENT_FIRST}`;

/**
 * SQL selecting `id` of the current event of each (unit, annotator, phase) among the rows of
 * `from` (a table or CTE name with id, unit_id, annotator_id, phase and created_at).
 */
export function currentEventIds(from: string): string {
  return `SELECT id FROM (SELECT id, row_number() OVER (${PER_LABEL_CURRENT_FIRST}) AS rn FROM ${from}) WHERE rn = 1`;
}
