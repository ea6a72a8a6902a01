/**
 * SQL for merging annotators' copies of a project (teams without a server): reading
 * another project file (read-only, never changed, schema 1 to this version's) and writing the
 * events it brings into the open project. Plain values in and out.
 *
 * How an event is recognised (idempotence): by its content, the tuple of `eventIdentity`:
 * dataset, summary id and sentence index of its unit, annotator name, phase, label, error type,
 * note, time spent, cause and created_at (milliseconds). An imported label is also recognised
 * by its import key (the same line of the same labels file imported into both projects). Ids
 * cannot do this: a project copied as a file keeps its project id, so two copies number their
 * new events alike; and merged events get new ids. Content identity makes merging idempotent
 * (twice changes nothing), order-free (A→B, B→C, A→C) and recognises the project's own events
 * coming back from a copy. Two events with the same content are the same event.
 *
 * Identities and blindness (schema 7): a merged event keeps its `blind` flag, a new annotator the
 * kind it has in the file, and the file's reveals come along (the earliest per annotator and
 * summary stays). A label made in Loupe (not an import) under a name that is an imported label set
 * here is a problem: the file merges nothing.
 *
 * Provenance kept on a merged event: `origin_project` / `origin_event` (where it was first
 * recorded: an event the other project had itself merged keeps its original origin) and
 * `merge_id` (the `merges` row: when, from which file, what it added). Schema 4.
 *
 * Scaffolds (schema 9): versions are recognised by (dataset, doc id) and their items' content
 * (`scaffoldIdentity`), people's alignment events by `alignmentIdentity`, their note included
 * (schema 13; a note on an item without a value is an event too); a merged alignment keeps its
 * note, origin and merge id as label events do (schema 11).
 *
 * Claims and key facts (schema 8): people's claim labels, key-fact labels and sentence–key-fact
 * events, with their notes, are recognised by content (`itemEventIdentity`); their claim or
 * key-fact set by its summary or document and its items' text (`claimSetIdentity`,
 * `keyFactSetIdentity`), never by version or id. `conveyed_by` travels as (claim set, index) and
 * sentence indexes. They keep their origin and merge id (schema 11).
 */
import type { Database, DatabaseConstructor } from './open';
import { SCHEMA_VERSION } from './migrations';
import type { ErrorType, HumanLabel, Phase } from '../shared/domain';
import type { AnnotatorKind } from './annotatorKind';
import type { VersionRow } from './versionRow';
import type { AlignmentValue, ScaffoldItemKind, Tier } from '../shared/scaffold/domain';
import type { ClaimErrorType, ClaimLabel, KeyFactLabel } from '../shared/accuracy/domain';
import { SetRepository } from './setRepository';

const APPLICATION_ID = 0x4c4f5550;

export class OtherProjectError extends Error {}

/** One label event as both sides read it (names, not row ids, for unit and annotator). */
export interface PortableEvent {
  /** The event's id in the project it was read from. */
  id: number;
  dataset: string;
  summaryId: string;
  unitIndex: number;
  annotator: string;
  phase: Phase;
  label: HumanLabel | null;
  errorType: ErrorType | null;
  note: string | null;
  timeSpentMs: number | null;
  cause: string;
  createdAt: string;
  importKey: string | null;
  originProject: string | null;
  originEvent: number | null;
  /** Review-phase events recorded from a queue (schema 3): the queue and its judge panel (JSON). */
  queue: string | null;
  judges: string | null;
  /** The annotator's kind in the file (schema 7; older files: imported when all its events are). */
  annotatorKind: AnnotatorKind;
  /** False: given after the annotator revealed the summary (schema 7; older files: true). Not part of the identity. */
  blind: boolean;
}

/** A reveal as both sides read it (schema 7): which annotator saw a summary's judge outputs, from which view, when. */
export interface PortableReveal {
  dataset: string;
  summaryId: string;
  annotator: string;
  view: string;
  createdAt: string;
}

export interface PortableSummary {
  dataset: string;
  summaryId: string;
  unitTexts: string[];
}

/** The content identity of an event (see the file comment). */
export function eventIdentity(e: PortableEvent): string {
  return JSON.stringify([
    e.dataset,
    e.summaryId,
    e.unitIndex,
    e.annotator,
    e.phase,
    e.label,
    e.errorType,
    e.note,
    e.timeSpentMs,
    e.cause,
    e.createdAt,
  ]);
}

/** The key of a summary across projects. */
export const summaryIdentity = (dataset: string, summaryId: string): string => `${dataset}\u0000${summaryId}`;

/** One item of a scaffold version (schema 9) as both sides read it; `fromKey`: the (kind, key) of the item it came from in the base version. */
export interface PortableScaffoldItem {
  id: number;
  kind: ScaffoldItemKind;
  key: string;
  text: string;
  tier: Tier | null;
  answer: string | null;
  entity: string | null;
  fromKey: string | null;
}

/** A scaffold version with its items in order (facts, questions, attributes; each by index). */
export interface PortableScaffold extends VersionRow {
  dataset: string;
  docId: string;
  items: PortableScaffoldItem[];
}

/** A person's alignment event (schema 9, annotator of kind person), by names and item keys. */
export interface PortableAlignment {
  id: number;
  dataset: string;
  summaryId: string;
  scaffoldId: number;
  itemKind: ScaffoldItemKind;
  itemKey: string;
  annotator: string;
  value: AlignmentValue | null;
  /** The stored JSON array of sentence indexes, as stored. */
  sentences: string;
  /** The person's note on the item (schema 13; NULL before it). */
  note: string | null;
  timeSpentMs: number | null;
  cause: string;
  createdAt: string;
  blind: boolean;
  importKey: string | null;
  /** Schema 11: where the event was first recorded (NULL: in the file itself). */
  originProject: string | null;
  originEvent: number | null;
}

