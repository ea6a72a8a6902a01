/**
 * SQL for the results of JSON-output task kinds (schema 6, `task_results`). A kind's results are
 * reached through `forKind`, which carries the kind's output schema: every output is validated
 * when written (an invalid one is a bug and throws) and when read (a stored output that no longer
 * matches is treated as absent: not done, not a cache hit, replaced by the next run's answer).
 * Plain values in and out; nothing here ever sees an API key.
 */
import type { Database } from './open';

/** What `task_results` needs of a kind's zod schema (zod's own safeParse fits). */
export interface OutputSchema<O> {
  safeParse(value: unknown): { success: true; data: O } | { success: false; error: { message: string } };
}

export interface KindRef<O> {
  name: string;
  version: number;
  schema: OutputSchema<O>;
}

export type TaskResultSource = 'run' | 'cache' | 'import';

/** One result to store. Exactly one of `output` / `errorKind` is set. */
export interface TaskResultRecord<O> {
  configHash: string;
  item: string;
  output: O | null;
  raw: string | null;
  errorKind: string | null;
  errorMessage: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
  latencyMs: number | null;
  cacheKey: string;
  source: TaskResultSource;
}

export interface StoredTaskResult<O> extends TaskResultRecord<O> {
  id: number;
  createdAt: string;
}

export interface CachedOutput<O> {
  output: O;
  raw: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
}

interface Row {
  id: number;
  configHash: string;
  item: string;
  output: string | null;
  raw: string | null;
  errorKind: string | null;
  errorMessage: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
  latencyMs: number | null;
  cacheKey: string;
  source: TaskResultSource;
  createdAt: string;
}

const COLUMNS = `id, config_hash AS configHash, item, output, raw, error_kind AS errorKind, error_message AS errorMessage,
  tokens_in AS tokensIn, tokens_out AS tokensOut, latency_ms AS latencyMs, cache_key AS cacheKey, source, created_at AS createdAt`;

/** The stored output read through the schema; null when absent, not JSON or not matching. */
function readOutput<O>(
  schema: OutputSchema<O>,
  text: string | null,
): { ok: true; value: O } | { ok: false; error: string } | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'the stored output is not JSON' };
  }
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, error: `the stored output does not match the schema of its kind: ${parsed.error.message}` };
}

export class TaskRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  forKind<O>(kind: KindRef<O>): KindResults<O> {
    return new KindResults(this.db, kind);
  }

  /** Stored results per kind and version (for a project overview). */
  counts(): Array<{ kind: string; kindVersion: number; ok: number; failed: number }> {
    return this.db
      .prepare(
        `SELECT kind, kind_version AS kindVersion, sum(error_kind IS NULL) AS ok, sum(error_kind IS NOT NULL) AS failed
         FROM task_results GROUP BY kind, kind_version ORDER BY kind, kind_version`,
      )
      .all() as Array<{ kind: string; kindVersion: number; ok: number; failed: number }>;
  }
}

/** The results of one kind (and version), typed by its output schema. */
export class KindResults<O> {
  constructor(
    private readonly db: Database,
    private readonly kind: KindRef<O>,
  ) {}

  /** Items this configuration has a valid output for. Failures (parse errors included) are not done. */
  completedItems(configHash: string): Set<string> {
    const rows = this.db
      .prepare(
        'SELECT item, output FROM task_results WHERE kind = ? AND kind_version = ? AND config_hash = ? AND error_kind IS NULL',
      )
      .all(this.kind.name, this.kind.version, configHash) as Array<{ item: string; output: string | null }>;
    const done = new Set<string>();
    for (const r of rows) if (readOutput(this.kind.schema, r.output)?.ok) done.add(r.item);
    return done;
  }

