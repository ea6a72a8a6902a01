/**
 * The claims and key-facts part of merging annotators' copies: people's claim labels, key-fact
 * labels (with the claims and sentences that convey them) and sentence–key-fact events, with
 * their notes (a note without a label too).
 *
 * - An event's claim or key fact is found here by its set's identity (db/mergeRepository.ts
 *   `claimSetIdentity`, `keyFactSetIdentity`: the summary or document and the items' text, not the
 *   version number) and its index. A set a person made that this project lacks is added as its
 *   summary's or document's next version (as a person's scaffold version is), with the origins of
 *   its items in its base; a model or imported set this project lacks cannot be made here, so it is
 *   a problem and the file merges nothing: import that set here first.
 * - An event is recognised by its content (`itemEventIdentity`), so merging twice adds nothing;
 *   it keeps its created_at, blind flag and note, and its origin as label events do.
 *
 * `planItemMerge` only reads; `applyItemMerge` writes, in the caller's transaction.
 */
import {
  itemEventIdentity,
  summaryIdentity,
  type ItemSets,
  type MergeRepository,
  type OtherProjectContents,
  type PortablePersonSet,
} from '../../../db/mergeRepository';

export interface ItemMergePlan {
  problems: string[];
  sets: ItemSets;
  /** People's claim sets and key-fact lists this project lacks, to add (a base before its edits). */
  add: PortablePersonSet[];
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
  const add: PortablePersonSet[] = [];
  if (other.itemEvents.length === 0) return { problems, sets, add };
  const here = lookups(sets);
  const reported = new Set<string>();
  const hereSets = new Set([...sets.claimSets.values(), ...sets.keyFactSets.values()]);
  const fileSets = new Map(other.personSets.map((p) => [p.identity, p]));
  const adding = new Set<string>();
  // A person's set this project lacks can be added when its summary or document is here (its base first, when the file has it).
  const addable = (identity: string): boolean => {
    if (hereSets.has(identity) || adding.has(identity)) return true;
    const set = fileSets.get(identity);
    if (!set) return false;
    const owner =
      set.kind === 'claim' ? target.summaryKey(set.dataset, set.owner) : target.documentKey(set.dataset, set.owner);
    if (owner === null) return false;
    if (set.baseIdentity !== null) addable(set.baseIdentity);
    adding.add(identity);
    add.push(set);
    return true;
  };
  const inAdded = (identity: string, index: number) =>
    addable(identity) && index < (fileSets.get(identity)?.items.length ?? 0);
  const summaries = target.summaries();
  for (const e of other.itemEvents) {
    if (!summaries.has(summaryIdentity(e.dataset, e.summaryId))) {
      const key = `summary\u0000${e.dataset}\u0000${e.summaryId}`;
      if (!reported.has(key))
        problems.push(
          `${e.dataset}/${e.summaryId}: not in this project, and the file holds ${e.annotator}'s claim or key-fact labels on it (import dataset "${e.dataset}" here first, then merge again)`,
        );
      reported.add(key);
      continue;
    }
    // The set the event rests on, and (key facts) the claim sets of the claims that convey it.
    const needed: Array<{ kind: 'claim set' | 'key-fact list'; set: string; found: boolean }> =
      e.kind === 'claim'
        ? [
            {
              kind: 'claim set',
              set: e.setIdentity,
              found: here.claims.has(itemKey(e.setIdentity, e.index)) || inAdded(e.setIdentity, e.index),
            },
          ]
        : e.kind === 'key_fact'
          ? [
              {
                kind: 'key-fact list',
                set: e.setIdentity,
                found: here.keyFacts.has(itemKey(e.setIdentity, e.index)) || inAdded(e.setIdentity, e.index),
              },
              ...e.conveyedBy.claims.map(([set, idx]) => ({
                kind: 'claim set' as const,
                set,
                found: here.claims.has(itemKey(set, idx)) || inAdded(set, idx),
              })),
            ]
          : [
              {
                kind: 'key-fact list',
                set: e.setIdentity,
                found: here.keyFactSets.has(e.setIdentity) || addable(e.setIdentity),
              },
            ];
    for (const need of needed) {
      if (need.found || reported.has(need.set)) continue;
      reported.add(need.set);
      problems.push(
        `${e.dataset}/${e.summaryId}: the ${need.kind} that ${e.annotator}'s labels rest on is not in this project (import or make the same ${need.kind} here first, then merge again)`,
      );
    }
  }
  return { problems, sets, add };
}