/** A person's event on a claim or key fact (schema 8), by names and set identities; `kind` says which table. */
export type PortableItemEvent =
  | (ItemEventBase & {
      kind: 'claim';
      label: ClaimLabel | null;
      errorType: ClaimErrorType | null;
      sourceErrorType: string | null;
      note: string | null;
      timeSpentMs: number | null;
      blind: boolean;
    })
  | (ItemEventBase & {
      kind: 'key_fact';
      label: KeyFactLabel | null;
      conveyedBy: PortableRefs;
      note: string | null;
      timeSpentMs: number | null;
      blind: boolean;
    })
  | (ItemEventBase & { kind: 'sentence_keyfact'; conveys: 0 | 1 | null });

interface ItemEventBase {
  id: number;
  dataset: string;
  summaryId: string;
  /** The claim set (claims) or key-fact set (key facts, sentence events) the item belongs to. */
  setIdentity: string;
  /** The claim's or key fact's index in its set; a sentence event's sentence index. */
  index: number;
  annotator: string;
  cause: string;
  createdAt: string;
  originProject: string | null;
  originEvent: number | null;
}

/** `conveyed_by` across projects: claims as [claim set identity, index], sentences by index. */
export interface PortableRefs {
  claims: Array<[string, number]>;
  sentences: number[];
}

/** The content identity of a claim or key-fact event (its set's identity and index, never ids). */
export function itemEventIdentity(e: PortableItemEvent): string {
  const common = [e.kind, e.dataset, e.summaryId, e.setIdentity, e.index, e.annotator, e.cause, e.createdAt];
  if (e.kind === 'claim')
    return JSON.stringify([...common, e.label, e.errorType, e.sourceErrorType, e.note, e.timeSpentMs]);
  if (e.kind === 'key_fact') return JSON.stringify([...common, e.label, e.conveyedBy, e.note, e.timeSpentMs]);
  return JSON.stringify([...common, e.conveys]);
}

/** A claim set across projects: its summary and its claims (sentence index, text) in order. */
export const claimSetIdentity = (dataset: string, summaryId: string, claims: ReadonlyArray<[number, string]>): string =>
  JSON.stringify(['claims', dataset, summaryId, claims]);
/** A key-fact set across projects: its document and its facts in order. */
export const keyFactSetIdentity = (dataset: string, docId: string, facts: readonly string[]): string =>
  JSON.stringify(['key_facts', dataset, docId, facts]);

/** The key of an item within its version. */
export const itemIdentity = (kind: ScaffoldItemKind, key: string): string => `${kind}\u0000${key}`;

/**
 * A scaffold version across projects: its document and its items' content in order. Version
 * numbers and ids are not part of it (two copies number their edits alike); two versions with the
 * same items are the same version.
 */
export function scaffoldIdentity(s: PortableScaffold): string {
  return JSON.stringify([s.dataset, s.docId, s.items.map((i) => [i.kind, i.key, i.text, i.tier, i.answer, i.entity])]);
}

/** The content identity of a person's alignment event, given the identity of the version it rests on. */
export function alignmentIdentity(a: PortableAlignment, onScaffold: string): string {
  return JSON.stringify([
    a.dataset,
    a.summaryId,
    onScaffold,
    a.itemKind,
    a.itemKey,
    a.annotator,
    a.value,
    a.sentences,
    a.note,
    a.timeSpentMs,
    a.cause,
    a.createdAt,
  ]);
}

function hasColumn(db: Database, table: string, column: string): boolean {
  return (db.prepare(`SELECT 1 FROM pragma_table_info(?) WHERE name = ?`).get(table, column) ?? null) !== null;
}

function hasTable(db: Database, table: string): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table) !== undefined;
}

/** Events of a project, with names, in history order; columns a schema lacks read as NULL. */
function readEvents(db: Database): PortableEvent[] {
  const origin = hasColumn(db, 'label_events', 'origin_project');
  const review = hasTable(db, 'review_events');
  const kinds = hasColumn(db, 'annotators', 'kind');
  // Before schema 7 the kind is what migration 007 would make of it.
  const kind = kinds
    ? 'a.kind'
    : `CASE WHEN NOT EXISTS (SELECT 1 FROM label_events x WHERE x.annotator_id = a.id AND x.cause <> 'import') THEN 'imported' ELSE 'person' END`;
  const blind = hasColumn(db, 'label_events', 'blind') ? 'e.blind' : '1';
  const rows = db
    .prepare(
      `SELECT e.id, d.name AS dataset, s.summary_id AS summaryId, u.idx AS unitIndex, a.name AS annotator, e.phase, e.label,
              e.error_type AS errorType, e.note, e.time_spent_ms AS timeSpentMs, e.cause, e.created_at AS createdAt,
              e.import_key AS importKey,
              ${origin ? 'e.origin_project' : 'NULL'} AS originProject, ${origin ? 'e.origin_event' : 'NULL'} AS originEvent,
              ${review ? 'r.queue' : 'NULL'} AS queue, ${review ? 'r.judges' : 'NULL'} AS judges,
              ${kind} AS annotatorKind, ${blind} AS blind
       FROM label_events e JOIN units u ON u.id = e.unit_id JOIN summaries s ON s.id = u.summary_id
       JOIN datasets d ON d.id = s.dataset_id JOIN annotators a ON a.id = e.annotator_id
       ${review ? 'LEFT JOIN review_events r ON r.event_id = e.id' : ''}
       ORDER BY e.created_at, e.id`,
    )
    .all() as Array<Omit<PortableEvent, 'blind'> & { blind: number }>;
  return rows.map((r) => ({ ...r, blind: r.blind === 1 }));
}

