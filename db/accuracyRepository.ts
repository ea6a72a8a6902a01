/**
 * SQL of the Summarization Accuracy evaluation (schema 8): claim and key-fact sets (versioned),
 * people's label events on them, judge outputs, systems under test. Current labels follow
 * db/latest.ts (latest created_at, then id).
 */
import type { Database } from './open';
import { currentFirst } from './latest';
import type { ClaimErrorType, ClaimLabel, KeyFactLabel, SetSource, SystemFailure } from '../shared/accuracy/domain';

const now = (): string => new Date().toISOString();

export interface ItemRefs {
  claims: number[];
  sentences: number[];
}

export interface ClaimRow {
  id: number;
  setId: number;
  sentenceUnitId: number;
  sentenceIndex: number;
  idx: number;
  text: string;
}

/**
 * The tables of the two kinds of versioned set, which share one shape (schema 8). A fixed map:
 * table and column names in SQL come only from here, never from input.
 */
const SET_TABLES = {
  claim: { sets: 'claim_sets', owner: 'summary_id', maker: 'decomposer', items: 'claims', itemRef: 'claim_id', origins: 'claim_origins', events: 'claim_label_events' },
  keyFact: { sets: 'key_fact_sets', owner: 'document_id', maker: 'extractor', items: 'key_facts', itemRef: 'key_fact_id', origins: 'key_fact_origins', events: 'key_fact_label_events' },
} as const;
type SetKind = keyof typeof SET_TABLES;

export interface SetRow {
  id: number;
  version: number;
  source: SetSource;
  maker: string;
  makerVersion: string;
  basedOnSetId: number | null;
  createdBy: string | null;
  createdAt: string;
  note: string | null;
}

export interface KeyFactRow {
  id: number;
  setId: number;
  idx: number;
  text: string;
}

/** A set's state as a listing shows it (no set yet: currentVersion, source and maker null, 0 items). */
interface SetListing {
  currentVersion: number | null;
  versions: number;
  items: number;
  source: SetSource | null;
  maker: string | null;
}

export interface ClaimListRow extends SetListing {
  key: number;
  summaryId: string;
  docId: string;
  system: string | null;
  sentences: number;
}

export interface KeyFactListRow extends SetListing {
  documentKey: number;
  docId: string;
  summaries: number;
}

export interface NewSet<Item> {
  source: SetSource;
  maker: string;
  makerVersion: string;
  basedOnSetId: number | null;
  createdBy: number | null;
  note: string | null;
  importKey: string | null;
  importId: number | null;
  items: Array<Item & { from: number[] }>;
}

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
  summaries: Array<{ key: number; summaryId: string; docId: string; documentKey: number; system: string | null; sentences: Array<{ unitId: number; index: number; text: string }> }>;
  claims: Map<number, ClaimRow[]>;
  keyFacts: Map<number, { setId: number; facts: KeyFactRow[] }>;
  claimLabels: ClaimLabelEventRow[];
  keyFactLabels: KeyFactLabelEventRow[];
  sentenceKeyFactLabels: SentenceKeyFactRow[];
  claimPredictions: Array<{ claimId: number; judge: string; supported: boolean; errorType: ClaimErrorType | null }>;
  keyFactPredictions: Array<{ keyFactId: number; summaryKey: number; judge: string; covered: boolean; conveyedBy: ItemRefs }>;
  sentenceKeyFactPredictions: Array<{ unitId: number; keyFactSetId: number; judge: string; conveys: boolean }>;
  failures: Array<{ docId: string; system: string; failure: SystemFailure }>;
}

function refs(text: string): ItemRefs {
  const v = JSON.parse(text) as Partial<ItemRefs>;
  return { claims: Array.isArray(v.claims) ? v.claims : [], sentences: Array.isArray(v.sentences) ? v.sentences : [] };
}

export class AccuracyRepository {
  constructor(private readonly db: Database) {}

  documentKey(dataset: string, docId: string): number | null {
    const row = this.db.prepare('SELECT d.id FROM documents d JOIN datasets ds ON ds.id = d.dataset_id WHERE ds.name = ? AND d.doc_id = ?').get(dataset, docId) as { id: number } | undefined;
    return row?.id ?? null;
  }

