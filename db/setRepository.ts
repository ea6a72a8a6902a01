/**
 * SQL of the versioned sets of claims (one per summary and version) and key facts (one per
 * document and version), schema 8: the two kinds share one shape and one SQL over their own tables.
 * An edit, an import or a model's answer is a new version; labels stay on the items of the version
 * they were given on.
 */
import type { Database } from './open';
import { StatementCache } from './statements';
import type { SetSource } from '../shared/accuracy/domain';
import type { NewVersion, VersionRow } from './versionRow';

const now = (): string => new Date().toISOString();

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
  claim: {
    sets: 'claim_sets',
    owner: 'summary_id',
    ownerTable: 'summaries',
    maker: 'decomposer',
    items: 'claims',
    itemRef: 'claim_id',
    origins: 'claim_origins',
    events: 'claim_label_events',
  },
  keyFact: {
    sets: 'key_fact_sets',
    owner: 'document_id',
    ownerTable: 'documents',
    maker: 'extractor',
    items: 'key_facts',
    itemRef: 'key_fact_id',
    origins: 'key_fact_origins',
    events: 'key_fact_label_events',
  },
} as const;

type SetKind = keyof typeof SET_TABLES;

/**
 * What a listing of each kind shows about its owner (`o`, of the kind's owner table): its columns,
 * which owners are listed at all, and what a search looks in. A search names the other tables'
 * matches as sets (IN, computed once) so the owners are one scan of a covering index (schema 14).
 * Fixed SQL: input reaches it only as bound parameters (the search as a LIKE pattern, matched
 * ESCAPE '\').
 */
const LISTINGS = {
  claim: {
    key: 'key',
    columns: `o.id AS key, d.doc_id AS docId, o.summary_id AS summaryId,
              (SELECT sy.name FROM system_outputs so JOIN systems sy ON sy.id = so.system_id WHERE so.summary_id = o.id ORDER BY so.id LIMIT 1) AS system,
              (SELECT count(*) FROM units u WHERE u.summary_id = o.id) AS sentences`,
    joins: 'JOIN documents d ON d.id = o.document_id',
    listed: null,
    search: `(o.summary_id LIKE ? ESCAPE '\\' OR o.document_id IN (SELECT id FROM documents WHERE doc_id LIKE ? ESCAPE '\\')
              OR o.id IN (SELECT so.summary_id FROM system_outputs so JOIN systems sy ON sy.id = so.system_id WHERE sy.name LIKE ? ESCAPE '\\'))`,
    searchParameters: 3,
  },
  keyFact: {
    key: 'documentKey',
    columns: `o.id AS documentKey, o.doc_id AS docId, (SELECT count(*) FROM summaries s WHERE s.document_id = o.id) AS summaries`,
    joins: '',
    listed: 'EXISTS (SELECT 1 FROM summaries s WHERE s.document_id = o.id)',
    search: `(o.doc_id LIKE ? ESCAPE '\\' OR o.id IN (SELECT document_id FROM summaries WHERE summary_id LIKE ? ESCAPE '\\'))`,
    searchParameters: 2,
  },
} as const;

/** A LIKE pattern that matches `text` anywhere, its own % _ and \\ taken literally. */
const containing = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export type SetRow = VersionRow;

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
  dataset: string;
  summaryId: string;
  docId: string;
  system: string | null;
  sentences: number;
}

export interface KeyFactListRow extends SetListing {
  documentKey: number;
  dataset: string;
  docId: string;
  summaries: number;
}

/** Which owners a listing page holds: after the key `after` (null: from the first), at most `limit`. */
export interface SetListQuery {
  dataset: string | null;
  /** with: owners with a set (any version); without: owners with none yet. */
  state: 'all' | 'with' | 'without';
  /** Owners whose current set has this source. */
  source: SetSource | null;
  /** Text the owner's ids (or a claim summary's system name) contain, case-insensitively. */
  search: string | null;
  after: number | null;
  limit: number;
}

export interface SetListPage<Row> {
  rows: Row[];
  /** The key the next page starts after; null when this page is the last. */
  nextAfter: number | null;
  /** Owners the filters keep, on every page. */
  total: number;
}

export interface NewSet<Item> extends NewVersion {
  items: Array<Item & { from: number[] }>;
}

export class SetRepository {
  private readonly statements: StatementCache;

  constructor(private readonly db: Database) {
    this.statements = new StatementCache(db);
  }

  // --- claim sets ------------------------------------------------------------------------------------

  claimSets(summaryKey: number): SetRow[] {
    return this.setsOf('claim', summaryKey);
  }

  currentClaimSet(summaryKey: number): SetRow | null {
    return this.currentSetOf('claim', summaryKey);
  }