function readReveals(db: Database): PortableReveal[] {
  if (!hasTable(db, 'reveals')) return [];
  return db
    .prepare(
      `SELECT d.name AS dataset, s.summary_id AS summaryId, a.name AS annotator, r.view, r.created_at AS createdAt
       FROM reveals r JOIN summaries s ON s.id = r.summary_id JOIN datasets d ON d.id = s.dataset_id JOIN annotators a ON a.id = r.annotator_id
       ORDER BY r.created_at`,
    )
    .all() as PortableReveal[];
}

function readSummaries(db: Database): PortableSummary[] {
  const rows = db
    .prepare(
      `SELECT d.name AS dataset, s.summary_id AS summaryId,
              (SELECT json_group_array(x.text) FROM (SELECT text FROM units WHERE summary_id = s.id ORDER BY idx) x) AS unitTexts
       FROM summaries s JOIN datasets d ON d.id = s.dataset_id ORDER BY d.name, s.summary_id`,
    )
    .all() as Array<{ dataset: string; summaryId: string; unitTexts: string }>;
  return rows.map((r) => ({ ...r, unitTexts: JSON.parse(r.unitTexts) as string[] }));
}

/** Every scaffold version of a project (schema 9; older files have none), in id order (a base before its edits). */
function readScaffolds(db: Database): PortableScaffold[] {
  if (!hasTable(db, 'scaffolds')) return [];
  const scaffolds = db
    .prepare(
      `SELECT sc.id, d.name AS dataset, doc.doc_id AS docId, sc.version, sc.source, sc.extractor AS maker, sc.extractor_version AS makerVersion,
              sc.based_on_id AS basedOnId, a.name AS createdBy, sc.note, sc.created_at AS createdAt
       FROM scaffolds sc JOIN documents doc ON doc.id = sc.document_id JOIN datasets d ON d.id = doc.dataset_id
       LEFT JOIN annotators a ON a.id = sc.created_by ORDER BY sc.id`,
    )
    .all() as Array<Omit<PortableScaffold, 'items'>>;
  const items = db
    .prepare(
      `SELECT i.scaffold_id AS scaffoldId, i.id, i.kind, i.item_key AS key, i.text, i.tier, i.answer, i.entity,
              f.kind AS fromKind, f.item_key AS fromItemKey
       FROM scaffold_items i LEFT JOIN scaffold_items f ON f.id = i.from_item_id
       ORDER BY i.scaffold_id, CASE i.kind WHEN 'fact' THEN 0 WHEN 'question' THEN 1 ELSE 2 END, i.idx`,
    )
    .all() as Array<
    Omit<PortableScaffoldItem, 'fromKey'> & {
      scaffoldId: number;
      fromKind: ScaffoldItemKind | null;
      fromItemKey: string | null;
    }
  >;
  const byScaffold = new Map<number, PortableScaffoldItem[]>();
  for (const { scaffoldId, fromKind, fromItemKey, ...item } of items) {
    let list = byScaffold.get(scaffoldId);
    if (!list) byScaffold.set(scaffoldId, (list = []));
    list.push({
      ...item,
      fromKey: fromKind === null || fromItemKey === null ? null : itemIdentity(fromKind, fromItemKey),
    });
  }
  return scaffolds.map((s) => ({ ...s, items: byScaffold.get(s.id) ?? [] }));
}

/** People's alignment events (annotators of kind person; judges' and imported label sets' are not merged), in history order. */
function readPersonAlignments(db: Database): PortableAlignment[] {
  if (!hasTable(db, 'scaffold_alignment_events')) return [];
  const origin = hasColumn(db, 'scaffold_alignment_events', 'origin_project');
  const note = hasColumn(db, 'scaffold_alignment_events', 'note');
  const rows = db
    .prepare(
      `SELECT e.id, d.name AS dataset, s.summary_id AS summaryId, i.scaffold_id AS scaffoldId, i.kind AS itemKind, i.item_key AS itemKey,
              a.name AS annotator, e.value, e.sentences, ${note ? 'e.note' : 'NULL'} AS note, e.time_spent_ms AS timeSpentMs, e.cause, e.created_at AS createdAt, e.blind,
              e.import_key AS importKey, ${origin ? 'e.origin_project' : 'NULL'} AS originProject, ${origin ? 'e.origin_event' : 'NULL'} AS originEvent
       FROM scaffold_alignment_events e JOIN annotators a ON a.id = e.annotator_id JOIN scaffold_items i ON i.id = e.item_id
       JOIN summaries s ON s.id = e.summary_id JOIN datasets d ON d.id = s.dataset_id
       WHERE a.kind = 'person' ORDER BY e.created_at, e.id`,
    )
    .all() as Array<Omit<PortableAlignment, 'blind'> & { blind: number }>;
  return rows.map((r) => ({ ...r, blind: r.blind === 1 }));
}