  summaryKey(dataset: string, summaryId: string): number | null {
    const row = this.db.prepare('SELECT s.id FROM summaries s JOIN datasets ds ON ds.id = s.dataset_id WHERE ds.name = ? AND s.summary_id = ?').get(dataset, summaryId) as { id: number } | undefined;
    return row?.id ?? null;
  }

  summaryInfo(key: number): { key: number; dataset: string; summaryId: string; docId: string; documentKey: number; document: string | null; text: string; system: string | null } | null {
    const row = this.db
      .prepare(
        `SELECT s.id AS key, ds.name AS dataset, s.summary_id AS summaryId, d.doc_id AS docId, d.id AS documentKey, d.text AS document, s.text AS text,
                (SELECT sy.name FROM system_outputs o JOIN systems sy ON sy.id = o.system_id WHERE o.summary_id = s.id ORDER BY o.id LIMIT 1) AS system
         FROM summaries s JOIN datasets ds ON ds.id = s.dataset_id JOIN documents d ON d.id = s.document_id WHERE s.id = ?`,
      )
      .get(key) as ReturnType<AccuracyRepository['summaryInfo']> | undefined;
    return row ?? null;
  }

  documentInfo(documentKey: number): { documentKey: number; dataset: string; docId: string; text: string | null } | null {
    const row = this.db
      .prepare('SELECT d.id AS documentKey, ds.name AS dataset, d.doc_id AS docId, d.text AS text FROM documents d JOIN datasets ds ON ds.id = d.dataset_id WHERE d.id = ?')
      .get(documentKey) as ReturnType<AccuracyRepository['documentInfo']> | undefined;
    return row ?? null;
  }

  sentences(summaryKey: number): Array<{ unitId: number; index: number; text: string }> {
    return this.db.prepare('SELECT id AS unitId, idx AS "index", text FROM units WHERE summary_id = ? ORDER BY idx').all(summaryKey) as Array<{ unitId: number; index: number; text: string }>;
  }

  // --- claim sets -------------------------------------------------------------------------------

  claimSets(summaryKey: number): SetRow[] {
    return this.setsOf('claim', summaryKey);
  }

  currentClaimSet(summaryKey: number): SetRow | null {
    return this.currentSetOf('claim', summaryKey);
  }

  claimsOfSet(setId: number): ClaimRow[] {
    return this.db
      .prepare('SELECT c.id, c.set_id AS setId, c.sentence_unit_id AS sentenceUnitId, u.idx AS sentenceIndex, c.idx, c.text FROM claims c JOIN units u ON u.id = c.sentence_unit_id WHERE c.set_id = ? ORDER BY c.idx')
      .all(setId) as ClaimRow[];
  }

  claimOrigins(setId: number): Map<number, number[]> {
    return this.originsOf('claim', setId);
  }

  claimSetEvents(setId: number): number {
    return this.eventCountOf('claim', setId);
  }

  hasSetImportKey(importKey: string): boolean {
    return (
      this.db.prepare('SELECT 1 FROM claim_sets WHERE import_key = ? UNION ALL SELECT 1 FROM key_fact_sets WHERE import_key = ? LIMIT 1').get(importKey, importKey) !== undefined
    );
  }

  /** A new version of the summary's claims (version = current + 1); returns the set id. */
  insertClaimSet(summaryKey: number, set: NewSet<{ sentenceUnitId: number; text: string }>): number {
    const insert = this.db.prepare('INSERT INTO claims (set_id, sentence_unit_id, idx, text) VALUES (?, ?, ?, ?)');
    return this.insertSet('claim', summaryKey, set, (setId, item, idx) => Number(insert.run(setId, item.sentenceUnitId, idx, item.text).lastInsertRowid));
  }

  claimSummaryKey(claimId: number): number | null {
    const row = this.db.prepare('SELECT s.summary_id AS key FROM claims c JOIN claim_sets s ON s.id = c.set_id WHERE c.id = ?').get(claimId) as { key: number } | undefined;
    return row?.key ?? null;
  }

