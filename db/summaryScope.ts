/**
 * Which summaries a read covers: all of them (null), one (its key) or a batch of keys (an export
 * walking the project a batch at a time). The condition is left out entirely for "all": a
 * `(? IS NULL OR …)` disjunction would keep SQLite from using the summary index for a batch.
 */
export type SummaryScope = number | readonly number[] | null;

export function scopeCondition(column: string, scope: SummaryScope): { sql: string; params: string[] } {
  if (scope === null) return { sql: '1', params: [] };
  const keys = typeof scope === 'number' ? [scope] : scope;
  return { sql: `${column} IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(keys)] };
}