/** Where the claims and key facts of a project sit in their sets, by set identity (schema 8; empty before). */
export interface ItemSets {
  claimSets: Map<number, string>;
  /** Claim id → [its set's identity, its index]. */
  claims: Map<number, [string, number]>;
  keyFactSets: Map<number, string>;
  keyFacts: Map<number, [string, number]>;
  /** Unit id → its sentence index. */
  unitIndex: Map<number, number>;
}

function readItemSets(db: Database): ItemSets {
  const sets: ItemSets = {
    claimSets: new Map(),
    claims: new Map(),
    keyFactSets: new Map(),
    keyFacts: new Map(),
    unitIndex: new Map(),
  };
  if (!hasTable(db, 'claim_sets')) return sets;
  for (const [id, idx] of db.prepare('SELECT id, idx FROM units').raw().all() as Array<[number, number]>)
    sets.unitIndex.set(id, idx);
  const claims = db
    .prepare(
      `SELECT cs.id AS setId, d.name AS dataset, s.summary_id AS summaryId, c.id, c.idx, u.idx AS sentence, c.text
       FROM claim_sets cs JOIN summaries s ON s.id = cs.summary_id JOIN datasets d ON d.id = s.dataset_id
       JOIN claims c ON c.set_id = cs.id JOIN units u ON u.id = c.sentence_unit_id ORDER BY cs.id, c.idx`,
    )
    .all() as Array<{
    setId: number;
    dataset: string;
    summaryId: string;
    id: number;
    idx: number;
    sentence: number;
    text: string;
  }>;
  const facts = db
    .prepare(
      `SELECT ks.id AS setId, d.name AS dataset, doc.doc_id AS docId, k.id, k.idx, k.text
       FROM key_fact_sets ks JOIN documents doc ON doc.id = ks.document_id JOIN datasets d ON d.id = doc.dataset_id
       JOIN key_facts k ON k.set_id = ks.id ORDER BY ks.id, k.idx`,
    )
    .all() as Array<{ setId: number; dataset: string; docId: string; id: number; idx: number; text: string }>;
  const group = <T extends { setId: number }>(rows: T[]) => {
    const bySet = new Map<number, T[]>();
    for (const r of rows) bySet.set(r.setId, [...(bySet.get(r.setId) ?? []), r]);
    return bySet;
  };
  for (const [setId, rows] of group(claims)) {
    const identity = claimSetIdentity(
      rows[0]!.dataset,
      rows[0]!.summaryId,
      rows.map((r) => [r.sentence, r.text]),
    );
    sets.claimSets.set(setId, identity);
    for (const r of rows) sets.claims.set(r.id, [identity, r.idx]);
  }
  for (const [setId, rows] of group(facts)) {
    const identity = keyFactSetIdentity(
      rows[0]!.dataset,
      rows[0]!.docId,
      rows.map((r) => r.text),
    );
    sets.keyFactSets.set(setId, identity);
    for (const r of rows) sets.keyFacts.set(r.id, [identity, r.idx]);
  }
  return sets;
}

/** A claim set or key-fact list a person made (source person), by identities: what a merge can add as the owner's next version. */
export interface PortablePersonSet {
  kind: 'claim' | 'key_fact';
  id: number;
  dataset: string;
  /** The summary (claim sets) or document (key-fact lists) it belongs to. */
  owner: string;
  identity: string;
  baseIdentity: string | null;
  maker: string;
  makerVersion: string;
  createdBy: string | null;
  note: string | null;
  /** In order: a claim's sentence index (null for key facts), its text, and the indexes in the base set it came from. */
  items: Array<{ sentence: number | null; text: string; from: number[] }>;
}

function readPersonSets(db: Database, sets: ItemSets): PortablePersonSet[] {
  if (!hasTable(db, 'claim_sets')) return [];
  const out: PortablePersonSet[] = [];
  for (const kind of ['claim', 'key_fact'] as const) {
    const t =
      kind === 'claim'
        ? { sets: 'claim_sets', maker: 'decomposer', items: 'claims', origins: 'claim_origins', ref: 'claim_id' }
        : {
            sets: 'key_fact_sets',
            maker: 'extractor',
            items: 'key_facts',
            origins: 'key_fact_origins',
            ref: 'key_fact_id',
          };
    const identities = kind === 'claim' ? sets.claimSets : sets.keyFactSets;
    const itemsAt = kind === 'claim' ? sets.claims : sets.keyFacts;
    const rows = db
      .prepare(
        `SELECT x.id, x.based_on_set_id AS basedOnId, x.${t.maker} AS maker, x.${t.maker}_version AS makerVersion, a.name AS createdBy, x.note
         FROM ${t.sets} x LEFT JOIN annotators a ON a.id = x.created_by WHERE x.source = 'person' ORDER BY x.id`,
      )
      .all() as Array<{
      id: number;
      basedOnId: number | null;
      maker: string;
      makerVersion: string;
      createdBy: string | null;
      note: string | null;
    }>;
    for (const r of rows) {
      const identity = identities.get(r.id);
      if (identity === undefined) continue;
      const [, dataset, owner, content] = JSON.parse(identity) as [
        string,
        string,
        string,
        Array<[number, string]> | string[],
      ];
      const ids = db.prepare(`SELECT id FROM ${t.items} WHERE set_id = ? ORDER BY idx`).pluck().all(r.id) as number[];
      const origins = db.prepare(`SELECT o.origin_id FROM ${t.origins} o WHERE o.${t.ref} = ?`).pluck();
      out.push({
        kind,
        id: r.id,
        dataset,
        owner,
        identity,
        baseIdentity: r.basedOnId === null ? null : (identities.get(r.basedOnId) ?? null),
        maker: r.maker,
        makerVersion: r.makerVersion,
        createdBy: r.createdBy,
        note: r.note,
        items: content.map((item, i) => ({
          sentence: Array.isArray(item) ? item[0] : null,
          text: Array.isArray(item) ? item[1] : item,
          from: (origins.all(ids[i]) as number[]).flatMap((o) => (itemsAt.has(o) ? [itemsAt.get(o)![1]] : [])),
        })),
      });
    }
  }
  return out;
}