  // --- key-fact sets ----------------------------------------------------------------------------

  keyFactSets(documentKey: number): SetRow[] {
    return this.setsOf('keyFact', documentKey);
  }

  currentKeyFactSet(documentKey: number): SetRow | null {
    return this.currentSetOf('keyFact', documentKey);
  }

  keyFactsOfSet(setId: number): KeyFactRow[] {
    return this.db.prepare('SELECT id, set_id AS setId, idx, text FROM key_facts WHERE set_id = ? ORDER BY idx').all(setId) as KeyFactRow[];
  }

  keyFactOrigins(setId: number): Map<number, number[]> {
    return this.originsOf('keyFact', setId);
  }

  keyFactSetEvents(setId: number): number {
    return this.eventCountOf('keyFact', setId);
  }

  insertKeyFactSet(documentKey: number, set: NewSet<{ text: string }>): number {
    const insert = this.db.prepare('INSERT INTO key_facts (set_id, idx, text) VALUES (?, ?, ?)');
    return this.insertSet('keyFact', documentKey, set, (setId, item, idx) => Number(insert.run(setId, idx, item.text).lastInsertRowid));
  }

  keyFactDocumentKey(keyFactId: number): number | null {
    const row = this.db.prepare('SELECT s.document_id AS key FROM key_facts k JOIN key_fact_sets s ON s.id = k.set_id WHERE k.id = ?').get(keyFactId) as { key: number } | undefined;
    return row?.key ?? null;
  }

  // --- listings (claims.list, keyfacts.list): one query each over the sets' (owner, version) indexes

  /** Every summary of a dataset with the state of its claims (current version, how many), in summary order. */
  claimList(dataset: string): ClaimListRow[] {
    return this.db
      .prepare(
        `SELECT s.id AS key, s.summary_id AS summaryId, d.doc_id AS docId,
                (SELECT sy.name FROM system_outputs o JOIN systems sy ON sy.id = o.system_id WHERE o.summary_id = s.id ORDER BY o.id LIMIT 1) AS system,
                (SELECT count(*) FROM units u WHERE u.summary_id = s.id) AS sentences,
                cs.version AS currentVersion,
                (SELECT count(*) FROM claim_sets v WHERE v.summary_id = s.id) AS versions,
                (SELECT count(*) FROM claims c WHERE c.set_id = cs.id) AS items,
                cs.source, cs.decomposer AS maker
         FROM summaries s JOIN datasets ds ON ds.id = s.dataset_id JOIN documents d ON d.id = s.document_id
         LEFT JOIN claim_sets cs ON cs.summary_id = s.id AND cs.version = (SELECT max(v.version) FROM claim_sets v WHERE v.summary_id = s.id)
         WHERE ds.name = ? ORDER BY s.id`,
      )
      .all(dataset) as ClaimListRow[];
  }

  /** Every summarised document of a dataset with the state of its key facts, in order of its first summary. */
  keyFactList(dataset: string): KeyFactListRow[] {
    return this.db
      .prepare(
        `SELECT d.id AS documentKey, d.doc_id AS docId, count(s.id) AS summaries,
                ks.version AS currentVersion,
                (SELECT count(*) FROM key_fact_sets v WHERE v.document_id = d.id) AS versions,
                (SELECT count(*) FROM key_facts k WHERE k.set_id = ks.id) AS items,
                ks.source, ks.extractor AS maker
         FROM summaries s JOIN datasets ds ON ds.id = s.dataset_id JOIN documents d ON d.id = s.document_id
         LEFT JOIN key_fact_sets ks ON ks.document_id = d.id AND ks.version = (SELECT max(v.version) FROM key_fact_sets v WHERE v.document_id = d.id)
         WHERE ds.name = ? GROUP BY d.id ORDER BY min(s.id)`,
      )
      .all(dataset) as KeyFactListRow[];
  }

  // --- what claim sets and key-fact sets share: the same SQL over their own tables ---------------