  claimsOfSet(setId: number): ClaimRow[] {
    return this.statements
      .get(
        'SELECT c.id, c.set_id AS setId, c.sentence_unit_id AS sentenceUnitId, u.idx AS sentenceIndex, c.idx, c.text FROM claims c JOIN units u ON u.id = c.sentence_unit_id WHERE c.set_id = ? ORDER BY c.idx',
      )
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
      this.statements
        .get(
          'SELECT 1 FROM claim_sets WHERE import_key = ? UNION ALL SELECT 1 FROM key_fact_sets WHERE import_key = ? LIMIT 1',
        )
        .get(importKey, importKey) !== undefined
    );
  }

  /** A new version of the summary's claims (version = current + 1); returns the set id. */
  insertClaimSet(summaryKey: number, set: NewSet<{ sentenceUnitId: number; text: string }>): number {
    const insert = this.statements.get('INSERT INTO claims (set_id, sentence_unit_id, idx, text) VALUES (?, ?, ?, ?)');
    return this.insertSet('claim', summaryKey, set, (setId, item, idx) =>
      Number(insert.run(setId, item.sentenceUnitId, idx, item.text).lastInsertRowid),
    );
  }

  claimSummaryKey(claimId: number): number | null {
    const row = this.statements
      .get('SELECT s.summary_id AS key FROM claims c JOIN claim_sets s ON s.id = c.set_id WHERE c.id = ?')
      .get(claimId) as { key: number } | undefined;
    return row?.key ?? null;
  }

  // --- key-fact sets ---------------------------------------------------------------------------------

  keyFactSets(documentKey: number): SetRow[] {
    return this.setsOf('keyFact', documentKey);
  }

  currentKeyFactSet(documentKey: number): SetRow | null {
    return this.currentSetOf('keyFact', documentKey);
  }

  keyFactsOfSet(setId: number): KeyFactRow[] {
    return this.statements
      .get('SELECT id, set_id AS setId, idx, text FROM key_facts WHERE set_id = ? ORDER BY idx')
      .all(setId) as KeyFactRow[];
  }

  keyFactOrigins(setId: number): Map<number, number[]> {
    return this.originsOf('keyFact', setId);
  }

  keyFactSetEvents(setId: number): number {
    return this.eventCountOf('keyFact', setId);
  }

  insertKeyFactSet(documentKey: number, set: NewSet<{ text: string }>): number {
    const insert = this.statements.get('INSERT INTO key_facts (set_id, idx, text) VALUES (?, ?, ?)');
    return this.insertSet('keyFact', documentKey, set, (setId, item, idx) =>
      Number(insert.run(setId, idx, item.text).lastInsertRowid),
    );
  }

  keyFactDocumentKey(keyFactId: number): number | null {
    const row = this.statements
      .get('SELECT s.document_id AS key FROM key_facts k JOIN key_fact_sets s ON s.id = k.set_id WHERE k.id = ?')
      .get(keyFactId) as { key: number } | undefined;
    return row?.key ?? null;
  }

  // --- listings (claims.list, keyfacts.list): a page at a time in owner key order (keyset paging) ---

  /** A page of a dataset's (or every dataset's) summaries with the state of their claims, in summary key order. */
  claimListPage(query: SetListQuery): SetListPage<ClaimListRow> {
    return this.listPageOf<ClaimListRow>('claim', query);
  }

  /** A page of the summarised documents with the state of their key facts, in document key order. */
  keyFactListPage(query: SetListQuery): SetListPage<KeyFactListRow> {
    return this.listPageOf<KeyFactListRow>('keyFact', query);
  }

  /** Summary key → id of its current claim set, for the summaries of a dataset that have one (one query). */
  currentClaimSetIds(dataset: string): Map<number, number> {
    return this.currentSetIdsOf('claim', dataset);
  }

  /** Document key → id of its current key-fact set, for the documents of a dataset that have one (one query). */
  currentKeyFactSetIds(dataset: string): Map<number, number> {
    return this.currentSetIdsOf('keyFact', dataset);
  }

  // --- what claim sets and key-fact sets share: the same SQL over their own tables -------------------

  /**
   * One page of a listing: the filters as WHERE terms over the owner table (each term only when
   * its filter is given, so the planner sees a plain index range), the page one row longer than
   * asked to know whether another follows, and the total of the same terms without the cursor.
   */
  private listPageOf<Row extends { dataset: string }>(kind: SetKind, query: SetListQuery): SetListPage<Row> {
    const t = SET_TABLES[kind];
    const listing = LISTINGS[kind];
    const current = `(SELECT x.id FROM ${t.sets} x WHERE x.${t.owner} = o.id ORDER BY x.version DESC LIMIT 1)`;
    const terms: string[] = [];
    const parameters: Array<string | number> = [];
    if (query.dataset !== null) {
      terms.push('o.dataset_id = (SELECT id FROM datasets WHERE name = ?)');
      parameters.push(query.dataset);
    }
    if (listing.listed) terms.push(listing.listed);
    if (query.state !== 'all')
      terms.push(
        `${query.state === 'without' ? 'NOT ' : ''}EXISTS (SELECT 1 FROM ${t.sets} x WHERE x.${t.owner} = o.id)`,
      );
    if (query.source !== null) {
      terms.push(`(SELECT x.source FROM ${t.sets} x WHERE x.${t.owner} = o.id ORDER BY x.version DESC LIMIT 1) = ?`);
      parameters.push(query.source);
    }
    if (query.search !== null) {
      terms.push(listing.search);
      for (let i = 0; i < listing.searchParameters; i += 1) parameters.push(containing(query.search));
    }
    const where = (more: string[]) => {
      const all = [...terms, ...more];
      return all.length > 0 ? `WHERE ${all.join(' AND ')}` : '';
    };
    const rows = this.statements
      .get(
        `SELECT ${listing.columns}, ds.name AS dataset,
                cs.version AS currentVersion,
                (SELECT count(*) FROM ${t.sets} v WHERE v.${t.owner} = o.id) AS versions,
                (SELECT count(*) FROM ${t.items} i WHERE i.set_id = cs.id) AS items,
                cs.source, cs.${t.maker} AS maker
         FROM ${t.ownerTable} o JOIN datasets ds ON ds.id = o.dataset_id ${listing.joins}
         LEFT JOIN ${t.sets} cs ON cs.id = ${current}
         ${where(query.after !== null ? ['o.id > ?'] : [])}
         ORDER BY o.id LIMIT ?`,
      )
      .all(...parameters, ...(query.after !== null ? [query.after] : []), query.limit + 1) as Row[];
    const { n: total } = this.statements
      .get(`SELECT count(*) AS n FROM ${t.ownerTable} o ${where([])}`)
      .get(...parameters) as { n: number };
    const more = rows.length > query.limit;
    if (more) rows.pop();
    const last = rows[rows.length - 1] as unknown as Record<string, number> | undefined;
    return { rows, nextAfter: more && last ? last[listing.key]! : null, total };
  }

  private currentSetIdsOf(kind: SetKind, dataset: string): Map<number, number> {
    const t = SET_TABLES[kind];
    const rows = this.statements
      .get(
        `SELECT x.${t.owner} AS owner, x.id FROM ${t.sets} x
       JOIN ${t.ownerTable} o ON o.id = x.${t.owner} JOIN datasets ds ON ds.id = o.dataset_id
       WHERE ds.name = ? AND x.version = (SELECT max(version) FROM ${t.sets} y WHERE y.${t.owner} = x.${t.owner})`,
      )
      .all(dataset) as Array<{ owner: number; id: number }>;
    return new Map(rows.map((r) => [r.owner, r.id]));
  }

  private setsOf(kind: SetKind, ownerKey: number): SetRow[] {
    const t = SET_TABLES[kind];
    return this.statements
      .get(
        `SELECT s.id, s.version, s.source, s.${t.maker} AS maker, s.${t.maker}_version AS makerVersion, s.based_on_set_id AS basedOnId,
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
    const rows = this.statements
      .get(
        `SELECT o.${t.itemRef} AS id, o.origin_id AS origin FROM ${t.origins} o JOIN ${t.items} i ON i.id = o.${t.itemRef} WHERE i.set_id = ? ORDER BY o.origin_id`,
      )
      .all(setId) as Array<{ id: number; origin: number }>;
    const out = new Map<number, number[]>();
    for (const r of rows) out.set(r.id, [...(out.get(r.id) ?? []), r.origin]);
    return out;
  }

  private eventCountOf(kind: SetKind, setId: number): number {
    const t = SET_TABLES[kind];
    return (
      this.statements
        .get(`SELECT count(*) AS n FROM ${t.events} e JOIN ${t.items} i ON i.id = e.${t.itemRef} WHERE i.set_id = ?`)
        .get(setId) as { n: number }
    ).n;
  }

  /** A new version (current + 1) of the owner's set; `insertItem` writes one item and returns its id. Returns the set id. */
  private insertSet<Item>(
    kind: SetKind,
    ownerKey: number,
    set: NewSet<Item>,
    insertItem: (setId: number, item: Item, idx: number) => number,
  ): number {
    const t = SET_TABLES[kind];
    const version =
      ((
        this.statements.get(`SELECT max(version) AS v FROM ${t.sets} WHERE ${t.owner} = ?`).get(ownerKey) as {
          v: number | null;
        }
      ).v ?? 0) + 1;
    const info = this.statements
      .get(
        `INSERT INTO ${t.sets} (${t.owner}, version, source, ${t.maker}, ${t.maker}_version, based_on_set_id, created_by, note, import_key, import_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        ownerKey,
        version,
        set.source,
        set.maker,
        set.makerVersion,
        set.basedOnId,
        set.createdBy,
        set.note,
        set.importKey,
        set.importId,
        now(),
      );
    const setId = Number(info.lastInsertRowid);
    const origin = this.statements.get(`INSERT OR IGNORE INTO ${t.origins} (${t.itemRef}, origin_id) VALUES (?, ?)`);
    set.items.forEach((item, idx) => {
      const id = insertItem(setId, item, idx);
      for (const from of item.from) origin.run(id, from);
    });
    return setId;
  }
}
