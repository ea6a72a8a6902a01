/**
 * SQL of proposals (schema 10): an annotator link's edit of a shared set, stored with its author,
 * target and base version, pending until the lead accepts or declines it once.
 */
import type { Database } from './open';
import type { ProposalKind, ProposalStatus } from '../shared/contract/proposals';

const now = (): string => new Date().toISOString();

export interface NewProposal {
  kind: ProposalKind;
  documentKey: number;
  /** Claims only: the summary whose claim set it changes. */
  summaryKey: number | null;
  baseVersion: number | null;
  authorId: number;
  /** The proposed items, as JSON. */
  content: string;
  note: string | null;
}

export interface ProposalRow {
  id: number;
  kind: ProposalKind;
  documentKey: number;
  docId: string;
  dataset: string;
  summaryKey: number | null;
  summaryId: string | null;
  baseVersion: number | null;
  authorId: number;
  author: string;
  content: string;
  note: string | null;
  status: ProposalStatus;
  createdAt: string;
  decidedAt: string | null;
  decisionNote: string | null;
  resultVersion: number | null;
}

const SELECT = `SELECT p.id, p.kind, p.document_id AS documentKey, doc.doc_id AS docId, d.name AS dataset,
    p.summary_id AS summaryKey, s.summary_id AS summaryId, p.base_version AS baseVersion,
    p.author_id AS authorId, a.name AS author, p.content, p.note, p.status, p.created_at AS createdAt,
    p.decided_at AS decidedAt, p.decision_note AS decisionNote, p.result_version AS resultVersion
  FROM proposals p
  JOIN documents doc ON doc.id = p.document_id
  JOIN datasets d ON d.id = doc.dataset_id
  JOIN annotators a ON a.id = p.author_id
  LEFT JOIN summaries s ON s.id = p.summary_id`;

export class ProposalRepository {
  constructor(private readonly db: Database) {}

  insert(p: NewProposal): number {
    const info = this.db
      .prepare(
        `INSERT INTO proposals (kind, document_id, summary_id, base_version, author_id, content, note, status, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
      )
      .run(p.kind, p.documentKey, p.summaryKey, p.baseVersion, p.authorId, p.content, p.note, now());
    return Number(info.lastInsertRowid);
  }

  get(id: number): ProposalRow | null {
    return (this.db.prepare(`${SELECT} WHERE p.id = ?`).get(id) as ProposalRow | undefined) ?? null;
  }

  /** Newest first; each filter optional (null: any). */
  list(filter: { authorId: number | null; status: ProposalStatus | null; documentKey: number | null }): ProposalRow[] {
    return this.db
      .prepare(
        `${SELECT} WHERE (@author IS NULL OR p.author_id = @author) AND (@status IS NULL OR p.status = @status)
           AND (@document IS NULL OR p.document_id = @document) ORDER BY p.id DESC`,
      )
      .all({ author: filter.authorId, status: filter.status, document: filter.documentKey }) as ProposalRow[];
  }

  /** Closes a pending proposal (accepted with the version it created, or declined); false when it was no longer pending. */
  decide(
    id: number,
    decision: { status: 'accepted'; resultVersion: number } | { status: 'declined'; note: string | null },
  ): boolean {
    const resultVersion = decision.status === 'accepted' ? decision.resultVersion : null;
    const note = decision.status === 'declined' ? decision.note : null;
    return (
      this.db
        .prepare(
          `UPDATE proposals SET status = ?, decided_at = ?, result_version = ?, decision_note = ? WHERE id = ? AND status = 'pending'`,
        )
        .run(decision.status, now(), resultVersion, note, id).changes === 1
    );
  }
}
