/**
 * What the accuracy metrics read of one dataset, in one pass: its summaries and sentences, the
 * current claim and key-fact sets, every annotator's current label and each judge's latest output
 * on them, and the systems' failures: what the analysis and the accuracy export read. The export
 * reads the same rows a batch of summaries at a time (`itemRows` with a scope); every label and
 * output query looks its items up by id, so a batch reads only its own events.
 */
import type { Database } from './open';
import { currentFirst } from './latest';
import { scopeCondition, type SummaryScope } from './summaryScope';
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
export interface AccuracyDatasetRows extends AccuracyItemRows {
  failures: Array<{ docId: string; system: string; failure: SystemFailure }>;
}

/** A dataset's current claim set per summary key and key-fact set per document key. */
export interface CurrentSets {
  claims: Map<number, number>;
  keyFacts: Map<number, number>;
}

/** The summaries of a dataset (all, or a batch) with their items, labels and outputs. */
export interface AccuracyItemRows {
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
}

export class AccuracySnapshot {
  constructor(
    private readonly db: Database,
    private readonly sets: SetRepository,
  ) {}

  datasetRows(dataset: string): AccuracyDatasetRows {
    return { ...this.itemRows(dataset, null, this.currentSets(dataset)), failures: this.failures(dataset) };
  }

  /** The dataset's current sets (one query each): an export reads them once for all its batches. */
  currentSets(dataset: string): CurrentSets {
    return { claims: this.sets.currentClaimSetIds(dataset), keyFacts: this.sets.currentKeyFactSetIds(dataset) };
  }

  /** The systems' failures on the dataset's documents, in doc id and system order. */
  failures(dataset: string): AccuracyDatasetRows['failures'] {
    return this.db
      .prepare(
        `SELECT d.doc_id AS docId, sy.name AS system, o.failure FROM system_outputs o JOIN systems sy ON sy.id = o.system_id JOIN documents d ON d.id = o.document_id
         JOIN datasets ds ON ds.id = d.dataset_id WHERE ds.name = ? AND o.failure IS NOT NULL ORDER BY d.doc_id, sy.name`,
      )
      .all(dataset) as AccuracyDatasetRows['failures'];
  }