  private setsOf(kind: SetKind, ownerKey: number): SetRow[] {
    const t = SET_TABLES[kind];
    return this.db
      .prepare(
        `SELECT s.id, s.version, s.source, s.${t.maker} AS maker, s.${t.maker}_version AS makerVersion, s.based_on_set_id AS basedOnSetId,
                a.name AS createdBy, s.created_at AS createdAt, s.note
         FROM ${t.sets} s LEFT JOIN annotators a ON a.id = s.created_by WHERE s.${t.owner} = ? ORDER BY s.version`,
      )
      .all(ownerKey) as SetRow[];
  }

  /** The latest version, or null before the first. */
  private currentSetOf(kind: SetKind, ownerKey: number): SetRow | null {
    const sets = this.setsOf(kind, ownerKey);
    return sets.length > 0 ? sets[sets.length - 1]! : null;
  }

  /** Each item of the set → the ids of the items (of earlier versions) it was made from. */
  private originsOf(kind: SetKind, setId: number): Map<number, number[]> {
    const t = SET_TABLES[kind];
    const rows = this.db
      .prepare(`SELECT o.${t.itemRef} AS id, o.origin_id AS origin FROM ${t.origins} o JOIN ${t.items} i ON i.id = o.${t.itemRef} WHERE i.set_id = ? ORDER BY o.origin_id`)
      .all(setId) as Array<{ id: number; origin: number }>;
    const out = new Map<number, number[]>();
    for (const r of rows) out.set(r.id, [...(out.get(r.id) ?? []), r.origin]);
    return out;
  }

  private eventCountOf(kind: SetKind, setId: number): number {
    const t = SET_TABLES[kind];
    return (this.db.prepare(`SELECT count(*) AS n FROM ${t.events} e JOIN ${t.items} i ON i.id = e.${t.itemRef} WHERE i.set_id = ?`).get(setId) as { n: number }).n;
  }