/** People's events on claims and key facts (annotators of kind person; imported label sets are imported, not merged), in history order. */
function readPersonItemEvents(db: Database, sets: ItemSets): PortableItemEvent[] {
  if (!hasTable(db, 'claim_label_events')) return [];
  const origin = (table: string) =>
    hasColumn(db, table, 'origin_project')
      ? 'e.origin_project AS originProject, e.origin_event AS originEvent'
      : 'NULL AS originProject, NULL AS originEvent';
  type Row = {
    id: number;
    dataset: string;
    summaryId: string;
    annotator: string;
    cause: string;
    createdAt: string;
    originProject: string | null;
    originEvent: number | null;
  };
  const claims = db
    .prepare(
      `SELECT e.id, d.name AS dataset, s.summary_id AS summaryId, e.claim_id AS claimId, a.name AS annotator, e.label, e.error_type AS errorType,
              e.source_error_type AS sourceErrorType, e.note, e.time_spent_ms AS timeSpentMs, e.cause, e.created_at AS createdAt, e.blind, ${origin('claim_label_events')}
       FROM claim_label_events e JOIN annotators a ON a.id = e.annotator_id JOIN claims c ON c.id = e.claim_id JOIN claim_sets cs ON cs.id = c.set_id
       JOIN summaries s ON s.id = cs.summary_id JOIN datasets d ON d.id = s.dataset_id WHERE a.kind = 'person'`,
    )
    .all() as Array<
    Row & {
      claimId: number;
      label: ClaimLabel | null;
      errorType: ClaimErrorType | null;
      sourceErrorType: string | null;
      note: string | null;
      timeSpentMs: number | null;
      blind: number;
    }
  >;
  const facts = db
    .prepare(
      `SELECT e.id, d.name AS dataset, s.summary_id AS summaryId, e.key_fact_id AS keyFactId, a.name AS annotator, e.label, e.conveyed_by AS conveyedBy,
              e.note, e.time_spent_ms AS timeSpentMs, e.cause, e.created_at AS createdAt, e.blind, ${origin('key_fact_label_events')}
       FROM key_fact_label_events e JOIN annotators a ON a.id = e.annotator_id JOIN summaries s ON s.id = e.summary_id JOIN datasets d ON d.id = s.dataset_id
       WHERE a.kind = 'person'`,
    )
    .all() as Array<
    Row & {
      keyFactId: number;
      label: KeyFactLabel | null;
      conveyedBy: string;
      note: string | null;
      timeSpentMs: number | null;
      blind: number;
    }
  >;
  const sentences = db
    .prepare(
      `SELECT e.id, d.name AS dataset, s.summary_id AS summaryId, e.unit_id AS unitId, e.key_fact_set_id AS setId, a.name AS annotator, e.conveys,
              e.cause, e.created_at AS createdAt, ${origin('sentence_keyfact_events')}
       FROM sentence_keyfact_events e JOIN annotators a ON a.id = e.annotator_id JOIN units u ON u.id = e.unit_id JOIN summaries s ON s.id = u.summary_id
       JOIN datasets d ON d.id = s.dataset_id WHERE a.kind = 'person'`,
    )
    .all() as Array<Row & { unitId: number; setId: number; conveys: 0 | 1 | null }>;
  const events: PortableItemEvent[] = [];
  for (const { claimId, blind, ...r } of claims) {
    const [setIdentity, index] = sets.claims.get(claimId)!;
    events.push({ ...r, kind: 'claim', setIdentity, index, blind: blind === 1 });
  }
  for (const { keyFactId, blind, conveyedBy, ...r } of facts) {
    const [setIdentity, index] = sets.keyFacts.get(keyFactId)!;
    const refs = JSON.parse(conveyedBy) as { claims?: number[]; sentences?: number[] };
    const portable: PortableRefs = {
      claims: (refs.claims ?? []).flatMap((id) => (sets.claims.has(id) ? [sets.claims.get(id)!] : [])),
      sentences: (refs.sentences ?? []).flatMap((id) => (sets.unitIndex.has(id) ? [sets.unitIndex.get(id)!] : [])),
    };
    events.push({ ...r, kind: 'key_fact', setIdentity, index, conveyedBy: portable, blind: blind === 1 });
  }
  for (const { unitId, setId, ...r } of sentences) {
    events.push({
      ...r,
      kind: 'sentence_keyfact',
      setIdentity: sets.keyFactSets.get(setId)!,
      index: sets.unitIndex.get(unitId)!,
    });
  }
  return events.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id));
}

function itemsOf(db: Database): Pick<OtherProjectContents, 'itemEvents' | 'personSets'> {
  const sets = readItemSets(db);
  return { itemEvents: readPersonItemEvents(db, sets), personSets: readPersonSets(db, sets) };
}

