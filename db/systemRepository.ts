/**
 * SQL of the systems under test (schema 8): their configurations (never a key), what each wrote per
 * document (a summary, or the failure), and the summaries they generated, split as imported ones are.
 */
import type { Database } from './open';
import type { SystemFailure } from '../shared/accuracy/domain';

const now = (): string => new Date().toISOString();

export class SystemRepository {
  constructor(private readonly db: Database) {}

  ensureSystem(name: string, kind: 'endpoint' | 'imported', config: string | null, configHash: string): number {
    const existing = this.db.prepare('SELECT id FROM systems WHERE name = ?').get(name) as { id: number } | undefined;
    if (existing) {
      this.db
        .prepare('UPDATE systems SET config = coalesce(?, config), config_hash = ?, updated_at = ? WHERE id = ?')
        .run(config, configHash, now(), existing.id);
      return existing.id;
    }
    return Number(
      this.db
        .prepare(
          'INSERT INTO systems (name, kind, config, config_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(name, kind, config, configHash, now(), now()).lastInsertRowid,
    );
  }

  systemByName(name: string): {
    id: number;
    name: string;
    kind: 'endpoint' | 'imported';
    config: string | null;
    configHash: string;
    updatedAt: string;
  } | null {
    const row = this.db
      .prepare(
        'SELECT id, name, kind, config, config_hash AS configHash, updated_at AS updatedAt FROM systems WHERE name = ?',
      )
      .get(name) as ReturnType<SystemRepository['systemByName']> | undefined;
    return row ?? null;
  }

  listSystems(): Array<{
    id: number;
    name: string;
    kind: 'endpoint' | 'imported';
    config: string | null;
    configHash: string;
    updatedAt: string;
    ok: number;
    failed: number;
    failures: Array<{ kind: SystemFailure; count: number }>;
  }> {
    const systems = this.db
      .prepare(
        'SELECT id, name, kind, config, config_hash AS configHash, updated_at AS updatedAt FROM systems ORDER BY name',
      )
      .all() as Array<{
      id: number;
      name: string;
      kind: 'endpoint' | 'imported';
      config: string | null;
      configHash: string;
      updatedAt: string;
    }>;
    const counts = this.db
      .prepare('SELECT system_id AS id, failure, count(*) AS n FROM system_outputs GROUP BY system_id, failure')
      .all() as Array<{ id: number; failure: SystemFailure | null; n: number }>;
    return systems.map((s) => {
      const mine = counts.filter((c) => c.id === s.id);
      return {
        ...s,
        ok: mine.filter((c) => c.failure === null).reduce((a, c) => a + c.n, 0),
        failed: mine.filter((c) => c.failure !== null).reduce((a, c) => a + c.n, 0),
        failures: mine.filter((c) => c.failure !== null).map((c) => ({ kind: c.failure!, count: c.n })),
      };
    });
  }

  removeSystem(name: string): boolean {
    return this.db.prepare('DELETE FROM systems WHERE name = ?').run(name).changes > 0;
  }

  // --- outputs ---------------------------------------------------------------------------------------

  /** A system's output for a document: replaces an earlier failure (a retry that succeeded), never a stored summary. */
  recordSystemOutput(o: {
    systemId: number;
    documentKey: number;
    configHash: string;
    summaryKey: number | null;
    failure: SystemFailure | null;
    failureMessage: string | null;
  }): boolean {
    const existing = this.db
      .prepare('SELECT id, summary_id AS summaryKey FROM system_outputs WHERE system_id = ? AND document_id = ?')
      .get(o.systemId, o.documentKey) as { id: number; summaryKey: number | null } | undefined;
    if (existing && existing.summaryKey !== null) return false;
    if (existing) this.db.prepare('DELETE FROM system_outputs WHERE id = ?').run(existing.id);
    this.db
      .prepare(
        'INSERT INTO system_outputs (system_id, document_id, config_hash, summary_id, failure, failure_message, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(o.systemId, o.documentKey, o.configHash, o.summaryKey, o.failure, o.failureMessage, now());
    return true;
  }

  /** A system's stored output for a document (a summary or a failure), if any. */
  systemOutput(
    systemId: number,
    documentKey: number,
  ): { summaryKey: number | null; failure: SystemFailure | null } | null {
    const row = this.db
      .prepare('SELECT summary_id AS summaryKey, failure FROM system_outputs WHERE system_id = ? AND document_id = ?')
      .get(systemId, documentKey) as { summaryKey: number | null; failure: SystemFailure | null } | undefined;
    return row ?? null;
  }

  /** A summary written by a system under test (no import): the document's dataset, its units as split. Returns its key. */
  insertGeneratedSummary(s: {
    documentKey: number;
    summaryId: string;
    text: string;
    meta: Record<string, unknown>;
    units: Array<{ idx: number; text: string; start: number; end: number; fragment: boolean }>;
    splitter: { name: string; version: string };
  }): number {
    const doc = this.db.prepare('SELECT dataset_id AS datasetId FROM documents WHERE id = ?').get(s.documentKey) as {
      datasetId: number;
    };
    const key = Number(
      this.db
        .prepare(
          'INSERT INTO summaries (dataset_id, document_id, summary_id, text, global_label, meta, import_id) VALUES (?, ?, ?, ?, NULL, ?, NULL)',
        )
        .run(doc.datasetId, s.documentKey, s.summaryId, s.text, JSON.stringify(s.meta)).lastInsertRowid,
    );
    const insertUnit = this.db.prepare(
      'INSERT INTO units (summary_id, idx, text, start, end, fragment, splitter, splitter_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const u of s.units)
      insertUnit.run(key, u.idx, u.text, u.start, u.end, u.fragment ? 1 : 0, s.splitter.name, s.splitter.version);
    return key;
  }

  /** The recorded message of a system's failure on a document (what the endpoint or the model said). */
  failureMessage(dataset: string, docId: string, system: string): string | null {
    const row = this.db
      .prepare(
        `SELECT o.failure_message AS message FROM system_outputs o JOIN systems sy ON sy.id = o.system_id JOIN documents d ON d.id = o.document_id
         JOIN datasets ds ON ds.id = d.dataset_id WHERE ds.name = ? AND d.doc_id = ? AND sy.name = ?`,
      )
      .get(dataset, docId, system) as { message: string | null } | undefined;
    return row?.message ?? null;
  }
}
