/**
 * SQL of the Semantic Scaffold (schema 9): versioned scaffolds per document, their items,
 * and alignment events per (summary, source, item). Current alignments follow db/latest.ts (latest
 * created_at, then id) per (summary, item, annotator or judge). A person's note on an item rides on
 * the alignment event (schema 13), so the latest event is the whole current state, note included.
 */
import type { Database } from './open';
import { currentFirst } from './latest';
import type { NewVersion, VersionRow } from './versionRow';
import type { AlignmentValue, ScaffoldContent, ScaffoldItemKind, Tier } from '../shared/scaffold/domain';
import { checkScaffoldContent } from '../shared/scaffold/content';
import { scopeCondition, type SummaryScope } from './summaryScope';

const now = (): string => new Date().toISOString();

export interface ScaffoldRow extends VersionRow {
  documentKey: number;
}

export interface ScaffoldItemRow {
  id: number;
  scaffoldId: number;
  kind: ScaffoldItemKind;
  key: string;
  idx: number;
  text: string;
  tier: Tier | null;
  answer: string | null;
  entity: string | null;
  fromItemId: number | null;
}

export interface NewScaffold extends NewVersion {
  content: ScaffoldContent;
}

export interface NewAlignmentEvent {
  itemId: number;
  summaryKey: number;
  /** Exactly one of annotatorId (a person or an imported label set) and judgeId. */
  annotatorId: number | null;
  judgeId: number | null;
  configHash: string | null;
  value: AlignmentValue | null;
  sentences: number[];
  /** A person's note on the item for this summary (schema 13); absent or null: none (judges and imports give none). */
  note?: string | null;
  timeSpentMs: number | null;
  cause: string;
  importKey: string | null;
  importId: number | null;
}

/** One annotator's current state of an item for one summary. */
export interface AnnotatorAlignment {
  value: AlignmentValue | null;
  sentences: number[];
  note: string | null;
}

/** One current note of a person on an item for one summary (whether the item is aligned or not), as the export reads it. */
export interface AlignmentNoteRow {
  summaryKey: number;
  scaffoldId: number;
  itemId: number;
  /** "human:<annotator>". */
  source: string;
  note: string;
}

/** One current alignment of the dataset, as the analysis reads it. */
export interface AlignmentRow {
  summaryKey: number;
  scaffoldId: number;
  itemId: number;
  /** "human:<annotator>" or "judge:<name>". */
  source: string;
  annotatorKind: 'person' | 'imported' | null;
  blind: boolean;
  value: AlignmentValue;
  sentences: number[];
  /** A judge's alignment: the task kind whose run wrote it (the prompts used; its config hash names it in task_results), or "imported". */
  madeBy?: string;
}

export interface ScaffoldDatasetRows {
  summaries: Array<{ key: number; summaryId: string; docId: string; system: string | null; sentenceCount: number }>;
  /** Each version with its extractor (the maker: `task:<kind>@<config hash>` for a model). */
  scaffolds: Map<number, { docId: string; version: number; extractor: string; items: ScaffoldItemRow[] }>;
  alignments: AlignmentRow[];
}

export class ScaffoldRepository {
  constructor(private readonly db: Database) {}

  hasImportKey(importKey: string): boolean {
    return this.db.prepare('SELECT 1 FROM scaffolds WHERE import_key = ?').get(importKey) !== undefined;
  }

  hasAlignmentImportKey(importKey: string): boolean {
    return this.db.prepare('SELECT 1 FROM scaffold_alignment_events WHERE import_key = ?').get(importKey) !== undefined;
  }