  /** A valid output with this content key (any item, any configuration with the same hash). */
  cachedOutput(cacheKey: string): CachedOutput<O> | null {
    const rows = this.db
      .prepare(
        `SELECT output, raw, tokens_in AS tokensIn, tokens_out AS tokensOut FROM task_results
         WHERE cache_key = ? AND kind = ? AND kind_version = ? AND error_kind IS NULL ORDER BY id LIMIT 8`,
      )
      .all(cacheKey, this.kind.name, this.kind.version) as Array<{
      output: string | null;
      raw: string | null;
      tokensIn: number | null;
      tokensOut: number | null;
    }>;
    for (const r of rows) {
      const read = readOutput(this.kind.schema, r.output);
      if (read?.ok) return { output: read.value, raw: r.raw, tokensIn: r.tokensIn, tokensOut: r.tokensOut };
    }
    return null;
  }

  /**
   * Stores results in one transaction. A stored valid output is never overwritten; a stored
   * failure (or an output that no longer matches the schema) is replaced. Returns rows written.
   */
  save(records: ReadonlyArray<TaskResultRecord<O>>): number {
    if (records.length === 0) return 0;
    const existing = this.db.prepare(
      'SELECT output, error_kind AS errorKind FROM task_results WHERE kind = ? AND kind_version = ? AND config_hash = ? AND item = ?',
    );
    const upsert = this.db.prepare(
      `INSERT INTO task_results (kind, kind_version, config_hash, item, output, raw, error_kind, error_message,
         tokens_in, tokens_out, latency_ms, cache_key, source, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (kind, kind_version, config_hash, item) DO UPDATE SET
         output = excluded.output, raw = excluded.raw, error_kind = excluded.error_kind, error_message = excluded.error_message,
         tokens_in = excluded.tokens_in, tokens_out = excluded.tokens_out, latency_ms = excluded.latency_ms,
         cache_key = excluded.cache_key, source = excluded.source, created_at = excluded.created_at`,
    );
    return this.db.transaction(() => {
      let written = 0;
      const at = new Date().toISOString();
      for (const r of records) {
        if ((r.output === null) === (r.errorKind === null)) {
          throw new Error(`A ${this.kind.name} result for ${r.item} must have either an output or an error kind.`);
        }
        let output: string | null = null;
        if (r.output !== null) {
          const checked = this.kind.schema.safeParse(r.output);
          if (!checked.success)
            throw new Error(
              `A ${this.kind.name} output for ${r.item} does not match its schema: ${checked.error.message}`,
            );
          output = JSON.stringify(checked.data);
        }
        const stored = existing.get(this.kind.name, this.kind.version, r.configHash, r.item) as
          { output: string | null; errorKind: string | null } | undefined;
        if (stored && stored.errorKind === null && readOutput(this.kind.schema, stored.output)?.ok) continue;
        upsert.run(
          this.kind.name,
          this.kind.version,
          r.configHash,
          r.item,
          output,
          r.raw,
          r.errorKind,
          r.errorMessage,
          r.tokensIn,
          r.tokensOut,
          r.latencyMs,
          r.cacheKey,
          r.source,
          at,
        );
        written += 1;
      }
      return written;
    })();
  }

  /** The stored result of one item, output read through the schema (a mismatch reads as a parse error). */
  result(configHash: string, item: string): StoredTaskResult<O> | null {
    const row = this.db
      .prepare(
        `SELECT ${COLUMNS} FROM task_results WHERE kind = ? AND kind_version = ? AND config_hash = ? AND item = ?`,
      )
      .get(this.kind.name, this.kind.version, configHash, item) as Row | undefined;
    return row ? this.toResult(row) : null;
  }

  /** Every stored result of a configuration, in item order. */
  results(configHash: string): Array<StoredTaskResult<O>> {
    const rows = this.db
      .prepare(
        `SELECT ${COLUMNS} FROM task_results WHERE kind = ? AND kind_version = ? AND config_hash = ? ORDER BY item`,
      )
      .all(this.kind.name, this.kind.version, configHash) as Row[];
    return rows.map((r) => this.toResult(r));
  }

  private toResult(row: Row): StoredTaskResult<O> {
    const read = readOutput(this.kind.schema, row.output);
    if (read === null || read.ok) return { ...row, output: read?.value ?? null };
    return { ...row, output: null, errorKind: 'parse_error', errorMessage: read.error };
  }
}
