/**
 * SQL for judges, judge versions and judge predictions (schema 2). Plain values in and out.
 * Nothing here ever sees an API key: configurations arrive without one.
 */
import { StatementCache } from './statements';
import { scopeCondition } from './summaryScope';
import type { Database } from './open';
import type { ErrorType } from '../shared/domain';

export type JudgeKindValue = 'endpoint' | 'baseline' | 'imported';

/** The version hash given to predictions imported without one. */
export const IMPORTED_CONFIG_HASH = 'imported';

export interface JudgeRow {
  id: number;
  name: string;
  kind: JudgeKindValue;
  /** JSON of the configuration (no key); null for imported judges. */
  config: string | null;
  apiKeyEnv: string | null;
  currentVersionId: number | null;
  configHash: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface JudgeListRow extends JudgeRow {
  versions: number;
  ok: number;
  parseErrors: number;
  failed: number;
  soft: number;
}

export interface SelectedUnit {
  unitId: number;
  documentId: number;
  sentence: string;
  hasDocument: boolean;
}

/** What a call (or the cache, or the baseline) produced for one unit and one judge version. */
export interface PredictionResult {
  unitId: number;
  versionId: number;
  hard: 0 | 1 | null;
  soft: number | null;
  raw: string | null;
  parseError: string | null;
  errorKind: string | null;
  errorMessage: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
  latencyMs: number | null;
  cacheKey: string | null;
  source: 'run' | 'cache' | 'import';
  importId?: number | null;
  /** An unfaithful prediction's error type (schema 11) and the source's own name for it. */
  errorType?: ErrorType | null;
  sourceErrorType?: string | null;
}

export interface CachedAnswer {
  hard: 0 | 1 | null;
  soft: number | null;
  raw: string | null;
  parseError: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
}

/** For the analysis: one row per sentence and judge (current version), with a label. */
export interface DatasetPredictionRow {
  summaryKey: number;
  unitIndex: number;
  judge: string;
  hard: 0 | 1 | null;
  soft: number | null;
  errorType: ErrorType | null;
}

export interface PreviewUnit {
  unitId: number;
  dataset: string;
  summaryId: string;
  sentenceIndex: number;
  sentence: string;
  document: string | null;
}

export interface ExportPredictionRow {
  dataset: string;
  summaryId: string;
  sentenceIndex: number;
  judge: string;
  hard: 0 | 1;
  soft: number | null;
  configHash: string;
}

const now = (): string => new Date().toISOString();

const JUDGE_COLUMNS = `j.id, j.name, j.kind, j.config, j.api_key_env AS apiKeyEnv, j.current_version_id AS currentVersionId,
  v.config_hash AS configHash, j.created_at AS createdAt, j.updated_at AS updatedAt`;

export class JudgeRepository {
  /** The import conflict checks' statements (storedPrediction runs once per imported prediction): prepared once. */
  private readonly statements: StatementCache;

