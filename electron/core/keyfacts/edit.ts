/** A document's key facts as a shared set: checking and writing a person's edit, and its lines for a diff. */
import { ApiError } from '../../../shared/api';
import { personEdit, type SetEditor } from '../versioned-sets';

export const keyfactsEditor: SetEditor<'keyfacts'> = {
  kind: 'keyfacts',
  subject: (documentKey) => `The key facts of document ${documentKey}`,
  count: 'many',
  place: (_repo, documentKey) => ({ documentKey, summaryKey: null }),
  currentVersion: (repo, documentKey) => repo.sets.currentKeyFactSet(documentKey)?.version ?? null,
  check(repo, documentKey, { facts }) {
    const current = repo.sets.currentKeyFactSet(documentKey);
    const previous = new Set(current ? repo.sets.keyFactsOfSet(current.id).map((f) => f.id) : []);
    const stranger = facts.flatMap((f) => f.from).find((id) => !previous.has(id));
    if (stranger !== undefined)
      throw new ApiError({
        code: 'invalid_input',
        message: `Key fact ${stranger} is not a key fact of the current version.`,
      });
  },
  write(repo, documentKey, who, { facts }, note) {
    const setId = repo.sets.insertKeyFactSet(
      documentKey,
      personEdit(who, repo.sets.currentKeyFactSet(documentKey), note, facts),
    );
    return repo.sets.keyFactSets(documentKey).find((s) => s.id === setId)!.version;
  },
  versionLines(repo, documentKey, version) {
    const set = repo.sets.keyFactSets(documentKey).find((s) => s.version === version);
    return set ? repo.sets.keyFactsOfSet(set.id).map((f) => f.text) : [];
  },
  contentLines: (_repo, _documentKey, { facts }) => facts.map((f) => f.text),
};