  /** The rows of the dataset's summaries in `scope` (null: all of them), in summary key order. */
  itemRows(dataset: string, scope: SummaryScope, current: CurrentSets): AccuracyItemRows {
    const batch = scopeCondition('s.id', scope);
    const summaries = this.db
      .prepare(
        `SELECT s.id AS key, s.summary_id AS summaryId, d.doc_id AS docId, d.id AS documentKey,
                (SELECT sy.name FROM system_outputs o JOIN systems sy ON sy.id = o.system_id WHERE o.summary_id = s.id ORDER BY o.id LIMIT 1) AS system
         FROM summaries s JOIN datasets ds ON ds.id = s.dataset_id JOIN documents d ON d.id = s.document_id
         WHERE ds.name = ? AND ${batch.sql} ORDER BY s.id`,
      )
      .all(dataset, ...batch.params) as Array<{
      key: number;
      summaryId: string;
      docId: string;
      documentKey: number;
      system: string | null;
    }>;
    const units = this.db
      .prepare(
        `SELECT u.summary_id AS key, u.id AS unitId, u.idx AS "index", u.text FROM units u JOIN summaries s ON s.id = u.summary_id JOIN datasets ds ON ds.id = s.dataset_id
         WHERE ds.name = ? AND ${batch.sql} ORDER BY u.summary_id, u.idx`,
      )
      .all(dataset, ...batch.params) as Array<{ key: number; unitId: number; index: number; text: string }>;
    const unitsBy = new Map<number, Array<{ unitId: number; index: number; text: string }>>();
    for (const u of units) {
      let list = unitsBy.get(u.key);
      if (!list) unitsBy.set(u.key, (list = []));
      list.push({ unitId: u.unitId, index: u.index, text: u.text });
    }

    const claims = new Map<number, ClaimRow[]>();
    const keyFacts = new Map<number, { setId: number; facts: KeyFactRow[] }>();
    for (const s of summaries) {
      const setId = current.claims.get(s.key);
      if (setId !== undefined) claims.set(s.key, this.sets.claimsOfSet(setId));
      const factSetId = current.keyFacts.get(s.documentKey);
      if (factSetId !== undefined && !keyFacts.has(s.documentKey))
        keyFacts.set(s.documentKey, { setId: factSetId, facts: this.sets.keyFactsOfSet(factSetId) });
    }
    const ids = (values: Iterable<number>) => JSON.stringify([...values]);
    const claimIds = ids([...claims.values()].flat().map((c) => c.id));
    const factIds = new Set([...keyFacts.values()].flatMap((k) => k.facts.map((f) => f.id)));
    const setIds = new Set([...keyFacts.values()].map((k) => k.setId));
    const summaryKeys = ids(summaries.map((s) => s.key));
    const unitIds = ids(units.map((u) => u.unitId));
    const IN = 'IN (SELECT value FROM json_each(?))';

    const claimLabels = (
      this.db
        .prepare(
          `SELECT claimId, annotator, annotatorKind, label, errorType, note, blind FROM (
             SELECT e.claim_id AS claimId, a.name AS annotator, a.kind AS annotatorKind, e.label, e.error_type AS errorType, e.note, e.blind,
                    row_number() OVER (PARTITION BY e.claim_id, e.annotator_id ORDER BY ${currentFirst('e')}) AS rn
             FROM claim_label_events e JOIN annotators a ON a.id = e.annotator_id WHERE e.claim_id ${IN}) WHERE rn = 1`,
        )
        .all(claimIds) as Array<Omit<ClaimLabelEventRow, 'blind'> & { blind: number }>
    ).map((r) => ({ ...r, blind: r.blind === 1 }));
    const keyFactLabels = (
      this.db
        .prepare(
          `SELECT keyFactId, summaryKey, annotator, annotatorKind, label, conveyedBy, note, blind FROM (
             SELECT e.key_fact_id AS keyFactId, e.summary_id AS summaryKey, a.name AS annotator, a.kind AS annotatorKind, e.label, e.conveyed_by AS conveyedBy, e.note, e.blind,
                    row_number() OVER (PARTITION BY e.key_fact_id, e.summary_id, e.annotator_id ORDER BY ${currentFirst('e')}) AS rn
             FROM key_fact_label_events e JOIN annotators a ON a.id = e.annotator_id WHERE e.summary_id ${IN}) WHERE rn = 1`,
        )
        .all(summaryKeys) as Array<
        Omit<KeyFactLabelEventRow, 'blind' | 'conveyedBy'> & { blind: number; conveyedBy: string }
      >
    )
      .filter((r) => factIds.has(r.keyFactId))
      .map((r) => ({ ...r, blind: r.blind === 1, conveyedBy: refs(r.conveyedBy) }));
    const sentenceKeyFactLabels = (
      this.db
        .prepare(
          `SELECT unitId, keyFactSetId, annotator, annotatorKind, conveys FROM (
             SELECT e.unit_id AS unitId, e.key_fact_set_id AS keyFactSetId, a.name AS annotator, a.kind AS annotatorKind, e.conveys,
                    row_number() OVER (PARTITION BY e.unit_id, e.key_fact_set_id, e.annotator_id ORDER BY ${currentFirst('e')}) AS rn
             FROM sentence_keyfact_events e JOIN annotators a ON a.id = e.annotator_id WHERE e.unit_id ${IN}) WHERE rn = 1 AND conveys IS NOT NULL`,
        )
        .all(unitIds) as Array<Omit<SentenceKeyFactRow, 'conveys'> & { conveys: number }>
    )
      .filter((r) => setIds.has(r.keyFactSetId))
      .map((r) => ({ ...r, conveys: r.conveys === 1 }));
    // A judge's latest output per item (its newest configuration wins).
    const claimPredictions = (
      this.db
        .prepare(
          `SELECT claimId, judge, supported, errorType FROM (
             SELECT p.claim_id AS claimId, j.name AS judge, p.supported, p.error_type AS errorType,
                    row_number() OVER (PARTITION BY p.claim_id, p.judge_id ORDER BY p.created_at DESC, p.id DESC) AS rn
             FROM claim_predictions p JOIN judges j ON j.id = p.judge_id WHERE p.claim_id ${IN}) WHERE rn = 1`,
        )
        .all(claimIds) as Array<{ claimId: number; judge: string; supported: number; errorType: ClaimErrorType | null }>
    ).map((r) => ({ ...r, supported: r.supported === 1 }));
    const keyFactPredictions = (
      this.db
        .prepare(
          `SELECT keyFactId, summaryKey, judge, covered, conveyedBy FROM (
             SELECT p.key_fact_id AS keyFactId, p.summary_id AS summaryKey, j.name AS judge, p.covered, p.conveyed_by AS conveyedBy,
                    row_number() OVER (PARTITION BY p.key_fact_id, p.summary_id, p.judge_id ORDER BY p.created_at DESC, p.id DESC) AS rn
             FROM key_fact_predictions p JOIN judges j ON j.id = p.judge_id WHERE p.summary_id ${IN}) WHERE rn = 1`,
        )
        .all(summaryKeys) as Array<{
        keyFactId: number;
        summaryKey: number;
        judge: string;
        covered: number;
        conveyedBy: string;
      }>
    )
      .filter((r) => factIds.has(r.keyFactId))
      .map((r) => ({ ...r, covered: r.covered === 1, conveyedBy: refs(r.conveyedBy) }));
    const sentenceKeyFactPredictions = (
      this.db
        .prepare(
          `SELECT unitId, keyFactSetId, judge, conveys FROM (
             SELECT p.unit_id AS unitId, p.key_fact_set_id AS keyFactSetId, j.name AS judge, p.conveys,
                    row_number() OVER (PARTITION BY p.unit_id, p.key_fact_set_id, p.judge_id ORDER BY p.created_at DESC, p.id DESC) AS rn
             FROM sentence_keyfact_predictions p JOIN judges j ON j.id = p.judge_id WHERE p.unit_id ${IN}) WHERE rn = 1`,
        )
        .all(unitIds) as Array<{ unitId: number; keyFactSetId: number; judge: string; conveys: number }>
    )
      .filter((r) => setIds.has(r.keyFactSetId))
      .map((r) => ({ ...r, conveys: r.conveys === 1 }));

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
    };
  }
}