  constructor(private readonly db: Database) {
    this.statements = new StatementCache(db);
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  // --- judges and versions -----------------------------------------------------------------

  judgeByName(name: string): JudgeRow | null {
    const row = this.db
      .prepare(
        `SELECT ${JUDGE_COLUMNS} FROM judges j LEFT JOIN judge_versions v ON v.id = j.current_version_id WHERE j.name = ?`,
      )
      .get(name) as JudgeRow | undefined;
    return row ?? null;
  }

  /**
   * Every judge with the counts of its current version. Each count is an index range of that
   * version (migration 015), so the list costs the same whatever the other versions and judges hold.
   */
  listJudges(): JudgeListRow[] {
    const count = (condition: string) =>
      `(SELECT count(*) FROM judge_predictions p WHERE p.judge_version_id = j.current_version_id AND ${condition})`;
    return this.db
      .prepare(
        `SELECT ${JUDGE_COLUMNS},
           (SELECT count(*) FROM judge_versions x WHERE x.judge_id = j.id) AS versions,
           ${count('p.hard IS NOT NULL')} AS ok, ${count('p.parse_error IS NOT NULL')} AS parseErrors,
           ${count('p.error_kind IS NOT NULL')} AS failed, ${count('p.hard IS NOT NULL AND p.soft IS NOT NULL')} AS soft
         FROM judges j
         LEFT JOIN judge_versions v ON v.id = j.current_version_id
         ORDER BY j.kind = 'imported', j.name`,
      )
      .all() as JudgeListRow[];
  }

  insertJudge(j: { name: string; kind: JudgeKindValue; config: string | null; apiKeyEnv: string | null }): number {
    const at = now();
    return Number(
      this.db
        .prepare(
          'INSERT INTO judges (name, kind, config, api_key_env, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(j.name, j.kind, j.config, j.apiKeyEnv, at, at).lastInsertRowid,
    );
  }

  updateJudgeConfig(
    judgeId: number,
    kind: Exclude<JudgeKindValue, 'imported'>,
    config: string,
    apiKeyEnv: string | null,
  ): void {
    this.db
      .prepare('UPDATE judges SET kind = ?, config = ?, api_key_env = ?, updated_at = ? WHERE id = ?')
      .run(kind, config, apiKeyEnv, now(), judgeId);
  }

  /** The version with this hash, created when new. */
  ensureVersion(judgeId: number, configHash: string, config: string): { id: number; created: boolean } {
    const info = this.db
      .prepare('INSERT OR IGNORE INTO judge_versions (judge_id, config_hash, config, created_at) VALUES (?, ?, ?, ?)')
      .run(judgeId, configHash, config, now());
    const row = this.db
      .prepare('SELECT id FROM judge_versions WHERE judge_id = ? AND config_hash = ?')
      .get(judgeId, configHash) as { id: number };
    return { id: row.id, created: info.changes > 0 };
  }

  versionExists(judgeId: number, configHash: string): boolean {
    return (
      this.db
        .prepare('SELECT 1 FROM judge_versions WHERE judge_id = ? AND config_hash = ?')
        .get(judgeId, configHash) !== undefined
    );
  }

  setCurrentVersion(judgeId: number, versionId: number): void {
    this.db
      .prepare('UPDATE judges SET current_version_id = ?, updated_at = ? WHERE id = ?')
      .run(versionId, now(), judgeId);
  }

  /** Removes a judge with all its versions and predictions. Returns how many predictions went. */
  removeJudge(judgeId: number): number {
    return this.transaction(() => {
      const removed = this.db
        .prepare(
          'DELETE FROM judge_predictions WHERE judge_version_id IN (SELECT id FROM judge_versions WHERE judge_id = ?)',
        )
        .run(judgeId).changes;
      this.db.prepare('UPDATE judges SET current_version_id = NULL WHERE id = ?').run(judgeId);
      this.db.prepare('DELETE FROM judge_versions WHERE judge_id = ?').run(judgeId);
      this.db.prepare('DELETE FROM judges WHERE id = ?').run(judgeId);
      return removed;
    });
  }

  // --- runs ----------------------------------------------------------------------------------

  /** The sentences a run covers, grouped by document (so a document is read once). */
  selectUnits(dataset: string | null, onlySampled: boolean): SelectedUnit[] {
    const rows = this.db
      .prepare(
        `SELECT u.id AS unitId, s.document_id AS documentId, u.text AS sentence, doc.text IS NOT NULL AS hasDocument
         FROM units u JOIN summaries s ON s.id = u.summary_id JOIN datasets d ON d.id = s.dataset_id
         JOIN documents doc ON doc.id = s.document_id
         WHERE (? IS NULL OR d.name = ?)
           AND (? = 0 OR EXISTS (SELECT 1 FROM sample_items i WHERE i.summary_id = s.id))
         ORDER BY s.document_id, s.id, u.idx`,
      )
      .all(dataset, dataset, onlySampled ? 1 : 0) as Array<Omit<SelectedUnit, 'hasDocument'> & { hasDocument: number }>;
    return rows.map((r) => ({ ...r, hasDocument: r.hasDocument === 1 }));
  }

  /** Units this version has answered (a label or a parse error). Failed calls are not done. */
  completedUnitIds(versionId: number): Set<number> {
    const rows = this.db
      .prepare('SELECT unit_id AS unitId FROM judge_predictions WHERE judge_version_id = ? AND error_kind IS NULL')
      .all(versionId) as Array<{ unitId: number }>;
    return new Set(rows.map((r) => r.unitId));
  }

  documentText(documentId: number): string | null {
    const row = this.db.prepare('SELECT text FROM documents WHERE id = ?').get(documentId) as
      { text: string | null } | undefined;
    return row?.text ?? null;
  }

  /** A completed answer with this content key (any unit, any judge with the same configuration). */
  cachedAnswer(cacheKey: string): CachedAnswer | null {
    const row = this.db
      .prepare(
        `SELECT hard, soft, raw, parse_error AS parseError, tokens_in AS tokensIn, tokens_out AS tokensOut
         FROM judge_predictions WHERE cache_key = ? AND error_kind IS NULL ORDER BY id LIMIT 1`,
      )
      .get(cacheKey) as CachedAnswer | undefined;
    return row ?? null;
  }

  /**
   * Stores results in one transaction. A stored answer is never overwritten; a stored failure is
   * replaced by the new result.
   */
  savePredictions(results: readonly PredictionResult[]): number {
    if (results.length === 0) return 0;
    const statement = this.db.prepare(
      `INSERT INTO judge_predictions (unit_id, judge_version_id, hard, soft, raw, parse_error, error_kind, error_message,
         tokens_in, tokens_out, latency_ms, cache_key, source, import_id, created_at, error_type, source_error_type)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (unit_id, judge_version_id) DO UPDATE SET
         hard = excluded.hard, soft = excluded.soft, raw = excluded.raw, parse_error = excluded.parse_error,
         error_type = excluded.error_type, source_error_type = excluded.source_error_type,
         error_kind = excluded.error_kind, error_message = excluded.error_message, tokens_in = excluded.tokens_in,
         tokens_out = excluded.tokens_out, latency_ms = excluded.latency_ms, cache_key = excluded.cache_key,
         source = excluded.source, import_id = excluded.import_id, created_at = excluded.created_at
       WHERE judge_predictions.error_kind IS NOT NULL`,
    );
    return this.transaction(() => {
      let changed = 0;
      const at = now();
      for (const r of results) {
        changed += statement.run(
          r.unitId,
          r.versionId,
          r.hard,
          r.soft,
          r.raw,
          r.parseError,
          r.errorKind,
          r.errorMessage,
          r.tokensIn,
          r.tokensOut,
          r.latencyMs,
          r.cacheKey,
          r.source,
          r.importId ?? null,
          at,
          r.errorType ?? null,
          r.sourceErrorType ?? null,
        ).changes;
      }
      return changed;
    });
  }

  /** One sentence with its document, for a request preview: by unit id, else the first with a document. */
  previewUnit(unitId: number | null, dataset: string | null): PreviewUnit | null {
    const row = this.db
      .prepare(
        `SELECT u.id AS unitId, d.name AS dataset, s.summary_id AS summaryId, u.idx AS sentenceIndex, u.text AS sentence, doc.text AS document
         FROM units u JOIN summaries s ON s.id = u.summary_id JOIN datasets d ON d.id = s.dataset_id JOIN documents doc ON doc.id = s.document_id
         WHERE (? IS NULL OR u.id = ?) AND (? IS NULL OR d.name = ?) AND (? IS NOT NULL OR doc.text IS NOT NULL)
         ORDER BY d.name, s.id, u.idx LIMIT 1`,
      )
      .get(unitId, unitId, dataset, dataset, unitId) as PreviewUnit | undefined;
    return row ?? null;
  }

  // --- imports and exports -------------------------------------------------------------------

  /** Whether a judge version (by judge name and config hash) holds any answered prediction: none, no conflict to look for. */
  hasStoredPredictions(judge: string, configHash: string): boolean {
    return (
      this.statements
        .get(
          `SELECT 1 FROM judges j JOIN judge_versions v ON v.judge_id = j.id
           JOIN judge_predictions p ON p.judge_version_id = v.id
           WHERE j.name = ? AND v.config_hash = ? AND p.error_kind IS NULL LIMIT 1`,
        )
        .get(judge, configHash) !== undefined
    );
  }

  /** The stored prediction of a judge version for a unit, if any (import conflict checks). */
  storedPrediction(
    unitId: number,
    judge: string,
    configHash: string,
  ): { hard: 0 | 1 | null; soft: number | null } | null {
    const row = this.statements
      .get(
        `SELECT p.hard, p.soft FROM judge_predictions p JOIN judge_versions v ON v.id = p.judge_version_id JOIN judges j ON j.id = v.judge_id
         WHERE p.unit_id = ? AND j.name = ? AND v.config_hash = ? AND p.error_kind IS NULL`,
      )
      .get(unitId, judge, configHash) as { hard: 0 | 1 | null; soft: number | null } | undefined;
    return row ?? null;
  }

  /**
   * The version imported predictions go to: an imported judge (created when new; the imported
   * version becomes current), or an existing version of a configured judge with the same hash.
   */
  importVersion(judge: string, configHash: string): number {
    const existing = this.judgeByName(judge);
    if (existing && existing.kind !== 'imported') {
      const row = this.db
        .prepare('SELECT id FROM judge_versions WHERE judge_id = ? AND config_hash = ?')
        .get(existing.id, configHash) as { id: number } | undefined;
      if (!row)
        throw new Error(`Judge "${judge}" is configured in this project with other versions than ${configHash}`);
      return row.id;
    }
    const judgeId = existing?.id ?? this.insertJudge({ name: judge, kind: 'imported', config: null, apiKeyEnv: null });
    const version = this.ensureVersion(judgeId, configHash, JSON.stringify({ kind: 'imported' }));
    this.setCurrentVersion(judgeId, version.id);
    return version.id;
  }

  /**
   * Predictions of the current version of every judge for one dataset (analysis input), the
   * largest part of the analysis' load. Raw rows turned into objects here: with the driver's own
   * row objects the query took about a fifth longer at 380,000 rows (measured).
   */
  predictionsForDataset(dataset: string): DatasetPredictionRow[] {
    const rows = this.db
      .prepare(
        `SELECT s.id, u.idx, j.name, p.hard, p.soft, p.error_type
         FROM judge_predictions p
         JOIN judges j ON j.current_version_id = p.judge_version_id
         JOIN units u ON u.id = p.unit_id JOIN summaries s ON s.id = u.summary_id JOIN datasets d ON d.id = s.dataset_id
         WHERE d.name = ? AND (p.hard IS NOT NULL OR p.soft IS NOT NULL)
         ORDER BY s.id, u.idx, j.name`,
      )
      .raw()
      .all(dataset) as Array<[number, number, string, 0 | 1 | null, number | null, ErrorType | null]>;
    return rows.map(([summaryKey, unitIndex, judge, hard, soft, errorType]) => ({
      summaryKey,
      unitIndex,
      judge,
      hard,
      soft,
      errorType,
    }));
  }

  /** One row per (sentence, judge) with a hard label, current versions, in the import format; of the summaries `keys` when given. */
  exportPredictions(dataset: string | null, keys: readonly number[] | null = null): ExportPredictionRow[] {
    const scope = scopeCondition('s.id', keys);
    return this.db
      .prepare(
        `SELECT d.name AS dataset, s.summary_id AS summaryId, u.idx AS sentenceIndex, j.name AS judge, p.hard, p.soft, v.config_hash AS configHash
         FROM judge_predictions p
         JOIN judges j ON j.current_version_id = p.judge_version_id JOIN judge_versions v ON v.id = p.judge_version_id
         JOIN units u ON u.id = p.unit_id JOIN summaries s ON s.id = u.summary_id JOIN datasets d ON d.id = s.dataset_id
         WHERE p.hard IS NOT NULL AND (? IS NULL OR d.name = ?) AND ${scope.sql}
         ORDER BY d.name, s.summary_id, u.idx, j.name`,
      )
      .all(dataset, dataset, ...scope.params) as ExportPredictionRow[];
  }
}
