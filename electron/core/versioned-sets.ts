/**
 * What claims.*, keyfacts.* and scaffold.* share about their versioned sets (a summary's claims, a
 * document's key facts, a document's scaffold): how a version's header is told, how a person's
 * edit checks the version it starts from, how it is written as the next version, and how an
 * annotator link's edit becomes a proposal instead (a shared set changes only by the lead).
 * Each version is a row with the same provenance fields (db/versionRow.ts).
 */
import { ApiError, type Caller, type ProposalContent, type ProposalKind, type ProposalRef } from '../../shared/api';
import type { Repository } from '../../db/repository';
import type { NewSet, SetListPage, SetListQuery, SetRow } from '../../db/setRepository';
import type { ApiParsedInput } from '../../shared/api';
import type { VersionRow } from '../../db/versionRow';
import { isAnnotatorLink, requireOwnDocument, requireOwnSummary } from './owners';

export function notFound(what: string): never {
  throw new ApiError({ code: 'not_found', message: `No ${what} in this project` });
}

/** A set list's parsed input (claims.list, keyfacts.list) as the repository's page query. */
export function setListQuery(input: ApiParsedInput<'claims.list'>): SetListQuery {
  return {
    dataset: input.dataset ?? null,
    state: input.state,
    source: input.source ?? null,
    search: input.search ?? null,
    after: input.cursor !== undefined ? Number(input.cursor) : null,
    limit: input.limit,
  };
}

/** A repository page as the contract's page: each row as its entry, the next page's cursor. */
export function setListAnswer<Row, Entry>(page: SetListPage<Row>, entry: (row: Row) => Entry) {
  return {
    items: page.rows.map(entry),
    nextCursor: page.nextAfter !== null ? String(page.nextAfter) : null,
    total: page.total,
  };
}

/** The fields of a version's view that do not depend on what it holds (`versions`: all of its owner's, to name the one it was based on). */
export function versionHeader(row: VersionRow, versions: readonly VersionRow[]) {
  return {
    version: row.version,
    source: row.source,
    basedOnVersion: versions.find((v) => v.id === row.basedOnId)?.version ?? null,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    note: row.note,
  };
}

/**
 * An edit names the version it was made on; another having come since is a conflict. `what` is
 * the subject of the refusal ("The claims of summary 3" are …, "The scaffold of document 2" is …).
 */
export function requireEditedVersion(
  current: Pick<VersionRow, 'version'> | null,
  basedOnVersion: number | null,
  what: string,
  count: 'one' | 'many' = 'many',
): void {
  if ((current?.version ?? null) !== basedOnVersion) {
    const [is, it] = count === 'one' ? ['is', 'it'] : ['are', 'them'];
    throw new ApiError({
      code: 'conflict',
      message: `${what} ${is} at version ${current?.version ?? 'none'}, not ${basedOnVersion ?? 'none'}: reload ${it} and edit again.`,
    });
  }
}

/** A person's edit of claims or key facts as the next version after `current` (made by `person:<name>`). */
export function personEdit<Item>(
  who: { id: number; name: string },
  current: SetRow | null,
  note: string | null | undefined,
  items: NewSet<Item>['items'],
): NewSet<Item> {
  return {
    source: 'person',
    maker: `person:${who.name}`,
    makerVersion: String((current?.version ?? 0) + 1),
    basedOnId: current?.id ?? null,
    createdBy: who.id,
    note: note ?? null,
    importKey: null,
    importId: null,
    items,
  };
}

/**
 * How one kind of shared set is edited: its target is a summary (claims) or a document (key
 * facts, scaffold). The edit methods and accepting a proposal both go through it, so an accepted
 * proposal is written exactly as the lead's own edit.
 */
export interface SetEditor<K extends ProposalKind> {
  kind: K;
  /** "The claims of summary 3", as refusals name the target; `count`: whether it reads "are" or "is". */
  subject(target: number): string;
  count: 'one' | 'many';
  /** The document (and for claims the summary) of a target that exists. */
  place(repo: Repository, target: number): { documentKey: number; summaryKey: number | null };
  currentVersion(repo: Repository, target: number): number | null;
  /** Refuses (invalid_input) content that cannot become the next version of the current one. */
  check(repo: Repository, target: number, content: ProposalContent<K>): void;
  /** Writes the content as the next version after the current one, made by `who`; its version number. */
  write(
    repo: Repository,
    target: number,
    who: { id: number; name: string },
    content: ProposalContent<K>,
    note: string | null,
  ): number;
  /** One line per item of a stored version (null: none), and of proposed content, for a diff. */
  versionLines(repo: Repository, target: number, version: number | null): string[];
  contentLines(repo: Repository, target: number, content: ProposalContent<K>): string[];
}

/**
 * A person's edit of a shared set. The lead's is written as the next version; an annotator link's
 * (on a target of its own queue, with a current version to start from) is stored as a pending
 * proposal and changes nothing anyone labels. Either way a stale base is a conflict.
 */
export function editSet<K extends ProposalKind>(
  repo: Repository,
  caller: Caller | undefined,
  editor: SetEditor<K>,
  edit: {
    target: number;
    annotator: string;
    basedOnVersion: number | null;
    content: ProposalContent<K>;
    note: string | null;
  },
): { version: number; proposal?: ProposalRef } {
  const place = editor.place(repo, edit.target);
  if (isAnnotatorLink(caller)) {
    if (place.summaryKey !== null) requireOwnSummary(repo, caller, place.summaryKey);
    else requireOwnDocument(repo, caller, place.documentKey);
  }
  const who = repo.ensureAnnotator(edit.annotator, 'person');
  return repo.transaction(() => {
    const current = editor.currentVersion(repo, edit.target);
    requireEditedVersion(
      current === null ? null : { version: current },
      edit.basedOnVersion,
      editor.subject(edit.target),
      editor.count,
    );
    editor.check(repo, edit.target, edit.content);
    if (!isAnnotatorLink(caller)) return { version: editor.write(repo, edit.target, who, edit.content, edit.note) };
    if (current === null) {
      throw new ApiError({
        code: 'conflict',
        message: `${editor.subject(edit.target)} ${editor.count === 'one' ? 'has no version' : 'have no version'} yet: the lead makes the first one (extract or import it).`,
      });
    }
    const id = repo.proposals.insert({
      kind: editor.kind,
      ...place,
      baseVersion: current,
      authorId: who.id,
      content: JSON.stringify(edit.content),
      note: edit.note,
    });
    return { version: current, proposal: { id, status: 'pending' as const } };
  });
}
