/**
 * claims.*: a summary's claims (units of kind claim under their sentences), versioned sets, and
 * people's blind labels on them. An edit writes a new version; labels stay on the version they
 * were given on (schema 8). The annotation calls return only the caller's own labels.
 */
import type { ApiHandlers } from '../../../shared/api';
import type { ClaimSet } from '../../../shared/contract/claims';
import type { SetRepository } from '../../../db/setRepository';
import type { CoreContext } from '../context';
import { requireOwnSummary } from '../owners';
import { editSet, notFound, setListAnswer, setListQuery, versionHeader } from '../versioned-sets';
import { claimsEditor } from './edit';

export type ClaimsHandlers = Pick<
  ApiHandlers,
  'claims.list' | 'claims.versions' | 'claims.load' | 'claims.record' | 'claims.edit'
>;

export function claimSetView(
  sets: SetRepository,
  key: number,
  set: ReturnType<SetRepository['claimSets']>[number],
  versions: ReturnType<SetRepository['claimSets']>,
): ClaimSet {
  const origins = sets.claimOrigins(set.id);
  return {
    setId: set.id,
    ...versionHeader(set, versions),
    key,
    decomposer: set.maker,
    decomposerVersion: set.makerVersion,
    claims: sets.claimsOfSet(set.id).map((c) => ({
      id: c.id,
      sentenceUnitId: c.sentenceUnitId,
      sentenceIndex: c.sentenceIndex,
      index: c.idx,
      text: c.text,
      from: origins.get(c.id) ?? [],
    })),
    labelEvents: sets.claimSetEvents(set.id),
  };
}

export function createClaimsHandlers(ctx: CoreContext): ClaimsHandlers {
  const repo = () => ctx.project().repo;
  const person = (name: string) => repo().ensureAnnotator(name, 'person');
  return {
    'claims.list': async (input) =>
      setListAnswer(repo().sets.claimListPage(setListQuery(input)), ({ items, maker, ...row }) => ({
        ...row,
        claims: items,
        decomposer: maker,
      })),
    'claims.versions': async ({ key }) => {
      const r = repo();
      if (!r.corpus.summaryInfo(key)) notFound(`summary ${key}`);
      const sets = r.sets.claimSets(key);
      return sets.map((set) => claimSetView(r.sets, key, set, sets));
    },
    'claims.load': async ({ key, annotator }, caller) => {
      const r = repo();
      requireOwnSummary(r, caller, key);
      const info = r.corpus.summaryInfo(key) ?? notFound(`summary ${key}`);
      const who = person(annotator);
      const set = r.sets.currentClaimSet(key);
      const claims = set ? r.sets.claimsOfSet(set.id) : [];
      const states = set ? r.itemLabels.currentClaimStates(set.id, who.id) : new Map();
      return {
        key,
        summaryId: info.summaryId,
        setId: set?.id ?? null,
        version: set?.version ?? null,
        sentences: r.corpus.sentences(key).map((u) => ({
          unitId: u.unitId,
          index: u.index,
          text: u.text,
          claims: claims
            .filter((c) => c.sentenceUnitId === u.unitId)
            .map((c) => ({
              id: c.id,
              index: c.idx,
              text: c.text,
              state: states.get(c.id) ?? { label: null, errorType: null, note: null },
            })),
        })),
      };
    },
    'claims.record': async ({ claimId, annotator, state, timeSpentMs, cause }, caller) => {
      const r = repo();
      const key = r.sets.claimSummaryKey(claimId) ?? notFound(`claim ${claimId}`);
      requireOwnSummary(r, caller, key);
      const who = person(annotator);
      const eventId = r.itemLabels.recordClaimLabel({
        claimId,
        annotatorId: who.id,
        label: state.label,
        errorType: state.errorType,
        note: state.note,
        timeSpentMs,
        cause,
      });
      return { eventId: eventId!, claimId, state };
    },
    'claims.edit': async ({ key, annotator, basedOnVersion, claims, note }, caller) => {
      const r = repo();
      if (!r.corpus.summaryInfo(key)) notFound(`summary ${key}`);
      const { version, proposal } = editSet(r, caller, claimsEditor, {
        target: key,
        annotator,
        basedOnVersion,
        content: { claims },
        note: note ?? null,
      });
      const sets = r.sets.claimSets(key);
      return {
        ...claimSetView(
          r.sets,
          key,
          sets.find((s) => s.version === version)!,
          sets,
        ),
        ...(proposal ? { proposal } : {}),
      };
    },
  };
}
