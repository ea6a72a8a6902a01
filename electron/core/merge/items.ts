/**
 * The claims and key-facts part of merging annotators' copies: people's claim labels, key-fact
 * labels (with the claims and sentences that convey them) and sentence–key-fact events, with
 * their notes (a note without a label too).
 *
 * - An event's claim or key fact is found here by its set's identity (db/mergeRepository.ts
 *   `claimSetIdentity`, `keyFactSetIdentity`: the summary or document and the items' text, not the
 *   version number) and its index. A set the file has and this project lacks is a problem and the
 *   file merges nothing (as for sentences that differ): import or make that set here first.
 * - An event is recognised by its content (`itemEventIdentity`), so merging twice adds nothing;
 *   it keeps its created_at, blind flag and note, and its origin as label events do.
 *
 * `planItemMerge` only reads; `applyItemMerge` writes, in the caller's transaction.
 */
import { itemEventIdentity, summaryIdentity, type ItemSets, type MergeRepository, type OtherProjectContents } from '../../../db/mergeRepository';

export interface ItemMergePlan {
  problems: string[];
  sets: ItemSets;
}

const itemKey = (setIdentity: string, index: number): string => `${setIdentity}\u0000${index}`;

/** This project's claims and key facts by (set identity, index), and key-fact sets by identity. */
function lookups(sets: ItemSets) {
  const claims = new Map([...sets.claims].map(([id, [set, idx]]) => [itemKey(set, idx), id]));
  const keyFacts = new Map([...sets.keyFacts].map(([id, [set, idx]]) => [itemKey(set, idx), id]));
  const keyFactSets = new Map([...sets.keyFactSets].map(([id, identity]) => [identity, id]));
  return { claims, keyFacts, keyFactSets };
}

export function planItemMerge(target: MergeRepository, other: OtherProjectContents): ItemMergePlan {
  const sets = target.itemSets();
  const problems: string[] = [];
  if (other.itemEvents.length === 0) return { problems, sets };
  const here = lookups(sets);
  const reported = new Set<string>();
  const summaries = target.summaries();
  for (const e of other.itemEvents) {
    if (!summaries.has(summaryIdentity(e.dataset, e.summaryId))) {
      const key = `summary\u0000${e.dataset}\u0000${e.summaryId}`;
      if (!reported.has(key)) problems.push(`${e.dataset}/${e.summaryId}: not in this project, and the file holds ${e.annotator}'s claim or key-fact labels on it (import dataset "${e.dataset}" here first, then merge again)`);
      reported.add(key);
      continue;
    }
    // The set the event rests on, and (key facts) the claim sets of the claims that convey it.
    const needed: Array<{ kind: 'claim set' | 'key-fact list'; set: string; found: boolean }> =
      e.kind === 'claim'
        ? [{ kind: 'claim set', set: e.setIdentity, found: here.claims.has(itemKey(e.setIdentity, e.index)) }]
        : e.kind === 'key_fact'
          ? [
              { kind: 'key-fact list', set: e.setIdentity, found: here.keyFacts.has(itemKey(e.setIdentity, e.index)) },
              ...e.conveyedBy.claims.map(([set, idx]) => ({ kind: 'claim set' as const, set, found: here.claims.has(itemKey(set, idx)) })),
            ]
          : [{ kind: 'key-fact list', set: e.setIdentity, found: here.keyFactSets.has(e.setIdentity) }];
    for (const need of needed) {
      if (need.found || reported.has(need.set)) continue;
      reported.add(need.set);
      problems.push(`${e.dataset}/${e.summaryId}: the ${need.kind} that ${e.annotator}'s labels rest on is not in this project (import or make the same ${need.kind} here first, then merge again)`);
    }
  }
  return { problems, sets };
}

export function applyItemMerge(
  target: MergeRepository,
  other: OtherProjectContents,
  plan: ItemMergePlan,
  annotatorId: (name: string) => number,
  merge: { sourceProject: string; mergeId: number },
): { added: number; present: number } {
  const counts = { added: 0, present: 0 };
  if (other.itemEvents.length === 0) return counts;
  const here = lookups(plan.sets);
  const identities = target.itemEventIdentities(plan.sets);
  const summaries = target.summaries();
  for (const e of other.itemEvents) {
    const identity = itemEventIdentity(e);
    if (identities.has(identity)) {
      counts.present += 1;
      continue;
    }
    const summaryKey = target.summaryKey(e.dataset, e.summaryId)!;
    const origin = e.originProject !== null && e.originEvent !== null ? { originProject: e.originProject, originEvent: e.originEvent } : { originProject: merge.sourceProject, originEvent: e.id };
    const common = { summaryKey, annotatorId: annotatorId(e.annotator), ...origin, mergeId: merge.mergeId };
    if (e.kind === 'claim') {
      target.insertItemEvent(e, { ...common, targetId: here.claims.get(itemKey(e.setIdentity, e.index))! });
    } else if (e.kind === 'key_fact') {
      const unitIds = summaries.get(summaryIdentity(e.dataset, e.summaryId))!.unitIds;
      const conveyedBy = JSON.stringify({
        claims: e.conveyedBy.claims.map(([set, idx]) => here.claims.get(itemKey(set, idx))!),
        sentences: e.conveyedBy.sentences.map((idx) => unitIds[idx]!),
      });
      target.insertItemEvent(e, { ...common, targetId: here.keyFacts.get(itemKey(e.setIdentity, e.index))!, conveyedBy });
    } else {
      const unitId = summaries.get(summaryIdentity(e.dataset, e.summaryId))!.unitIds[e.index]!;
      target.insertItemEvent(e, { ...common, targetId: unitId, keyFactSetId: here.keyFactSets.get(e.setIdentity)! });
    }
    identities.add(identity);
    counts.added += 1;
  }
  return counts;
}
