/**
 * proposals.*: the lead's side of annotators' edits to shared sets. Listing tells who proposed what
 * against which version, with a line diff; accepting writes the next version through the same
 * editor as the lead's own edit (so labels on earlier versions stay there), and only while the
 * proposal's base is still the current version; declining closes it. Each proposal is decided once.
 */
import {
  ApiError,
  PROPOSAL_CONTENT,
  type ApiHandlers,
  type Proposal,
  type ProposalContent,
  type ProposalKind,
} from '../../../shared/api';
import { diffLines } from '../../../shared/proposals/diff';
import type { Repository } from '../../../db/repository';
import type { ProposalRow } from '../../../db/proposalRepository';
import type { CoreContext } from '../context';
import { claimsEditor } from '../claims/edit';
import { keyfactsEditor } from '../keyfacts/edit';
import { scaffoldEditor } from '../scaffold/edit';
import { notFound, type SetEditor } from '../versioned-sets';

export type ProposalsHandlers = Pick<ApiHandlers, 'proposals.list' | 'proposals.accept' | 'proposals.decline'>;

const EDITORS: { [K in ProposalKind]: SetEditor<K> } = {
  claims: claimsEditor,
  keyfacts: keyfactsEditor,
  scaffold: scaffoldEditor,
};

/** A stored proposal's editor, target and content (parsed with its kind's schema). */
function opened<K extends ProposalKind>(
  row: ProposalRow & { kind: K },
): { editor: SetEditor<K>; target: number; content: ProposalContent<K> } {
  const editor = EDITORS[row.kind] as SetEditor<K>;
  const content = PROPOSAL_CONTENT[row.kind].parse(JSON.parse(row.content)) as ProposalContent<K>;
  return { editor, target: row.summaryKey ?? row.documentKey, content };
}

function view(repo: Repository, row: ProposalRow): Proposal {
  const { editor, target, content } = opened(row);
  const currentVersion = editor.currentVersion(repo, target);
  return {
    id: row.id,
    kind: row.kind,
    author: row.author,
    dataset: row.dataset,
    documentKey: row.documentKey,
    docId: row.docId,
    summaryKey: row.summaryKey,
    summaryId: row.summaryId,
    baseVersion: row.baseVersion,
    currentVersion,
    stale: row.status === 'pending' && currentVersion !== row.baseVersion,
    note: row.note,
    status: row.status,
    createdAt: row.createdAt,
    decidedAt: row.decidedAt,
    decisionNote: row.decisionNote,
    resultVersion: row.resultVersion,
    diff: diffLines(editor.versionLines(repo, target, row.baseVersion), editor.contentLines(repo, target, content)),
  };
}

function pending(repo: Repository, id: number): ProposalRow {
  const row = repo.proposals.get(id) ?? notFound(`proposal ${id}`);
  if (row.status !== 'pending')
    throw new ApiError({ code: 'conflict', message: `Proposal ${id} was already ${row.status}.` });
  return row;
}

export function createProposalsHandlers(ctx: CoreContext): ProposalsHandlers {
  const repo = () => ctx.project().repo;
  return {
    'proposals.list': async ({ author, status, documentKey }) => {
      const r = repo();
      const authorId = author === undefined ? null : (r.annotator(author)?.id ?? null);
      if (author !== undefined && authorId === null) return [];
      return r.proposals
        .list({ authorId, status: status ?? null, documentKey: documentKey ?? null })
        .map((row) => view(r, row));
    },
    'proposals.accept': async ({ id }) => {
      const r = repo();
      r.transaction(() => {
        const row = pending(r, id);
        const { editor, target, content } = opened(row);
        const current = editor.currentVersion(r, target);
        if (current !== row.baseVersion) {
          throw new ApiError({
            code: 'conflict',
            message: `Proposal ${id} was made on version ${row.baseVersion ?? 'none'}, but ${editor.subject(target).replace(/^The/, 'the')} ${editor.count === 'one' ? 'is' : 'are'} at version ${current ?? 'none'} now: decline it and ask ${row.author} to propose again on the current version.`,
          });
        }
        editor.check(r, target, content);
        const resultVersion = editor.write(r, target, { id: row.authorId, name: row.author }, content, row.note);
        r.proposals.decide(id, { status: 'accepted', resultVersion });
      });
      return view(r, r.proposals.get(id)!);
    },
    'proposals.decline': async ({ id, note }) => {
      const r = repo();
      r.transaction(() => {
        pending(r, id);
        r.proposals.decide(id, { status: 'declined', note: note === undefined || note === '' ? null : note });
      });
      return view(r, r.proposals.get(id)!);
    },
  };
}