export function applyItemMerge(
  target: MergeRepository,
  other: OtherProjectContents,
  plan: ItemMergePlan,
  annotatorId: (name: string) => number,
  merge: { sourceProject: string; mergeId: number },
): { added: number; present: number; setsAdded: number } {
  const counts = { added: 0, present: 0, setsAdded: 0 };
  if (other.itemEvents.length === 0) return counts;
  const summaries = target.summaries();
  let sets = plan.sets;
  for (const set of plan.add) {
    const now = lookups(sets);
    const setIds = new Map([...sets.claimSets, ...sets.keyFactSets].map(([id, identity]) => [identity, id]));
    const items = set.kind === 'claim' ? now.claims : now.keyFacts;
    const unitIds = set.kind === 'claim' ? summaries.get(summaryIdentity(set.dataset, set.owner))!.unitIds : [];
    target.insertPersonSet(set, {
      ownerKey:
        set.kind === 'claim' ? target.summaryKey(set.dataset, set.owner)! : target.documentKey(set.dataset, set.owner)!,
      basedOnId: set.baseIdentity === null ? null : (setIds.get(set.baseIdentity) ?? null),
      createdBy: set.createdBy === null ? null : annotatorId(set.createdBy),
      items: set.items.map((item) => ({
        sentenceUnitId: item.sentence === null ? null : unitIds[item.sentence]!,
        text: item.text,
        from:
          set.baseIdentity === null ? [] : item.from.flatMap((idx) => items.get(itemKey(set.baseIdentity!, idx)) ?? []),
      })),
    });
    counts.setsAdded += 1;
    sets = target.itemSets();
  }
  const here = lookups(sets);
  const identities = target.itemEventIdentities(sets);
  for (const e of other.itemEvents) {
    const identity = itemEventIdentity(e);
    if (identities.has(identity)) {
      counts.present += 1;
      continue;
    }
    const summaryKey = target.summaryKey(e.dataset, e.summaryId)!;
    const origin =
      e.originProject !== null && e.originEvent !== null
        ? { originProject: e.originProject, originEvent: e.originEvent }
        : { originProject: merge.sourceProject, originEvent: e.id };
    const common = { summaryKey, annotatorId: annotatorId(e.annotator), ...origin, mergeId: merge.mergeId };
    if (e.kind === 'claim') {
      target.insertItemEvent(e, { ...common, targetId: here.claims.get(itemKey(e.setIdentity, e.index))! });
    } else if (e.kind === 'key_fact') {
      const unitIds = summaries.get(summaryIdentity(e.dataset, e.summaryId))!.unitIds;
      const conveyedBy = JSON.stringify({
        claims: e.conveyedBy.claims.map(([set, idx]) => here.claims.get(itemKey(set, idx))!),
        sentences: e.conveyedBy.sentences.map((idx) => unitIds[idx]!),
      });
      target.insertItemEvent(e, {
        ...common,
        targetId: here.keyFacts.get(itemKey(e.setIdentity, e.index))!,
        conveyedBy,
      });
    } else {
      const unitId = summaries.get(summaryIdentity(e.dataset, e.summaryId))!.unitIds[e.index]!;
      target.insertItemEvent(e, { ...common, targetId: unitId, keyFactSetId: here.keyFactSets.get(e.setIdentity)! });
    }
    identities.add(identity);
    counts.added += 1;
  }
  return counts;
}
