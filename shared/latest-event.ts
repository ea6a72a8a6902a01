/**
 * Which label event of a (unit, person, phase) is its current label: the latest by `created_at`,
 * the event id breaking ties (docs/architecture.md, "Durable labels": the current label is the latest event).
 *
 * SQL applies this rule in db/latest.ts (every current-state query reads through it); TypeScript
 * applies it here, for code that holds several events in memory. A test
 * (test/unit/review/review-label-sql.test.ts) proves the two pick the same event on the same rows.
 *
 * Why not the id alone: events merged from an annotator's copy get new ids, so an older event
 * merged after a newer local one would otherwise become current. Timestamps are ISO-8601 UTC with
 * milliseconds (`toISOString()`), so text order (code units) is time order.
 */

export interface TimedEvent {
  /** ISO-8601 UTC, milliseconds. */
  createdAt: string;
  id: number;
}

/** Sort order of one (unit, person, phase)'s events: the current one first. */
export function compareCurrentFirst(a: TimedEvent, b: TimedEvent): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return b.id - a.id;
}

/** The current event among one (unit, person, phase)'s events; undefined when there is none. */
export function currentEvent<T extends TimedEvent>(events: readonly T[]): T | undefined {
  let current: T | undefined;
  for (const event of events) if (current === undefined || compareCurrentFirst(event, current) < 0) current = event;
  return current;
}