  /** Writes a new version of the document's scaffold (the next version number); items keep the given order. */
  insertScaffold(
    documentKey: number,
    s: NewScaffold,
    fromItem: (kind: ScaffoldItemKind, key: string) => number | null = () => null,
  ): number {
    checkScaffoldContent(s.content);
    const version =
      ((this.db.prepare('SELECT max(version) FROM scaffolds WHERE document_id = ?').pluck().get(documentKey) as
        number | null) ?? 0) + 1;
    const id = Number(
      this.db
        .prepare(
          `INSERT INTO scaffolds (document_id, version, source, extractor, extractor_version, based_on_id, created_by, note, import_key, import_id, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          documentKey,
          version,
          s.source,
          s.maker,
          s.makerVersion,
          s.basedOnId,
          s.createdBy,
          s.note,
          s.importKey,
          s.importId,
          now(),
        ).lastInsertRowid,
    );
    const insert = this.db.prepare(
      'INSERT INTO scaffold_items (scaffold_id, kind, item_key, idx, text, tier, answer, entity, from_item_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    s.content.facts.forEach((f, i) =>
      insert.run(id, 'fact', f.id, i, f.text, f.tier, null, null, fromItem('fact', f.id)),
    );
    s.content.questions.forEach((q, i) =>
      insert.run(id, 'question', q.id, i, q.text, q.tier, q.answer, null, fromItem('question', q.id)),
    );
    let a = 0;
    for (const e of s.content.entities)
      for (const attr of e.attributes)
        insert.run(id, 'attribute', attr.id, a++, attr.text, null, null, e.name, fromItem('attribute', attr.id));
    return id;
  }

  /**
   * A person's edit (add, drop, retier, reword items): a new version of the document's scaffold
   * based on `scaffoldId`, whose items that keep an id of the old version name the item they came
   * from. Alignments given on the old version stay there.
   */
  editScaffold(
    scaffoldId: number,
    edit: { content: ScaffoldContent; editorId: number | null; note: string | null },
  ): number {
    const base = this.scaffold(scaffoldId);
    if (!base) throw new Error(`No scaffold ${scaffoldId}`);
    const old = new Map(this.items(scaffoldId).map((i) => [`${i.kind}\u0000${i.key}`, i.id]));
    return this.insertScaffold(
      base.documentKey,
      {
        source: 'person',
        maker: base.maker,
        makerVersion: base.makerVersion,
        basedOnId: scaffoldId,
        createdBy: edit.editorId,
        note: edit.note,
        importKey: null,
        importId: null,
        content: edit.content,
      },
      (kind, key) => old.get(`${kind}\u0000${key}`) ?? null,
    );
  }

  scaffold(id: number): ScaffoldRow | null {
    return (this.db.prepare(`${SCAFFOLD_SELECT} WHERE s.id = ?`).get(id) as ScaffoldRow | undefined) ?? null;
  }

  /** The highest version of the document's scaffold, or null when it has none. */
  currentScaffold(documentKey: number): ScaffoldRow | null {
    return (
      (this.db
        .prepare(`${SCAFFOLD_SELECT} WHERE s.document_id = ? ORDER BY s.version DESC LIMIT 1`)
        .get(documentKey) as ScaffoldRow | undefined) ?? null
    );
  }

  versions(documentKey: number): ScaffoldRow[] {
    return this.db
      .prepare(`${SCAFFOLD_SELECT} WHERE s.document_id = ? ORDER BY s.version`)
      .all(documentKey) as ScaffoldRow[];
  }

  items(scaffoldId: number): ScaffoldItemRow[] {
    return this.db
      .prepare(
        `SELECT id, scaffold_id AS scaffoldId, kind, item_key AS key, idx, text, tier, answer, entity, from_item_id AS fromItemId
         FROM scaffold_items WHERE scaffold_id = ? ORDER BY CASE kind WHEN 'fact' THEN 0 WHEN 'question' THEN 1 ELSE 2 END, idx`,
      )
      .all(scaffoldId) as ScaffoldItemRow[];
  }

  /** A version's content in the shape of the `scaffold` line (entities in first-attribute order). */
  content(scaffoldId: number): ScaffoldContent {
    const items = this.items(scaffoldId);
    const entities: ScaffoldContent['entities'] = [];
    for (const a of items.filter((i) => i.kind === 'attribute')) {
      const last = entities[entities.length - 1];
      if (last && last.name === a.entity) last.attributes.push({ id: a.key, text: a.text });
      else entities.push({ name: a.entity!, attributes: [{ id: a.key, text: a.text }] });
    }
    return {
      facts: items.filter((i) => i.kind === 'fact').map((i) => ({ id: i.key, text: i.text, tier: i.tier! })),
      questions: items
        .filter((i) => i.kind === 'question')
        .map((i) => ({ id: i.key, text: i.text, answer: i.answer ?? '', tier: i.tier! })),
      entities,
    };
  }

  /** Appends one alignment event; null when its import key is stored already (the same file again). */
  recordAlignment(e: NewAlignmentEvent): number | null {
    if (e.importKey !== null && this.hasAlignmentImportKey(e.importKey)) return null;
    return Number(
      this.db
        .prepare(
          `INSERT INTO scaffold_alignment_events (item_id, summary_id, annotator_id, judge_id, config_hash, value, sentences, note, time_spent_ms, cause, created_at, import_key, import_id)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          e.itemId,
          e.summaryKey,
          e.annotatorId,
          e.judgeId,
          e.configHash,
          e.value,
          JSON.stringify(e.sentences),
          e.note ?? null,
          e.timeSpentMs,
          e.cause,
          now(),
          e.importKey,
          e.importId,
        ).lastInsertRowid,
    );
  }

