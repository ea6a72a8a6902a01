/**
 * What claims.* and keyfacts.* share about their versioned sets: how a set's header is told, and
 * how a person's edit checks the version it starts from and is written as the next version.
 */
import { ApiError } from '../../shared/api';
import type { NewSet, SetRow } from '../../db/setRepository';

export function notFound(what: string): never {
  throw new ApiError({ code: 'not_found', message: `No ${what} in this project` });
}

/** The fields of a set's view that do not depend on what it holds. */
export function setHeader(set: SetRow, versions: SetRow[]) {
  return {
    setId: set.id,
    version: set.version,
    source: set.source,
    basedOnVersion: versions.find((v) => v.id === set.basedOnSetId)?.version ?? null,
    createdBy: set.createdBy,
    createdAt: set.createdAt,
    note: set.note,
  };
}

/** An edit names the version it was made on; another having come since is a conflict (`what`: "The claims of summary 3"). */
export function requireEditedVersion(current: SetRow | null, basedOnVersion: number | null, what: string): void {
  if ((current?.version ?? null) !== basedOnVersion) {
    throw new ApiError({ code: 'conflict', message: `${what} are at version ${current?.version ?? 'none'}, not ${basedOnVersion ?? 'none'}: reload them and edit again.` });
  }
}

/** A person's edit as the next version after `current`. */
export function personEdit<Item>(who: { id: number; name: string }, current: SetRow | null, note: string | null | undefined, items: NewSet<Item>['items']): NewSet<Item> {
  return {
    source: 'person',
    maker: `person:${who.name}`,
    makerVersion: String((current?.version ?? 0) + 1),
    basedOnSetId: current?.id ?? null,
    createdBy: who.id,
    note: note ?? null,
    importKey: null,
    importId: null,
    items,
  };
}