  /** A new version (current + 1) of the owner's set; `insertItem` writes one item and returns its id. Returns the set id. */
  private insertSet<Item>(kind: SetKind, ownerKey: number, set: NewSet<Item>, insertItem: (setId: number, item: Item, idx: number) => number): number {
    const t = SET_TABLES[kind];
    const version = ((this.db.prepare(`SELECT max(version) AS v FROM ${t.sets} WHERE ${t.owner} = ?`).get(ownerKey) as { v: number | null }).v ?? 0) + 1;
    const info = this.db
      .prepare(
        `INSERT INTO ${t.sets} (${t.owner}, version, source, ${t.maker}, ${t.maker}_version, based_on_set_id, created_by, note, import_key, import_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(ownerKey, version, set.source, set.maker, set.makerVersion, set.basedOnSetId, set.createdBy, set.note, set.importKey, set.importId, now());
    const setId = Number(info.lastInsertRowid);
    const origin = this.db.prepare(`INSERT OR IGNORE INTO ${t.origins} (${t.itemRef}, origin_id) VALUES (?, ?)`);
    set.items.forEach((item, idx) => {
      const id = insertItem(setId, item, idx);
      for (const from of item.from) origin.run(id, from);
    });
    return setId;
  }

  // --- label events -----------------------------------------------------------------------------

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
      .run(e.claimId, e.annotatorId, e.label, e.errorType, e.sourceErrorType ?? null, e.note, e.timeSpentMs, e.cause, now(), e.importKey ?? null, e.importId ?? null);
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
      .run(e.keyFactId, e.summaryKey, e.annotatorId, e.label, JSON.stringify(e.conveyedBy), e.note, e.timeSpentMs, e.cause, now(), e.importKey ?? null, e.importId ?? null);
    return info.changes > 0 ? Number(info.lastInsertRowid) : null;
  }

  recordSentenceKeyFact(e: { unitId: number; keyFactSetId: number; annotatorId: number; conveys: boolean; cause: string; importKey: string | null; importId: number | null }): boolean {
    const info = this.db
      .prepare('INSERT OR IGNORE INTO sentence_keyfact_events (unit_id, key_fact_set_id, annotator_id, conveys, cause, created_at, import_key, import_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(e.unitId, e.keyFactSetId, e.annotatorId, e.conveys ? 1 : 0, e.cause, now(), e.importKey, e.importId);
    return info.changes > 0;
  }

  /** One annotator's current label of each claim of a set. */
  currentClaimStates(setId: number, annotatorId: number): Map<number, { label: ClaimLabel | null; errorType: ClaimErrorType | null; note: string | null }> {
    const rows = this.db
      .prepare(
        `SELECT claim_id AS claimId, label, error_type AS errorType, note FROM (
           SELECT e.*, row_number() OVER (PARTITION BY e.claim_id ORDER BY ${currentFirst('e')}) AS rn
           FROM claim_label_events e JOIN claims c ON c.id = e.claim_id WHERE c.set_id = ? AND e.annotator_id = ?) WHERE rn = 1`,
      )
      .all(setId, annotatorId) as Array<{ claimId: number; label: ClaimLabel | null; errorType: ClaimErrorType | null; note: string | null }>;
    return new Map(rows.map((r) => [r.claimId, { label: r.label, errorType: r.errorType, note: r.note }]));
  }

  currentKeyFactStates(setId: number, summaryKey: number, annotatorId: number): Map<number, { label: KeyFactLabel | null; conveyedBy: ItemRefs; note: string | null }> {
    const rows = this.db
      .prepare(
        `SELECT key_fact_id AS keyFactId, label, conveyed_by AS conveyedBy, note FROM (
           SELECT e.*, row_number() OVER (PARTITION BY e.key_fact_id ORDER BY ${currentFirst('e')}) AS rn
           FROM key_fact_label_events e JOIN key_facts k ON k.id = e.key_fact_id WHERE k.set_id = ? AND e.summary_id = ? AND e.annotator_id = ?) WHERE rn = 1`,
      )
      .all(setId, summaryKey, annotatorId) as Array<{ keyFactId: number; label: KeyFactLabel | null; conveyedBy: string; note: string | null }>;
    return new Map(rows.map((r) => [r.keyFactId, { label: r.label, conveyedBy: refs(r.conveyedBy), note: r.note }]));
  }

  // --- judge outputs ----------------------------------------------------------------------------

  saveClaimPrediction(p: { claimId: number; judgeId: number; configHash: string; supported: boolean; errorType: ClaimErrorType | null; sourceErrorType: string | null; raw: string | null; source: 'run' | 'import'; importId: number | null }): boolean {
    const info = this.db
      .prepare(
        `INSERT OR IGNORE INTO claim_predictions (claim_id, judge_id, config_hash, supported, error_type, source_error_type, raw, source, import_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(p.claimId, p.judgeId, p.configHash, p.supported ? 1 : 0, p.supported ? null : p.errorType, p.sourceErrorType, p.raw, p.source, p.importId, now());
    return info.changes > 0;
  }

  saveKeyFactPrediction(p: { keyFactId: number; summaryKey: number; judgeId: number; configHash: string; covered: boolean; conveyedBy: ItemRefs; raw: string | null; source: 'run' | 'import'; importId: number | null }): boolean {
    const info = this.db
      .prepare(
        `INSERT OR IGNORE INTO key_fact_predictions (key_fact_id, summary_id, judge_id, config_hash, covered, conveyed_by, raw, source, import_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(p.keyFactId, p.summaryKey, p.judgeId, p.configHash, p.covered ? 1 : 0, JSON.stringify(p.conveyedBy), p.raw, p.source, p.importId, now());
    return info.changes > 0;
  }

  saveSentenceKeyFactPrediction(p: { unitId: number; keyFactSetId: number; judgeId: number; configHash: string; conveys: boolean; source: 'run' | 'import'; importId: number | null }): boolean {
    const info = this.db
      .prepare('INSERT OR IGNORE INTO sentence_keyfact_predictions (unit_id, key_fact_set_id, judge_id, config_hash, conveys, source, import_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(p.unitId, p.keyFactSetId, p.judgeId, p.configHash, p.conveys ? 1 : 0, p.source, p.importId, now());
    return info.changes > 0;
  }

  // --- systems ----------------------------------------------------------------------------------

  ensureSystem(name: string, kind: 'endpoint' | 'imported', config: string | null, configHash: string): number {
    const existing = this.db.prepare('SELECT id FROM systems WHERE name = ?').get(name) as { id: number } | undefined;
    if (existing) {
      this.db.prepare('UPDATE systems SET config = coalesce(?, config), config_hash = ?, updated_at = ? WHERE id = ?').run(config, configHash, now(), existing.id);
      return existing.id;
    }
    return Number(this.db.prepare('INSERT INTO systems (name, kind, config, config_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(name, kind, config, configHash, now(), now()).lastInsertRowid);
  }

  systemByName(name: string): { id: number; name: string; kind: 'endpoint' | 'imported'; config: string | null; configHash: string; updatedAt: string } | null {
    const row = this.db.prepare('SELECT id, name, kind, config, config_hash AS configHash, updated_at AS updatedAt FROM systems WHERE name = ?').get(name) as ReturnType<AccuracyRepository['systemByName']> | undefined;
    return row ?? null;
  }

  listSystems(): Array<{ id: number; name: string; kind: 'endpoint' | 'imported'; config: string | null; configHash: string; updatedAt: string; ok: number; failed: number; failures: Array<{ kind: SystemFailure; count: number }> }> {
    const systems = this.db.prepare('SELECT id, name, kind, config, config_hash AS configHash, updated_at AS updatedAt FROM systems ORDER BY name').all() as Array<{ id: number; name: string; kind: 'endpoint' | 'imported'; config: string | null; configHash: string; updatedAt: string }>;
    const counts = this.db.prepare('SELECT system_id AS id, failure, count(*) AS n FROM system_outputs GROUP BY system_id, failure').all() as Array<{ id: number; failure: SystemFailure | null; n: number }>;
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

  /** A system's output for a document: replaces an earlier failure (a retry that succeeded), never a stored summary. */
  recordSystemOutput(o: { systemId: number; documentKey: number; configHash: string; summaryKey: number | null; failure: SystemFailure | null; failureMessage: string | null }): boolean {
    const existing = this.db.prepare('SELECT id, summary_id AS summaryKey FROM system_outputs WHERE system_id = ? AND document_id = ?').get(o.systemId, o.documentKey) as { id: number; summaryKey: number | null } | undefined;
    if (existing && existing.summaryKey !== null) return false;
    if (existing) this.db.prepare('DELETE FROM system_outputs WHERE id = ?').run(existing.id);
    this.db
      .prepare('INSERT INTO system_outputs (system_id, document_id, config_hash, summary_id, failure, failure_message, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(o.systemId, o.documentKey, o.configHash, o.summaryKey, o.failure, o.failureMessage, now());
    return true;
  }

  // --- task selections (accuracy.* runs) ---------------------------------------------------------

  /** Summaries of a selection, in a stable order (document, then summary). */
  selectSummaries(dataset: string | null, onlySampled: boolean): Array<{ key: number; summaryId: string; dataset: string; documentKey: number; docId: string; hasDocument: boolean }> {
    const rows = this.db
      .prepare(
        `SELECT s.id AS key, s.summary_id AS summaryId, ds.name AS dataset, d.id AS documentKey, d.doc_id AS docId, d.text IS NOT NULL AS hasDocument
         FROM summaries s JOIN datasets ds ON ds.id = s.dataset_id JOIN documents d ON d.id = s.document_id
         WHERE (? IS NULL OR ds.name = ?) AND (? = 0 OR EXISTS (SELECT 1 FROM sample_items i WHERE i.summary_id = s.id))
         ORDER BY d.id, s.id`,
      )
      .all(dataset, dataset, onlySampled ? 1 : 0) as Array<{ key: number; summaryId: string; dataset: string; documentKey: number; docId: string; hasDocument: number }>;
    return rows.map((r) => ({ ...r, hasDocument: r.hasDocument === 1 }));
  }

  /** Documents of a dataset (every document, summarised or not: what a system under test is asked about). */
  selectDocuments(dataset: string): Array<{ documentKey: number; docId: string; dataset: string; hasText: boolean }> {
    const rows = this.db
      .prepare(
        `SELECT d.id AS documentKey, d.doc_id AS docId, ds.name AS dataset, d.text IS NOT NULL AS hasText
         FROM documents d JOIN datasets ds ON ds.id = d.dataset_id WHERE ds.name = ? ORDER BY d.id`,
      )
      .all(dataset) as Array<{ documentKey: number; docId: string; dataset: string; hasText: number }>;
    return rows.map((r) => ({ ...r, hasText: r.hasText === 1 }));
  }

  /** A system's stored output for a document (a summary or a failure), if any. */
  systemOutput(systemId: number, documentKey: number): { summaryKey: number | null; failure: SystemFailure | null } | null {
    const row = this.db.prepare('SELECT summary_id AS summaryKey, failure FROM system_outputs WHERE system_id = ? AND document_id = ?').get(systemId, documentKey) as
      | { summaryKey: number | null; failure: SystemFailure | null }
      | undefined;
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
    const doc = this.db.prepare('SELECT dataset_id AS datasetId FROM documents WHERE id = ?').get(s.documentKey) as { datasetId: number };
    const key = Number(
      this.db
        .prepare('INSERT INTO summaries (dataset_id, document_id, summary_id, text, global_label, meta, import_id) VALUES (?, ?, ?, ?, NULL, ?, NULL)')
        .run(doc.datasetId, s.documentKey, s.summaryId, s.text, JSON.stringify(s.meta)).lastInsertRowid,
    );
    const insertUnit = this.db.prepare('INSERT INTO units (summary_id, idx, text, start, end, fragment, splitter, splitter_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    for (const u of s.units) insertUnit.run(key, u.idx, u.text, u.start, u.end, u.fragment ? 1 : 0, s.splitter.name, s.splitter.version);
    return key;
  }

  summaryIdTaken(documentKey: number, summaryId: string): boolean {
    return this.db.prepare('SELECT 1 FROM summaries s JOIN documents d ON d.dataset_id = s.dataset_id WHERE d.id = ? AND s.summary_id = ?').get(documentKey, summaryId) !== undefined;
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

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  // --- analysis input ---------------------------------------------------------------------------

  datasetRows(dataset: string): AccuracyDatasetRows {
    const summaries = this.db
      .prepare(
        `SELECT s.id AS key, s.summary_id AS summaryId, d.doc_id AS docId, d.id AS documentKey,
                (SELECT sy.name FROM system_outputs o JOIN systems sy ON sy.id = o.system_id WHERE o.summary_id = s.id ORDER BY o.id LIMIT 1) AS system
         FROM summaries s JOIN datasets ds ON ds.id = s.dataset_id JOIN documents d ON d.id = s.document_id WHERE ds.name = ? ORDER BY s.id`,
      )
      .all(dataset) as Array<{ key: number; summaryId: string; docId: string; documentKey: number; system: string | null }>;
    const units = this.db
      .prepare('SELECT u.summary_id AS key, u.id AS unitId, u.idx AS "index", u.text FROM units u JOIN summaries s ON s.id = u.summary_id JOIN datasets ds ON ds.id = s.dataset_id WHERE ds.name = ? ORDER BY u.summary_id, u.idx')
      .all(dataset) as Array<{ key: number; unitId: number; index: number; text: string }>;
    const unitsBy = new Map<number, Array<{ unitId: number; index: number; text: string }>>();
    for (const u of units) unitsBy.set(u.key, [...(unitsBy.get(u.key) ?? []), { unitId: u.unitId, index: u.index, text: u.text }]);

    const claims = new Map<number, ClaimRow[]>();
    const keyFacts = new Map<number, { setId: number; facts: KeyFactRow[] }>();
    for (const s of summaries) {
      const set = this.currentClaimSet(s.key);
      if (set) claims.set(s.key, this.claimsOfSet(set.id));
      if (!keyFacts.has(s.documentKey)) {
        const kset = this.currentKeyFactSet(s.documentKey);
        if (kset) keyFacts.set(s.documentKey, { setId: kset.id, facts: this.keyFactsOfSet(kset.id) });
      }
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