  /**
   * The current alignment events of a dataset's summaries (all of them, or the batch `scope`
   * names), cleared ones left out.
   */
  currentAlignments(dataset: string, scope: SummaryScope = null): AlignmentRow[] {
    const batch = scopeCondition('e.summary_id', scope);
    const rows = this.db
      .prepare(
        `WITH latest AS (
           SELECT id FROM (
             SELECT e.id, row_number() OVER (PARTITION BY e.summary_id, e.item_id, e.annotator_id, e.judge_id ORDER BY ${currentFirst('e')}) AS rn
             FROM scaffold_alignment_events e JOIN summaries s ON s.id = e.summary_id JOIN datasets d ON d.id = s.dataset_id
             WHERE d.name = ? AND ${batch.sql}) WHERE rn = 1
         )
         SELECT e.summary_id AS summaryKey, i.scaffold_id AS scaffoldId, e.item_id AS itemId,
                CASE WHEN e.judge_id IS NULL THEN 'human:' || a.name ELSE 'judge:' || j.name END AS source,
                a.kind AS annotatorKind, e.blind, e.value, e.sentences, e.config_hash AS configHash
         FROM latest l JOIN scaffold_alignment_events e ON e.id = l.id JOIN scaffold_items i ON i.id = e.item_id
         LEFT JOIN annotators a ON a.id = e.annotator_id LEFT JOIN judges j ON j.id = e.judge_id
         WHERE e.value IS NOT NULL
         ORDER BY e.summary_id, source, i.id`,
      )
      .all(dataset, ...batch.params) as Array<
      Omit<AlignmentRow, 'blind' | 'sentences' | 'madeBy'> & {
        blind: number;
        sentences: string;
        configHash: string | null;
      }
    >;
    const kinds = this.alignmentKinds();
    return rows.map(({ configHash, ...r }) => ({
      ...r,
      blind: r.blind === 1,
      sentences: JSON.parse(r.sentences) as number[],
      ...(configHash === null
        ? {}
        : { madeBy: kinds.get(configHash) ?? (configHash === 'imported' ? 'imported' : 'unknown') }),
    }));
  }

  /** Config hash → the scaffold alignment task kind whose results carry it (which prompts a judge's run used). */
  private alignmentKinds(): Map<string, string> {
    const rows = this.db
      .prepare(
        "SELECT DISTINCT kind, config_hash AS configHash FROM task_results WHERE kind GLOB 'scaffold_alignment*'",
      )
      .all() as Array<{ kind: string; configHash: string }>;
    return new Map(rows.map((r) => [r.configHash, r.kind]));
  }

  /** What the analysis and the export read of one dataset. */
  datasetRows(dataset: string): ScaffoldDatasetRows {
    const alignments = this.currentAlignments(dataset);
    const summaries = this.db
      .prepare(
        `SELECT s.id AS key, s.summary_id AS summaryId, doc.doc_id AS docId,
                (SELECT sy.name FROM system_outputs o JOIN systems sy ON sy.id = o.system_id WHERE o.summary_id = s.id ORDER BY o.id LIMIT 1) AS system,
                json_extract(s.meta, '$.system') AS metaSystem,
                (SELECT count(*) FROM units u WHERE u.summary_id = s.id) AS sentenceCount
         FROM summaries s JOIN datasets d ON d.id = s.dataset_id JOIN documents doc ON doc.id = s.document_id
         WHERE d.name = ? ORDER BY s.id`,
      )
      .all(dataset) as Array<{
      key: number;
      summaryId: string;
      docId: string;
      system: string | null;
      metaSystem: unknown;
      sentenceCount: number;
    }>;
    const scaffoldIds = this.db
      .prepare(
        `SELECT sc.id, doc.doc_id AS docId, sc.version, sc.extractor FROM scaffolds sc JOIN documents doc ON doc.id = sc.document_id JOIN datasets d ON d.id = doc.dataset_id
         WHERE d.name = ? ORDER BY sc.id`,
      )
      .all(dataset) as Array<{ id: number; docId: string; version: number; extractor: string }>;
    const scaffolds = new Map(
      scaffoldIds.map((s) => [
        s.id,
        { docId: s.docId, version: s.version, extractor: s.extractor, items: this.items(s.id) },
      ]),
    );
    return {
      summaries: summaries.map(({ metaSystem, ...s }) => ({
        ...s,
        system: s.system ?? (typeof metaSystem === 'string' ? metaSystem : null),
      })),
      scaffolds,
      alignments,
    };
  }

