/**
 * keyfacts.*: a document's key facts (versioned sets) and people's blind labels per summary:
 * covered or not, and which claims/sentences convey it. Same rules as claims.*.
 */
import { ApiError, type ApiHandlers } from '../../../shared/api';
import type { KeyFactSet } from '../../../shared/contract/keyfacts';
import type { SetRepository } from '../../../db/setRepository';
import type { CoreContext } from '../context';
import { requireOwnSummary } from '../owners';
import { editSet, notFound, setListAnswer, setListQuery, versionHeader } from '../versioned-sets';
import { keyfactsEditor } from './edit';

export type KeyfactsHandlers = Pick<
  ApiHandlers,
  'keyfacts.list' | 'keyfacts.versions' | 'keyfacts.load' | 'keyfacts.record' | 'keyfacts.edit'
>;

function setView(
  sets: SetRepository,
  documentKey: number,
  set: ReturnType<SetRepository['keyFactSets']>[number],
  versions: ReturnType<SetRepository['keyFactSets']>,
): KeyFactSet {
  const origins = sets.keyFactOrigins(set.id);
  return {
    setId: set.id,
    ...versionHeader(set, versions),
    documentKey,
    extractor: set.maker,
    extractorVersion: set.makerVersion,
    facts: sets
      .keyFactsOfSet(set.id)
      .map((f) => ({ id: f.id, index: f.idx, text: f.text, from: origins.get(f.id) ?? [] })),
    labelEvents: sets.keyFactSetEvents(set.id),
  };
}

export function createKeyfactsHandlers(ctx: CoreContext): KeyfactsHandlers {
  const repo = () => ctx.project().repo;
  const person = (name: string) => repo().ensureAnnotator(name, 'person');
  return {
    'keyfacts.list': async (input) =>
      setListAnswer(repo().sets.keyFactListPage(setListQuery(input)), ({ items, maker, ...row }) => ({
        ...row,
        facts: items,
        extractor: maker,
      })),
    'keyfacts.versions': async ({ documentKey }) => {
      const r = repo();
      if (!r.corpus.documentInfo(documentKey)) notFound(`document ${documentKey}`);
      const sets = r.sets.keyFactSets(documentKey);
      return sets.map((set) => setView(r.sets, documentKey, set, sets));
    },
    'keyfacts.load': async ({ key, annotator }, caller) => {
      const r = repo();
      requireOwnSummary(r, caller, key);
      const info = r.corpus.summaryInfo(key) ?? notFound(`summary ${key}`);
      const who = person(annotator);
      const set = r.sets.currentKeyFactSet(info.documentKey);
      const states = set ? r.itemLabels.currentKeyFactStates(set.id, key, who.id) : new Map();
      const claimSet = r.sets.currentClaimSet(key);
      return {
        key,
        summaryId: info.summaryId,
        documentKey: info.documentKey,
        docId: info.docId,
        setId: set?.id ?? null,
        version: set?.version ?? null,
        facts: (set ? r.sets.keyFactsOfSet(set.id) : []).map((f) => ({
          id: f.id,
          index: f.idx,
          text: f.text,
          state: states.get(f.id) ?? { label: null, conveyedBy: { claims: [], sentences: [] }, note: null },
        })),
        sentences: r.corpus.sentences(key),
        claims: (claimSet ? r.sets.claimsOfSet(claimSet.id) : []).map((c) => ({
          id: c.id,
          sentenceUnitId: c.sentenceUnitId,
          text: c.text,
        })),
      };
    },
    'keyfacts.record': async ({ keyFactId, key, annotator, state, timeSpentMs, cause }, caller) => {
      const r = repo();
      requireOwnSummary(r, caller, key);
      const info = r.corpus.summaryInfo(key) ?? notFound(`summary ${key}`);
      if (r.sets.keyFactDocumentKey(keyFactId) !== info.documentKey)
        notFound(`key fact ${keyFactId} of the document of summary ${key}`);
      const units = new Set(r.corpus.sentences(key).map((u) => u.unitId));
      const claimSet = r.sets.currentClaimSet(key);
      const claims = new Set(claimSet ? r.sets.claimsOfSet(claimSet.id).map((c) => c.id) : []);
      if (
        state.conveyedBy.sentences.some((u) => !units.has(u)) ||
        state.conveyedBy.claims.some((c) => !claims.has(c))
      ) {
        throw new ApiError({
          code: 'invalid_input',
          message: 'conveyedBy names a sentence or claim that is not of this summary (current claims).',
        });
      }
      const who = person(annotator);
      const eventId = r.itemLabels.recordKeyFactLabel({
        keyFactId,
        summaryKey: key,
        annotatorId: who.id,
        label: state.label,
        conveyedBy: state.conveyedBy,
        note: state.note,
        timeSpentMs,
        cause,
      });
      return { eventId: eventId!, keyFactId, key, state };
    },
    'keyfacts.edit': async ({ documentKey, annotator, basedOnVersion, facts, note }, caller) => {
      const r = repo();
      if (!r.corpus.documentInfo(documentKey)) notFound(`document ${documentKey}`);
      const { version, proposal } = editSet(r, caller, keyfactsEditor, {
        target: documentKey,
        annotator,
        basedOnVersion,
        content: { facts },
        note: note ?? null,
      });
      const sets = r.sets.keyFactSets(documentKey);
      return {
        ...setView(
          r.sets,
          documentKey,
          sets.find((s) => s.version === version)!,
          sets,
        ),
        ...(proposal ? { proposal } : {}),
      };
    },
  };
}
