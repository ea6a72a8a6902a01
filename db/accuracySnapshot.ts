/**
 * What the accuracy metrics read of one dataset, in one pass: its summaries and sentences, the
 * current claim and key-fact sets, every annotator's current label and each judge's latest output
 * on them, and the systems' failures: what the analysis and the accuracy export read.
 */
import type { Database } from './open';
import { currentFirst } from './latest';
import { refs, type ItemRefs } from './itemLabelRepository';
import type { ClaimRow, KeyFactRow, SetRepository } from './setRepository';
import type { ClaimErrorType, ClaimLabel, KeyFactLabel, SystemFailure } from '../shared/accuracy/domain';

export interface ClaimLabelEventRow {
  claimId: number;
  annotator: string;
  annotatorKind: 'person' | 'imported';
  label: ClaimLabel | null;
  errorType: ClaimErrorType | null;
  note: string | null;
  blind: boolean;
}

export interface KeyFactLabelEventRow {
  keyFactId: number;
  summaryKey: number;
  annotator: string;
  annotatorKind: 'person' | 'imported';
  label: KeyFactLabel | null;
  conveyedBy: ItemRefs;
  note: string | null;
  blind: boolean;
}

export interface SentenceKeyFactRow {
  unitId: number;
  keyFactSetId: number;
  annotator: string;
  annotatorKind: 'person' | 'imported';
  conveys: boolean;
}

/** Everything of one dataset the accuracy metrics read (current sets, current labels, latest judge outputs). */
export interface AccuracyDatasetRows {
  summaries: Array<{
    key: number;
    summaryId: string;
    docId: string;
    documentKey: number;
    system: string | null;
    sentences: Array<{ unitId: number; index: number; text: string }>;
  }>;
  claims: Map<number, ClaimRow[]>;
  keyFacts: Map<number, { setId: number; facts: KeyFactRow[] }>;
  claimLabels: ClaimLabelEventRow[];
  keyFactLabels: KeyFactLabelEventRow[];
  sentenceKeyFactLabels: SentenceKeyFactRow[];
  claimPredictions: Array<{ claimId: number; judge: string; supported: boolean; errorType: ClaimErrorType | null }>;
  keyFactPredictions: Array<{
    keyFactId: number;
    summaryKey: number;
    judge: string;
    covered: boolean;
    conveyedBy: ItemRefs;
  }>;
  sentenceKeyFactPredictions: Array<{ unitId: number; keyFactSetId: number; judge: string; conveys: boolean }>;
  failures: Array<{ docId: string; system: string; failure: SystemFailure }>;
}

export class AccuracySnapshot {
  constructor(
    private readonly db: Database,
    private readonly sets: SetRepository,
  ) {}