/** Everything a merge needs from another project file, read in one snapshot; the file is never written. */
export interface OtherProjectContents {
  projectId: string | null;
  schemaVersion: number;
  summaries: PortableSummary[];
  events: PortableEvent[];
  reveals: PortableReveal[];
  /** Schema 9: every scaffold version, and people's alignment events (empty before schema 9). */
  scaffolds: PortableScaffold[];
  alignments: PortableAlignment[];
  /** Schema 8: people's claim and key-fact events, and the sets people made (empty before schema 8). */
  itemEvents: PortableItemEvent[];
  personSets: PortablePersonSet[];
}

export function readOtherProject(Driver: DatabaseConstructor, path: string): OtherProjectContents {
  let db: Database;
  try {
    db = new Driver(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new OtherProjectError(`cannot open ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    db.pragma('busy_timeout = 5000');
    let appId: number;
    let version: number;
    try {
      appId = db.pragma('application_id', { simple: true }) as number;
      version = db.pragma('user_version', { simple: true }) as number;
    } catch {
      throw new OtherProjectError(`${path} is not a Loupe project (not an SQLite file)`);
    }
    if (appId !== APPLICATION_ID) throw new OtherProjectError(`${path} is not a Loupe project`);
    if (version > SCHEMA_VERSION)
      throw new OtherProjectError(
        `${path} was written by a newer Loupe (schema ${version}; this version knows up to ${SCHEMA_VERSION}); update Loupe to merge it`,
      );
    if (version < 1) throw new OtherProjectError(`${path} is an empty Loupe project`);
    return db.transaction(() => {
      const meta = db.prepare(`SELECT value FROM project_meta WHERE key = 'project_id'`).pluck().get() as
        string | undefined;
      return {
        projectId: meta ?? null,
        schemaVersion: version,
        summaries: readSummaries(db),
        events: readEvents(db),
        reveals: readReveals(db),
        scaffolds: readScaffolds(db),
        alignments: readPersonAlignments(db),
        ...itemsOf(db),
      };
    })();
  } finally {
    db.close();
  }
}

const now = (): string => new Date().toISOString();

/** Where a merged event was first recorded, and the merge that brought it. */
interface Provenance {
  originProject: string;
  originEvent: number;
  mergeId: number;
}

/** The open project's side of a merge: what it holds, and the writes (the caller wraps them in one transaction). */
export class MergeRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** Summaries by `summaryIdentity`, with their unit ids and texts in sentence order. */
  summaries(): Map<string, { unitIds: number[]; unitTexts: string[] }> {
    const rows = this.db
      .prepare(
        `SELECT d.name AS dataset, s.summary_id AS summaryId, u.id AS unitId, u.text
         FROM summaries s JOIN datasets d ON d.id = s.dataset_id JOIN units u ON u.summary_id = s.id ORDER BY s.id, u.idx`,
      )
      .raw()
      .all() as Array<[string, string, number, string]>;
    const map = new Map<string, { unitIds: number[]; unitTexts: string[] }>();
    for (const [dataset, summaryId, unitId, text] of rows) {
      const key = summaryIdentity(dataset, summaryId);
      let entry = map.get(key);
      if (!entry) map.set(key, (entry = { unitIds: [], unitTexts: [] }));
      entry.unitIds.push(unitId);
      entry.unitTexts.push(text);
    }
    return map;
  }

  /** The content identities and import keys of every event of the project. */
  eventKeys(): { identities: Set<string>; importKeys: Set<string> } {
    const events = readEvents(this.db);
    return {
      identities: new Set(events.map(eventIdentity)),
      importKeys: new Set(events.flatMap((e) => (e.importKey === null ? [] : [e.importKey]))),
    };
  }

  annotatorNames(): Set<string> {
    return new Set(this.db.prepare('SELECT name FROM annotators').pluck().all() as string[]);
  }

  /** The project's annotators by name with their kind. */
  annotatorKinds(): Map<string, AnnotatorKind> {
    const rows = this.db.prepare('SELECT name, kind FROM annotators').raw().all() as Array<[string, AnnotatorKind]>;
    return new Map(rows);
  }

  /** The annotator of this name; created with the kind it has in the merged file when missing. */
  ensureAnnotator(name: string, kind: AnnotatorKind = 'person'): number {
    this.db
      .prepare('INSERT OR IGNORE INTO annotators (name, created_at, kind) VALUES (?, ?, ?)')
      .run(name, now(), kind);
    return this.db.prepare('SELECT id FROM annotators WHERE name = ?').pluck().get(name) as number;
  }

  /** A reveal of the file; per (annotator, summary) the earliest reveal stays. Returns whether anything changed. */
  mergeReveal(annotatorId: number, summaryKey: number, view: string, createdAt: string): boolean {
    return (
      this.db
        .prepare(
          `INSERT INTO reveals (annotator_id, summary_id, view, created_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (annotator_id, summary_id) DO UPDATE SET view = excluded.view, created_at = excluded.created_at
           WHERE excluded.created_at < reveals.created_at`,
        )
        .run(annotatorId, summaryKey, view, createdAt).changes === 1
    );
  }

  /** The summary key of (dataset, summary id), or null. */
  summaryKey(dataset: string, summaryId: string): number | null {
    const key = this.db
      .prepare(
        'SELECT s.id FROM summaries s JOIN datasets d ON d.id = s.dataset_id WHERE d.name = ? AND s.summary_id = ?',
      )
      .pluck()
      .get(dataset, summaryId) as number | undefined;
    return key ?? null;
  }

  beginMerge(source: string, sourceProject: string): number {
    return Number(
      this.db
        .prepare(
          'INSERT INTO merges (source, source_project, events_added, events_present, annotators_added, created_at) VALUES (?, ?, 0, 0, 0, ?)',
        )
        .run(source, sourceProject, now()).lastInsertRowid,
    );
  }

  finishMerge(mergeId: number, counts: { eventsAdded: number; eventsPresent: number; annotatorsAdded: number }): void {
    this.db
      .prepare('UPDATE merges SET events_added = ?, events_present = ?, annotators_added = ? WHERE id = ?')
      .run(counts.eventsAdded, counts.eventsPresent, counts.annotatorsAdded, mergeId);
  }

  /** A merge that added nothing leaves no trace (merging twice changes nothing). */
  dropMerge(mergeId: number): void {
    this.db.prepare('DELETE FROM merges WHERE id = ?').run(mergeId);
  }

  /** Copies one event (and its review queue, if any) with its provenance; returns the new id. */
  insertEvent(
    e: PortableEvent,
    target: { unitId: number; annotatorId: number; originProject: string; originEvent: number; mergeId: number },
  ): number {
    const id = Number(
      this.db
        .prepare(
          `INSERT INTO label_events (unit_id, annotator_id, phase, label, error_type, note, time_spent_ms, cause, created_at, import_key,
                                     origin_project, origin_event, merge_id, blind)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          target.unitId,
          target.annotatorId,
          e.phase,
          e.label,
          e.errorType,
          e.note,
          e.timeSpentMs,
          e.cause,
          e.createdAt,
          e.importKey,
          target.originProject,
          target.originEvent,
          target.mergeId,
          e.blind ? 1 : 0,
        ).lastInsertRowid,
    );
    if (e.queue !== null)
      this.db
        .prepare('INSERT INTO review_events (event_id, queue, judges) VALUES (?, ?, ?)')
        .run(id, e.queue, e.judges ?? '[]');
    return id;
  }

  /** The project's scaffold versions (schema 9), with their item ids. */
  scaffolds(): PortableScaffold[] {
    return readScaffolds(this.db);
  }

  /** The content identities and import keys of people's alignment events here. */
  alignmentKeys(scaffoldIdentities: Map<number, string>): { identities: Set<string>; importKeys: Set<string> } {
    const events = readPersonAlignments(this.db);
    return {
      identities: new Set(events.map((a) => alignmentIdentity(a, scaffoldIdentities.get(a.scaffoldId)!))),
      importKeys: new Set(events.flatMap((a) => (a.importKey === null ? [] : [a.importKey]))),
    };
  }

  /** The document key of (dataset, doc id), or null. */
  documentKey(dataset: string, docId: string): number | null {
    const key = this.db
      .prepare(
        'SELECT doc.id FROM documents doc JOIN datasets d ON d.id = doc.dataset_id WHERE d.name = ? AND doc.doc_id = ?',
      )
      .pluck()
      .get(dataset, docId) as number | undefined;
    return key ?? null;
  }

  /**
   * Copies a person's scaffold version as the document's next version (its number here may differ
   * from the file's), keeping its created_at, note and editor; `fromItem` maps an item's origin
   * in the base version to the base's item id here. Returns the new version's item ids by `itemIdentity`.
   */
  insertScaffold(
    documentKey: number,
    s: PortableScaffold,
    target: { basedOnId: number | null; createdBy: number | null; fromItem: (fromKey: string) => number | null },
  ): { id: number; items: Map<string, number> } {
    const version =
      ((this.db.prepare('SELECT max(version) FROM scaffolds WHERE document_id = ?').pluck().get(documentKey) as
        number | null) ?? 0) + 1;
    const id = Number(
      this.db
        .prepare(
          `INSERT INTO scaffolds (document_id, version, source, extractor, extractor_version, based_on_id, created_by, note, import_key, import_id, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?)`,
        )
        .run(
          documentKey,
          version,
          s.source,
          s.maker,
          s.makerVersion,
          target.basedOnId,
          target.createdBy,
          s.note,
          s.createdAt,
        ).lastInsertRowid,
    );
    const insert = this.db.prepare(
      'INSERT INTO scaffold_items (scaffold_id, kind, item_key, idx, text, tier, answer, entity, from_item_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const items = new Map<string, number>();
    const nextIndex = new Map<ScaffoldItemKind, number>();
    for (const item of s.items) {
      const idx = nextIndex.get(item.kind) ?? 0;
      nextIndex.set(item.kind, idx + 1);
      const from = item.fromKey === null ? null : target.fromItem(item.fromKey);
      items.set(
        itemIdentity(item.kind, item.key),
        Number(
          insert.run(id, item.kind, item.key, idx, item.text, item.tier, item.answer, item.entity, from)
            .lastInsertRowid,
        ),
      );
    }
    return { id, items };
  }

  /** Copies a person's alignment event onto an item here, keeping its note, created_at and blind (schema 9's trigger may only clear blind after a reveal here), with its provenance. */
  insertAlignment(
    a: PortableAlignment,
    target: { itemId: number; summaryKey: number; annotatorId: number } & Provenance,
  ): number {
    return Number(
      this.db
        .prepare(
          `INSERT INTO scaffold_alignment_events (item_id, summary_id, annotator_id, judge_id, config_hash, value, sentences, note, time_spent_ms, cause, created_at, blind, import_key, import_id,
                                                  origin_project, origin_event, merge_id)
           VALUES (?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
        )
        .run(
          target.itemId,
          target.summaryKey,
          target.annotatorId,
          a.value,
          a.sentences,
          a.note,
          a.timeSpentMs,
          a.cause,
          a.createdAt,
          a.blind ? 1 : 0,
          a.importKey,
          target.originProject,
          target.originEvent,
          target.mergeId,
        ).lastInsertRowid,
    );
  }

  /** Where this project's claims and key facts sit in their sets (set identities), to place a file's events. */
  itemSets(): ItemSets {
    return readItemSets(this.db);
  }

  /**
   * Adds a person's claim set or key-fact list as its owner's next version (SetRepository, so the
   * numbering and origins follow the one rule); `items` carry this project's unit and origin ids.
   */
  insertPersonSet(
    set: PortablePersonSet,
    target: {
      ownerKey: number;
      basedOnId: number | null;
      createdBy: number | null;
      items: Array<{ sentenceUnitId: number | null; text: string; from: number[] }>;
    },
  ): number {
    const version = {
      source: 'person' as const,
      maker: set.maker,
      makerVersion: set.makerVersion,
      basedOnId: target.basedOnId,
      createdBy: target.createdBy,
      note: set.note,
      importKey: null,
      importId: null,
    };
    const sets = new SetRepository(this.db);
    return set.kind === 'claim'
      ? sets.insertClaimSet(target.ownerKey, {
          ...version,
          items: target.items.map((i) => ({ sentenceUnitId: i.sentenceUnitId!, text: i.text, from: i.from })),
        })
      : sets.insertKeyFactSet(target.ownerKey, {
          ...version,
          items: target.items.map((i) => ({ text: i.text, from: i.from })),
        });
  }

  /** The content identities of people's claim and key-fact events here. */
  itemEventIdentities(sets: ItemSets): Set<string> {
    return new Set(readPersonItemEvents(this.db, sets).map(itemEventIdentity));
  }

  /**
   * Copies a person's claim label, key-fact label or sentence–key-fact event with its provenance.
   * `targetId`: the claim, key fact or unit here; key facts also name their summary and `conveyed_by`
   * in this project's ids; sentence events their key-fact set.
   */
  insertItemEvent(
    e: PortableItemEvent,
    target: {
      targetId: number;
      summaryKey: number;
      annotatorId: number;
      keyFactSetId?: number;
      conveyedBy?: string;
    } & Provenance,
  ): void {
    const origin = [target.originProject, target.originEvent, target.mergeId];
    if (e.kind === 'claim') {
      this.db
        .prepare(
          `INSERT INTO claim_label_events (claim_id, annotator_id, label, error_type, source_error_type, note, time_spent_ms, cause, created_at, blind, origin_project, origin_event, merge_id)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          target.targetId,
          target.annotatorId,
          e.label,
          e.errorType,
          e.sourceErrorType,
          e.note,
          e.timeSpentMs,
          e.cause,
          e.createdAt,
          e.blind ? 1 : 0,
          ...origin,
        );
    } else if (e.kind === 'key_fact') {
      this.db
        .prepare(
          `INSERT INTO key_fact_label_events (key_fact_id, summary_id, annotator_id, label, conveyed_by, note, time_spent_ms, cause, created_at, blind, origin_project, origin_event, merge_id)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          target.targetId,
          target.summaryKey,
          target.annotatorId,
          e.label,
          target.conveyedBy ?? '{"claims":[],"sentences":[]}',
          e.note,
          e.timeSpentMs,
          e.cause,
          e.createdAt,
          e.blind ? 1 : 0,
          ...origin,
        );
    } else {
      this.db
        .prepare(
          `INSERT INTO sentence_keyfact_events (unit_id, key_fact_set_id, annotator_id, conveys, cause, created_at, origin_project, origin_event, merge_id)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(target.targetId, target.keyFactSetId!, target.annotatorId, e.conveys, e.cause, e.createdAt, ...origin);
    }
  }

  /** Provenance of merged claim, key-fact and alignment events (tests, audits). */
  itemProvenance(
    table: 'claim_label_events' | 'key_fact_label_events' | 'sentence_keyfact_events' | 'scaffold_alignment_events',
  ): Array<{ originProject: string | null; originEvent: number | null; mergeId: number | null }> {
    return this.db
      .prepare(
        `SELECT origin_project AS originProject, origin_event AS originEvent, merge_id AS mergeId FROM ${table} ORDER BY id`,
      )
      .all() as ReturnType<MergeRepository['itemProvenance']>;
  }

  /** Provenance of the project's events (tests, audits). */
  provenance(): Array<{
    id: number;
    originProject: string | null;
    originEvent: number | null;
    mergeId: number | null;
  }> {
    return this.db
      .prepare(
        'SELECT id, origin_project AS originProject, origin_event AS originEvent, merge_id AS mergeId FROM label_events ORDER BY id',
      )
      .all() as ReturnType<MergeRepository['provenance']>;
  }

  merges(): Array<{
    id: number;
    source: string;
    sourceProject: string;
    eventsAdded: number;
    eventsPresent: number;
    annotatorsAdded: number;
    createdAt: string;
  }> {
    return this.db
      .prepare(
        `SELECT id, source, source_project AS sourceProject, events_added AS eventsAdded, events_present AS eventsPresent,
                annotators_added AS annotatorsAdded, created_at AS createdAt FROM merges ORDER BY id`,
      )
      .all() as ReturnType<MergeRepository['merges']>;
  }
}