  /** The scaffold version, its document and kind of one item; null when there is no such item. */
  itemInfo(itemId: number): { itemId: number; scaffoldId: number; documentKey: number; kind: ScaffoldItemKind } | null {
    return (
      (this.db
        .prepare(
          'SELECT i.id AS itemId, i.scaffold_id AS scaffoldId, s.document_id AS documentKey, i.kind FROM scaffold_items i JOIN scaffolds s ON s.id = i.scaffold_id WHERE i.id = ?',
        )
        .get(itemId) as
        { itemId: number; scaffoldId: number; documentKey: number; kind: ScaffoldItemKind } | undefined) ?? null
    );
  }

  /**
   * One annotator's current alignment per item of one scaffold version for one summary (cleared
   * ones included as null), with their note, and nobody else's: what a blind annotation view may show.
   */
  annotatorAlignments(scaffoldId: number, summaryKey: number, annotatorId: number): Map<number, AnnotatorAlignment> {
    const rows = this.db
      .prepare(
        `SELECT item_id AS itemId, value, sentences, note FROM (
           SELECT e.*, row_number() OVER (PARTITION BY e.item_id ORDER BY ${currentFirst('e')}) AS rn
           FROM scaffold_alignment_events e JOIN scaffold_items i ON i.id = e.item_id
           WHERE i.scaffold_id = ? AND e.summary_id = ? AND e.annotator_id = ?) WHERE rn = 1`,
      )
      .all(scaffoldId, summaryKey, annotatorId) as Array<{
      itemId: number;
      value: AlignmentValue | null;
      sentences: string;
      note: string | null;
    }>;
    return new Map(
      rows.map((r) => [r.itemId, { value: r.value, sentences: JSON.parse(r.sentences) as number[], note: r.note }]),
    );
  }
  /** One annotator's current note on one item for one summary (null: none): what a record without a note keeps. */
  annotatorNote(itemId: number, summaryKey: number, annotatorId: number): string | null {
    const note = this.db
      .prepare(
        `SELECT note FROM scaffold_alignment_events e WHERE e.summary_id = ? AND e.item_id = ? AND e.annotator_id = ?
         ORDER BY ${currentFirst('e')} LIMIT 1`,
      )
      .pluck()
      .get(summaryKey, itemId, annotatorId) as string | null | undefined;
    return note ?? null;
  }

  /**
   * People's current notes on the dataset's scaffold items, per (summary, item, annotator): the
   * latest event's note, kept whether the item is aligned (value) or not.
   */
  currentNotes(dataset: string, scope: SummaryScope = null): AlignmentNoteRow[] {
    const batch = scopeCondition('e.summary_id', scope);
    return this.db
      .prepare(
        `SELECT e.summary_id AS summaryKey, i.scaffold_id AS scaffoldId, e.item_id AS itemId, 'human:' || a.name AS source, e.note
         FROM (
           SELECT e.id, row_number() OVER (PARTITION BY e.summary_id, e.item_id, e.annotator_id ORDER BY ${currentFirst('e')}) AS rn
           FROM scaffold_alignment_events e JOIN summaries s ON s.id = e.summary_id JOIN datasets d ON d.id = s.dataset_id
           WHERE d.name = ? AND ${batch.sql} AND e.annotator_id IS NOT NULL) l
         JOIN scaffold_alignment_events e ON e.id = l.id JOIN scaffold_items i ON i.id = e.item_id JOIN annotators a ON a.id = e.annotator_id
         WHERE l.rn = 1 AND e.note IS NOT NULL
         ORDER BY e.summary_id, source, i.id`,
      )
      .all(dataset, ...batch.params) as AlignmentNoteRow[];
  }

  /**
   * The current version of each of the dataset's scaffolded documents, in doc id order (SQLite's
   * binary order, as the other exports' summary order), after `afterDocId` when given, at most `limit`: the export
   * reads them a page at a time.
   */
  currentScaffoldPage(
    dataset: string,
    afterDocId: string | null,
    limit: number,
  ): Array<{ id: number; docId: string; maker: string; makerVersion: string }> {
    // No `(? IS NULL OR …)`: that disjunction would keep SQLite from seeking to the page's start.
    const after = afterDocId === null ? { sql: '1', params: [] } : { sql: 'doc.doc_id > ?', params: [afterDocId] };
    return this.db
      .prepare(
        `SELECT sc.id, doc.doc_id AS docId, sc.extractor AS maker, sc.extractor_version AS makerVersion
         FROM scaffolds sc JOIN documents doc ON doc.id = sc.document_id JOIN datasets d ON d.id = doc.dataset_id
         WHERE d.name = ? AND ${after.sql}
           AND sc.version = (SELECT max(v.version) FROM scaffolds v WHERE v.document_id = sc.document_id)
         ORDER BY doc.doc_id LIMIT ?`,
      )
      .all(dataset, ...after.params, limit) as Array<{
      id: number;
      docId: string;
      maker: string;
      makerVersion: string;
    }>;
  }