  datasetRows(dataset: string): AccuracyDatasetRows {
    const summaries = this.db
      .prepare(
        `SELECT s.id AS key, s.summary_id AS summaryId, d.doc_id AS docId, d.id AS documentKey,
                (SELECT sy.name FROM system_outputs o JOIN systems sy ON sy.id = o.system_id WHERE o.summary_id = s.id ORDER BY o.id LIMIT 1) AS system
         FROM summaries s JOIN datasets ds ON ds.id = s.dataset_id JOIN documents d ON d.id = s.document_id WHERE ds.name = ? ORDER BY s.id`,
      )
      .all(dataset) as Array<{
      key: number;
      summaryId: string;
      docId: string;
      documentKey: number;
      system: string | null;
    }>;
    const units = this.db
      .prepare(
        'SELECT u.summary_id AS key, u.id AS unitId, u.idx AS "index", u.text FROM units u JOIN summaries s ON s.id = u.summary_id JOIN datasets ds ON ds.id = s.dataset_id WHERE ds.name = ? ORDER BY u.summary_id, u.idx',
      )
      .all(dataset) as Array<{ key: number; unitId: number; index: number; text: string }>;
    const unitsBy = new Map<number, Array<{ unitId: number; index: number; text: string }>>();
    for (const u of units)
      unitsBy.set(u.key, [...(unitsBy.get(u.key) ?? []), { unitId: u.unitId, index: u.index, text: u.text }]);

    const claims = new Map<number, ClaimRow[]>();
    const keyFacts = new Map<number, { setId: number; facts: KeyFactRow[] }>();
    // The current sets in one query each: most summaries of a large benchmark have none.
    const claimSetIds = this.sets.currentClaimSetIds(dataset);
    const keyFactSetIds = this.sets.currentKeyFactSetIds(dataset);
    for (const s of summaries) {
      const setId = claimSetIds.get(s.key);
      if (setId !== undefined) claims.set(s.key, this.sets.claimsOfSet(setId));
      const factSetId = keyFactSetIds.get(s.documentKey);
      if (factSetId !== undefined && !keyFacts.has(s.documentKey))
        keyFacts.set(s.documentKey, { setId: factSetId, facts: this.sets.keyFactsOfSet(factSetId) });
    }
    const claimIds = new Set([...claims.values()].flat().map((c) => c.id));
    const factIds = new Set([...keyFacts.values()].flatMap((k) => k.facts.map((f) => f.id)));
    const setIds = new Set([...keyFacts.values()].map((k) => k.setId));
    const summaryKeys = new Set(summaries.map((s) => s.key));
    const unitIds = new Set(units.map((u) => u.unitId));

    const claimLabels = (
      this.db
        .prepare(
          `SELECT claimId, annotator, annotatorKind, label, errorType, note, blind FROM (
             SELECT e.claim_id AS claimId, a.name AS annotator, a.kind AS annotatorKind, e.label, e.error_type AS errorType, e.note, e.blind,
                    row_number() OVER (PARTITION BY e.claim_id, e.annotator_id ORDER BY ${currentFirst('e')}) AS rn
             FROM claim_label_events e JOIN annotators a ON a.id = e.annotator_id) WHERE rn = 1`,
        )
        .all() as Array<Omit<ClaimLabelEventRow, 'blind'> & { blind: number }>
    )
      .filter((r) => claimIds.has(r.claimId))
      .map((r) => ({ ...r, blind: r.blind === 1 }));
    const keyFactLabels = (
      this.db
        .prepare(
          `SELECT keyFactId, summaryKey, annotator, annotatorKind, label, conveyedBy, note, blind FROM (
             SELECT e.key_fact_id AS keyFactId, e.summary_id AS summaryKey, a.name AS annotator, a.kind AS annotatorKind, e.label, e.conveyed_by AS conveyedBy, e.note, e.blind,
                    row_number() OVER (PARTITION BY e.key_fact_id, e.summary_id, e.annotator_id ORDER BY ${currentFirst('e')}) AS rn
             FROM key_fact_label_events e JOIN annotators a ON a.id = e.annotator_id) WHERE rn = 1`,
        )
        .all() as Array<Omit<KeyFactLabelEventRow, 'blind' | 'conveyedBy'> & { blind: number; conveyedBy: string }>
    )
      .filter((r) => factIds.has(r.keyFactId) && summaryKeys.has(r.summaryKey))
      .map((r) => ({ ...r, blind: r.blind === 1, conveyedBy: refs(r.conveyedBy) }));
    const sentenceKeyFactLabels = (
      this.db
        .prepare(
          `SELECT unitId, keyFactSetId, annotator, annotatorKind, conveys FROM (
             SELECT e.unit_id AS unitId, e.key_fact_set_id AS keyFactSetId, a.name AS annotator, a.kind AS annotatorKind, e.conveys,
                    row_number() OVER (PARTITION BY e.unit_id, e.key_fact_set_id, e.annotator_id ORDER BY ${currentFirst('e')}) AS rn
             FROM sentence_keyfact_events e JOIN annotators a ON a.id = e.annotator_id) WHERE rn = 1 AND conveys IS NOT NULL`,
        )
        .all() as Array<Omit<SentenceKeyFactRow, 'conveys'> & { conveys: number }>
    )
      .filter((r) => unitIds.has(r.unitId) && setIds.has(r.keyFactSetId))
      .map((r) => ({ ...r, conveys: r.conveys === 1 }));
    // A judge's latest output per item (its newest configuration wins).
    const claimPredictions = (
      this.db
        .prepare(
          `SELECT claimId, judge, supported, errorType FROM (
             SELECT p.claim_id AS claimId, j.name AS judge, p.supported, p.error_type AS errorType,
                    row_number() OVER (PARTITION BY p.claim_id, p.judge_id ORDER BY p.created_at DESC, p.id DESC) AS rn
             FROM claim_predictions p JOIN judges j ON j.id = p.judge_id) WHERE rn = 1`,
        )
        .all() as Array<{ claimId: number; judge: string; supported: number; errorType: ClaimErrorType | null }>
    )
      .filter((r) => claimIds.has(r.claimId))
      .map((r) => ({ ...r, supported: r.supported === 1 }));
    const keyFactPredictions = (
      this.db
        .prepare(
          `SELECT keyFactId, summaryKey, judge, covered, conveyedBy FROM (
             SELECT p.key_fact_id AS keyFactId, p.summary_id AS summaryKey, j.name AS judge, p.covered, p.conveyed_by AS conveyedBy,
                    row_number() OVER (PARTITION BY p.key_fact_id, p.summary_id, p.judge_id ORDER BY p.created_at DESC, p.id DESC) AS rn
             FROM key_fact_predictions p JOIN judges j ON j.id = p.judge_id) WHERE rn = 1`,
        )
        .all() as Array<{ keyFactId: number; summaryKey: number; judge: string; covered: number; conveyedBy: string }>
    )
      .filter((r) => factIds.has(r.keyFactId) && summaryKeys.has(r.summaryKey))
      .map((r) => ({ ...r, covered: r.covered === 1, conveyedBy: refs(r.conveyedBy) }));
    const sentenceKeyFactPredictions = (
      this.db
        .prepare(
          `SELECT unitId, keyFactSetId, judge, conveys FROM (
             SELECT p.unit_id AS unitId, p.key_fact_set_id AS keyFactSetId, j.name AS judge, p.conveys,
                    row_number() OVER (PARTITION BY p.unit_id, p.key_fact_set_id, p.judge_id ORDER BY p.created_at DESC, p.id DESC) AS rn
             FROM sentence_keyfact_predictions p JOIN judges j ON j.id = p.judge_id) WHERE rn = 1`,
        )
        .all() as Array<{ unitId: number; keyFactSetId: number; judge: string; conveys: number }>
    )
      .filter((r) => unitIds.has(r.unitId) && setIds.has(r.keyFactSetId))
      .map((r) => ({ ...r, conveys: r.conveys === 1 }));
    const failures = this.db
      .prepare(
        `SELECT d.doc_id AS docId, sy.name AS system, o.failure FROM system_outputs o JOIN systems sy ON sy.id = o.system_id JOIN documents d ON d.id = o.document_id
         JOIN datasets ds ON ds.id = d.dataset_id WHERE ds.name = ? AND o.failure IS NOT NULL ORDER BY d.doc_id, sy.name`,
      )
      .all(dataset) as Array<{ docId: string; system: string; failure: SystemFailure }>;

    return {
      summaries: summaries.map((s) => ({ ...s, sentences: unitsBy.get(s.key) ?? [] })),
      claims,
      keyFacts,
      claimLabels,
      keyFactLabels,
      sentenceKeyFactLabels,
      claimPredictions,
      keyFactPredictions,
      sentenceKeyFactPredictions,
      failures,
    };
  }
}
