/**
 * What claims.*, keyfacts.* and scaffold.* share about their versioned sets (a summary's claims, a
 * document's key facts, a document's scaffold): how a version's header is told, how a person's
 * edit checks the version it starts from, and, for claims and key facts, how it is written as the
 * next version. Each version is a row with the same provenance fields (db/versionRow.ts).
 */
import { ApiError } from '../../shared/api';
import type { NewSet, SetRow } from '../../db/setRepository';
import type { VersionRow } from '../../db/versionRow';

export function notFound(what: string): never {
  throw new ApiError({ code: 'not_found', message: `No ${what} in this project` });
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
export function requireEditedVersion(current: Pick<VersionRow, 'version'> | null, basedOnVersion: number | null, what: string, count: 'one' | 'many' = 'many'): void {
  if ((current?.version ?? null) !== basedOnVersion) {
    const [is, it] = count === 'one' ? ['is', 'it'] : ['are', 'them'];
    throw new ApiError({ code: 'conflict', message: `${what} ${is} at version ${current?.version ?? 'none'}, not ${basedOnVersion ?? 'none'}: reload ${it} and edit again.` });
  }
}

/** A person's edit of claims or key facts as the next version after `current` (made by `person:<name>`). */
export function personEdit<Item>(who: { id: number; name: string }, current: SetRow | null, note: string | null | undefined, items: NewSet<Item>['items']): NewSet<Item> {
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
