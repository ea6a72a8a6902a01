/** A summary's claims as a shared set: checking and writing a person's edit, and its lines for a diff. */
import { ApiError } from '../../../shared/api';
import type { Repository } from '../../../db/repository';
import { personEdit, type SetEditor } from '../versioned-sets';

function sentenceNumbers(repo: Repository, key: number): Map<number, number> {
  return new Map(repo.corpus.sentences(key).map((u) => [u.unitId, u.index + 1]));
}

const line = (numbers: Map<number, number>, c: { sentenceUnitId: number; text: string }) =>
  `Sentence ${numbers.get(c.sentenceUnitId) ?? '?'}: ${c.text}`;

export const claimsEditor: SetEditor<'claims'> = {
  kind: 'claims',
  subject: (key) => `The claims of summary ${key}`,
  count: 'many',
  place: (repo, key) => ({ documentKey: repo.corpus.summaryInfo(key)!.documentKey, summaryKey: key }),
  currentVersion: (repo, key) => repo.sets.currentClaimSet(key)?.version ?? null,
  check(repo, key, { claims }) {
    const current = repo.sets.currentClaimSet(key);
    const units = new Set(repo.corpus.sentences(key).map((u) => u.unitId));
    const previous = new Set(current ? repo.sets.claimsOfSet(current.id).map((c) => c.id) : []);
    for (const c of claims) {
      if (!units.has(c.sentenceUnitId))
        throw new ApiError({
          code: 'invalid_input',
          message: `Sentence ${c.sentenceUnitId} is not a sentence of summary ${key}.`,
        });
      const stranger = c.from.find((id) => !previous.has(id));
      if (stranger !== undefined)
        throw new ApiError({
          code: 'invalid_input',
          message: `Claim ${stranger} is not a claim of the current version.`,
        });
    }
  },
  write(repo, key, who, { claims }, note) {
    const setId = repo.sets.insertClaimSet(key, personEdit(who, repo.sets.currentClaimSet(key), note, claims));
    return repo.sets.claimSets(key).find((s) => s.id === setId)!.version;
  },
  versionLines(repo, key, version) {
    const set = repo.sets.claimSets(key).find((s) => s.version === version);
    const numbers = sentenceNumbers(repo, key);
    return set ? repo.sets.claimsOfSet(set.id).map((c) => line(numbers, c)) : [];
  },
  contentLines(repo, key, { claims }) {
    const numbers = sentenceNumbers(repo, key);
    return claims.map((c) => line(numbers, c));
  },
};