  /** Each scaffold version's document key and whether it is its document's current (highest) version. */
  versionStanding(scaffoldIds: readonly number[]): Map<number, { documentKey: number; current: boolean }> {
    const rows = this.db
      .prepare(
        `SELECT sc.id, sc.document_id AS documentKey,
                sc.version = (SELECT max(v.version) FROM scaffolds v WHERE v.document_id = sc.document_id) AS current
         FROM scaffolds sc WHERE sc.id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(scaffoldIds)) as Array<{ id: number; documentKey: number; current: number }>;
    return new Map(rows.map((r) => [r.id, { documentKey: r.documentKey, current: r.current === 1 }]));
  }

  /** Whether a stored alignment event counts as blind (schema 9's after-reveal trigger decides). */
  alignmentBlind(eventId: number): boolean {
    return this.db.prepare('SELECT blind FROM scaffold_alignment_events WHERE id = ?').pluck().get(eventId) === 1;
  }

  /** Alignment events (any source) on the items of one scaffold version. */
  alignmentEventCount(scaffoldId: number): number {
    return this.db
      .prepare(
        'SELECT count(*) FROM scaffold_alignment_events e JOIN scaffold_items i ON i.id = e.item_id WHERE i.scaffold_id = ?',
      )
      .pluck()
      .get(scaffoldId) as number;
  }

  /** Datasets with at least one scaffold. */
  datasetsWithScaffolds(): string[] {
    return this.db
      .prepare(
        'SELECT DISTINCT d.name FROM scaffolds sc JOIN documents doc ON doc.id = sc.document_id JOIN datasets d ON d.id = doc.dataset_id ORDER BY d.name',
      )
      .pluck()
      .all() as string[];
  }

  /** Whether a judge's run (config hash) has written alignment events for this summary on this scaffold version. */
  judgeAlignmentWritten(summaryKey: number, scaffoldId: number, judgeId: number, configHash: string): boolean {
    return (
      this.db
        .prepare(
          `SELECT 1 FROM scaffold_alignment_events e JOIN scaffold_items i ON i.id = e.item_id
           WHERE e.summary_id = ? AND i.scaffold_id = ? AND e.judge_id = ? AND e.config_hash = ? LIMIT 1`,
        )
        .get(summaryKey, scaffoldId, judgeId, configHash) !== undefined
    );
  }

  /**
   * The direct scores (App. G.7) stored by the direct_score task for the dataset's summaries:
   * task_results rows of item `summary:<key>:judge:<judge id>`, the latest per (summary, judge).
   */
  directScores(dataset: string): Array<{ summaryKey: number; judge: string; output: string }> {
    const inDataset = new Set(
      this.db
        .prepare('SELECT s.id FROM summaries s JOIN datasets d ON d.id = s.dataset_id WHERE d.name = ?')
        .pluck()
        .all(dataset) as number[],
    );
    const judges = new Map(
      (this.db.prepare('SELECT id, name FROM judges').all() as Array<{ id: number; name: string }>).map((j) => [
        j.id,
        j.name,
      ]),
    );
    const rows = this.db
      .prepare(
        "SELECT item, output FROM task_results WHERE kind = 'direct_score' AND output IS NOT NULL ORDER BY created_at, id",
      )
      .all() as Array<{ item: string; output: string }>;
    const latest = new Map<string, { summaryKey: number; judge: string; output: string }>();
    for (const r of rows) {
      const m = /^summary:(\d+):judge:(\d+)$/.exec(r.item);
      if (!m) continue;
      const summaryKey = Number(m[1]);
      const judge = judges.get(Number(m[2]));
      if (judge === undefined || !inDataset.has(summaryKey)) continue;
      latest.set(`${summaryKey}\u0000${judge}`, { summaryKey, judge, output: r.output });
    }
    return [...latest.values()];
  }
}

const SCAFFOLD_SELECT = `SELECT s.id, s.document_id AS documentKey, s.version, s.source, s.extractor AS maker, s.extractor_version AS makerVersion,
  s.based_on_id AS basedOnId, a.name AS createdBy, s.note, s.created_at AS createdAt
  FROM scaffolds s LEFT JOIN annotators a ON a.id = s.created_by`;
