/**
 * SQL of what is said about claims and key facts: people's label events (append-only; the current
 * label is the latest event, db/latest.ts) and judges' outputs (claim verdicts, key-fact coverage,
 * a sentence conveying a key fact).
 */
import type { Database } from './open';
import { currentFirst } from './latest';
import type { ClaimErrorType, ClaimLabel, KeyFactLabel } from '../shared/accuracy/domain';

const now = (): string => new Date().toISOString();

export interface ItemRefs {
  claims: number[];
  sentences: number[];
}

export function refs(text: string): ItemRefs {
  const v = JSON.parse(text) as Partial<ItemRefs>;
  return { claims: Array.isArray(v.claims) ? v.claims : [], sentences: Array.isArray(v.sentences) ? v.sentences : [] };
}

export class ItemLabelRepository {
  constructor(private readonly db: Database) {}

  // --- label events ----------------------------------------------------------------------------------

  recordClaimLabel(e: {
    claimId: number;
    annotatorId: number;
    label: ClaimLabel | null;
    errorType: ClaimErrorType | null;
    sourceErrorType?: string | null;
    note: string | null;
    timeSpentMs: number | null;
    cause: string;
    importKey?: string | null;
    importId?: number | null;
  }): number | null {
    const info = this.db
      .prepare(
        `INSERT OR IGNORE INTO claim_label_events (claim_id, annotator_id, label, error_type, source_error_type, note, time_spent_ms, cause, created_at, import_key, import_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        e.claimId,
        e.annotatorId,
        e.label,
        e.errorType,
        e.sourceErrorType ?? null,
        e.note,
        e.timeSpentMs,
        e.cause,
        now(),
        e.importKey ?? null,
        e.importId ?? null,
      );
    return info.changes > 0 ? Number(info.lastInsertRowid) : null;
  }

  recordKeyFactLabel(e: {
    keyFactId: number;
    summaryKey: number;
    annotatorId: number;
    label: KeyFactLabel | null;
    conveyedBy: ItemRefs;
    note: string | null;
    timeSpentMs: number | null;
    cause: string;
    importKey?: string | null;
    importId?: number | null;
  }): number | null {
    const info = this.db
      .prepare(
        `INSERT OR IGNORE INTO key_fact_label_events (key_fact_id, summary_id, annotator_id, label, conveyed_by, note, time_spent_ms, cause, created_at, import_key, import_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        e.keyFactId,
        e.summaryKey,
        e.annotatorId,
        e.label,
        JSON.stringify(e.conveyedBy),
        e.note,
        e.timeSpentMs,
        e.cause,
        now(),
        e.importKey ?? null,
        e.importId ?? null,
      );
    return info.changes > 0 ? Number(info.lastInsertRowid) : null;
  }

  recordSentenceKeyFact(e: {
    unitId: number;
    keyFactSetId: number;
    annotatorId: number;
    conveys: boolean;
    cause: string;
    importKey: string | null;
    importId: number | null;
  }): boolean {
    const info = this.db
      .prepare(
        'INSERT OR IGNORE INTO sentence_keyfact_events (unit_id, key_fact_set_id, annotator_id, conveys, cause, created_at, import_key, import_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(e.unitId, e.keyFactSetId, e.annotatorId, e.conveys ? 1 : 0, e.cause, now(), e.importKey, e.importId);
    return info.changes > 0;
  }

  /** One annotator's current label of each claim of a set. */
  currentClaimStates(
    setId: number,
    annotatorId: number,
  ): Map<number, { label: ClaimLabel | null; errorType: ClaimErrorType | null; note: string | null }> {
    const rows = this.db
      .prepare(
        `SELECT claim_id AS claimId, label, error_type AS errorType, note FROM (
           SELECT e.*, row_number() OVER (PARTITION BY e.claim_id ORDER BY ${currentFirst('e')}) AS rn
           FROM claim_label_events e JOIN claims c ON c.id = e.claim_id WHERE c.set_id = ? AND e.annotator_id = ?) WHERE rn = 1`,
      )
      .all(setId, annotatorId) as Array<{
      claimId: number;
      label: ClaimLabel | null;
      errorType: ClaimErrorType | null;
      note: string | null;
    }>;
    return new Map(rows.map((r) => [r.claimId, { label: r.label, errorType: r.errorType, note: r.note }]));
  }

  currentKeyFactStates(
    setId: number,
    summaryKey: number,
    annotatorId: number,
  ): Map<number, { label: KeyFactLabel | null; conveyedBy: ItemRefs; note: string | null }> {
    const rows = this.db
      .prepare(
        `SELECT key_fact_id AS keyFactId, label, conveyed_by AS conveyedBy, note FROM (
           SELECT e.*, row_number() OVER (PARTITION BY e.key_fact_id ORDER BY ${currentFirst('e')}) AS rn
           FROM key_fact_label_events e JOIN key_facts k ON k.id = e.key_fact_id WHERE k.set_id = ? AND e.summary_id = ? AND e.annotator_id = ?) WHERE rn = 1`,
      )
      .all(setId, summaryKey, annotatorId) as Array<{
      keyFactId: number;
      label: KeyFactLabel | null;
      conveyedBy: string;
      note: string | null;
    }>;
    return new Map(rows.map((r) => [r.keyFactId, { label: r.label, conveyedBy: refs(r.conveyedBy), note: r.note }]));
  }

  // --- judge outputs ---------------------------------------------------------------------------------

  saveClaimPrediction(p: {
    claimId: number;
    judgeId: number;
    configHash: string;
    supported: boolean;
    errorType: ClaimErrorType | null;
    sourceErrorType: string | null;
    raw: string | null;
    source: 'run' | 'import';
    importId: number | null;
  }): boolean {
    const info = this.db
      .prepare(
        `INSERT OR IGNORE INTO claim_predictions (claim_id, judge_id, config_hash, supported, error_type, source_error_type, raw, source, import_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        p.claimId,
        p.judgeId,
        p.configHash,
        p.supported ? 1 : 0,
        p.supported ? null : p.errorType,
        p.sourceErrorType,
        p.raw,
        p.source,
        p.importId,
        now(),
      );
    return info.changes > 0;
  }

  saveKeyFactPrediction(p: {
    keyFactId: number;
    summaryKey: number;
    judgeId: number;
    configHash: string;
    covered: boolean;
    conveyedBy: ItemRefs;
    raw: string | null;
    source: 'run' | 'import';
    importId: number | null;
  }): boolean {
    const info = this.db
      .prepare(
        `INSERT OR IGNORE INTO key_fact_predictions (key_fact_id, summary_id, judge_id, config_hash, covered, conveyed_by, raw, source, import_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        p.keyFactId,
        p.summaryKey,
        p.judgeId,
        p.configHash,
        p.covered ? 1 : 0,
        JSON.stringify(p.conveyedBy),
        p.raw,
        p.source,
        p.importId,
        now(),
      );
    return info.changes > 0;
  }

  saveSentenceKeyFactPrediction(p: {
    unitId: number;
    keyFactSetId: number;
    judgeId: number;
    configHash: string;
    conveys: boolean;
    source: 'run' | 'import';
    importId: number | null;
  }): boolean {
    const info = this.db
      .prepare(
        'INSERT OR IGNORE INTO sentence_keyfact_predictions (unit_id, key_fact_set_id, judge_id, config_hash, conveys, source, import_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(p.unitId, p.keyFactSetId, p.judgeId, p.configHash, p.conveys ? 1 : 0, p.source, p.importId, now());
    return info.changes > 0;
  }
}
