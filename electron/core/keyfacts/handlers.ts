/**
 * keyfacts.*: a document's key facts (versioned sets) and people's blind labels per summary:
 * covered or not, and which claims/sentences convey it. Same rules as claims.*.
 */
import { ApiError, type ApiHandlers } from '../../../shared/api';
import type { KeyFactSet } from '../../../shared/contract/keyfacts';
import type { AccuracyRepository } from '../../../db/accuracyRepository';
import type { CoreContext } from '../context';
import { notFound, personEdit, requireEditedVersion, setHeader } from '../accuracy/versioned-sets';

export type KeyfactsHandlers = Pick<ApiHandlers, 'keyfacts.list' | 'keyfacts.versions' | 'keyfacts.load' | 'keyfacts.record' | 'keyfacts.edit'>;

function setView(acc: AccuracyRepository, documentKey: number, set: ReturnType<AccuracyRepository['keyFactSets']>[number], versions: ReturnType<AccuracyRepository['keyFactSets']>): KeyFactSet {
  const origins = acc.keyFactOrigins(set.id);
  return {
    ...setHeader(set, versions),
    documentKey,
    extractor: set.maker,
    extractorVersion: set.makerVersion,
    facts: acc.keyFactsOfSet(set.id).map((f) => ({ id: f.id, index: f.idx, text: f.text, from: origins.get(f.id) ?? [] })),
    labelEvents: acc.keyFactSetEvents(set.id),
  };
}

export function createKeyfactsHandlers(ctx: CoreContext): KeyfactsHandlers {
  const repo = () => ctx.project().repo;
  const person = (name: string) => repo().ensureAnnotator(name, 'person');
  return {
    'keyfacts.list': async ({ dataset }) => {
      const r = repo();
      const names = dataset ? [dataset] : r.datasetStats().map((d) => d.name);
      return names.flatMap((name) => r.accuracy.keyFactList(name).map(({ items, maker, ...row }) => ({ ...row, dataset: name, facts: items, extractor: maker })));
    },
    'keyfacts.versions': async ({ documentKey }) => {
      const acc = repo().accuracy;
      if (!acc.documentInfo(documentKey)) notFound(`document ${documentKey}`);
      const sets = acc.keyFactSets(documentKey);
      return sets.map((set) => setView(acc, documentKey, set, sets));
    },
    'keyfacts.load': async ({ key, annotator }) => {
      const r = repo();
      const info = r.accuracy.summaryInfo(key) ?? notFound(`summary ${key}`);
      const who = person(annotator);
      const set = r.accuracy.currentKeyFactSet(info.documentKey);
      const states = set ? r.accuracy.currentKeyFactStates(set.id, key, who.id) : new Map();
      const claimSet = r.accuracy.currentClaimSet(key);
      return {
        key,
        summaryId: info.summaryId,
        documentKey: info.documentKey,
        docId: info.docId,
        setId: set?.id ?? null,
        version: set?.version ?? null,
        facts: (set ? r.accuracy.keyFactsOfSet(set.id) : []).map((f) => ({ id: f.id, index: f.idx, text: f.text, state: states.get(f.id) ?? { label: null, conveyedBy: { claims: [], sentences: [] }, note: null } })),
        sentences: r.accuracy.sentences(key),
        claims: (claimSet ? r.accuracy.claimsOfSet(claimSet.id) : []).map((c) => ({ id: c.id, sentenceUnitId: c.sentenceUnitId, text: c.text })),
      };
    },
    'keyfacts.record': async ({ keyFactId, key, annotator, state, timeSpentMs, cause }) => {
      const r = repo();
      const info = r.accuracy.summaryInfo(key) ?? notFound(`summary ${key}`);
      if (r.accuracy.keyFactDocumentKey(keyFactId) !== info.documentKey) notFound(`key fact ${keyFactId} of the document of summary ${key}`);
      const units = new Set(r.accuracy.sentences(key).map((u) => u.unitId));
      const claimSet = r.accuracy.currentClaimSet(key);
      const claims = new Set(claimSet ? r.accuracy.claimsOfSet(claimSet.id).map((c) => c.id) : []);
      if (state.conveyedBy.sentences.some((u) => !units.has(u)) || state.conveyedBy.claims.some((c) => !claims.has(c))) {
        throw new ApiError({ code: 'invalid_input', message: 'conveyedBy names a sentence or claim that is not of this summary (current claims).' });
      }
      const who = person(annotator);
      const eventId = r.accuracy.recordKeyFactLabel({ keyFactId, summaryKey: key, annotatorId: who.id, label: state.label, conveyedBy: state.conveyedBy, note: state.note, timeSpentMs, cause });
      return { eventId: eventId!, keyFactId, key, state };
    },
    'keyfacts.edit': async ({ documentKey, annotator, basedOnVersion, facts, note }) => {
      const r = repo();
      if (!r.accuracy.documentInfo(documentKey)) notFound(`document ${documentKey}`);
      const who = person(annotator);
      return r.transaction(() => {
        const current = r.accuracy.currentKeyFactSet(documentKey);
        requireEditedVersion(current, basedOnVersion, `The key facts of document ${documentKey}`);
        const previous = new Set(current ? r.accuracy.keyFactsOfSet(current.id).map((f) => f.id) : []);
        const stranger = facts.flatMap((f) => f.from).find((id) => !previous.has(id));
        if (stranger !== undefined) throw new ApiError({ code: 'invalid_input', message: `Key fact ${stranger} is not a key fact of the current version.` });
        const setId = r.accuracy.insertKeyFactSet(documentKey, personEdit(who, current, note, facts));
        const sets = r.accuracy.keyFactSets(documentKey);
        return setView(r.accuracy, documentKey, sets.find((s) => s.id === setId)!, sets);
      });
    },
  };
}
