/**
 * The Semantic Scaffold part of merging annotators' copies: people's alignment events
 * (annotators of kind person; judges' alignments are not merged, as judge predictions are not)
 * and the scaffold versions people made (source person) that those alignments rest on.
 *
 * - A version of the file is matched to one here by (dataset, doc id) and its items' content
 *   (db/mergeRepository.ts `scaffoldIdentity`), never by version number or id: two copies number
 *   their edits alike. A person's version this project lacks is added as the document's next
 *   version when its base is matched (or added) too; a model or imported version this project
 *   lacks cannot be made here, so alignments resting on it are a problem and the file merges
 *   nothing (as for sentences that differ).
 * - An alignment event is recognised by its content (`alignmentIdentity`: summary, the identity of
 *   its version, item kind and key, annotator, value, sentences, note, time spent, cause,
 *   created_at), so merging twice adds nothing and chains A→B, B→C, A→C stay idempotent. The note
 *   (scaffold item notes, on an item aligned or not), the blind flag and created_at are kept, and
 *   the origin as label events keep theirs.
 *
 * `planScaffoldMerge` only reads (problems first, nothing written); `applyScaffoldMerge` writes, in
 * the caller's transaction.
 */
import {
  alignmentIdentity,
  itemIdentity,
  scaffoldIdentity,
  type MergeRepository,
  type OtherProjectContents,
  type PortableScaffold,
} from '../../../db/mergeRepository';

/** How one version of the file is found here: an existing version, or a person's version to add. */
type Resolution = { kind: 'match'; targetId: number } | { kind: 'add'; documentKey: number; base: number | null };

export interface ScaffoldMergePlan {
  problems: string[];
  /** File scaffold id → how it is found here; only the versions people's alignments need. */
  resolutions: Map<number, Resolution>;
}

export interface ScaffoldMergeCounts {
  alignmentsAdded: number;
  alignmentsPresent: number;
  scaffoldsAdded: number;
}

const describe = (s: PortableScaffold): string =>
  `${s.dataset}/${s.docId}: scaffold version ${s.version} (${s.source})`;

export function planScaffoldMerge(target: MergeRepository, other: OtherProjectContents): ScaffoldMergePlan {
  const problems: string[] = [];
  const resolutions = new Map<number, Resolution>();
  if (other.alignments.length === 0) return { problems, resolutions };
  const fileScaffolds = new Map(other.scaffolds.map((s) => [s.id, s]));
  const here = new Map<string, number>();
  for (const s of target.scaffolds()) if (!here.has(scaffoldIdentity(s))) here.set(scaffoldIdentity(s), s.id);
  const failed = new Set<number>();

  const resolve = (id: number): Resolution | null => {
    const known = resolutions.get(id);
    if (known) return known;
    if (failed.has(id)) return null;
    const s = fileScaffolds.get(id)!;
    const match = here.get(scaffoldIdentity(s));
    let resolution: Resolution | null = null;
    if (match !== undefined) resolution = { kind: 'match', targetId: match };
    else if (s.source !== 'person')
      problems.push(
        `${describe(s)} differs from every version of that document's scaffold here, and people's alignments rest on it`,
      );
    else {
      const documentKey = target.documentKey(s.dataset, s.docId);
      if (documentKey === null)
        problems.push(
          `${describe(s)}: document not in this project (import dataset "${s.dataset}" here first, then merge again)`,
        );
      else if (s.basedOnId === null || resolve(s.basedOnId) !== null)
        resolution = { kind: 'add', documentKey, base: s.basedOnId };
      else problems.push(`${describe(s)}: the version it was edited from cannot be matched here`);
    }
    if (resolution) resolutions.set(id, resolution);
    else failed.add(id);
    return resolution;
  };

  const kinds = target.annotatorKinds();
  const missingSummaries = new Map<string, number>();
  for (const a of other.alignments) {
    resolve(a.scaffoldId);
    if (target.summaryKey(a.dataset, a.summaryId) === null) {
      const key = `${a.dataset}/${a.summaryId}`;
      missingSummaries.set(key, (missingSummaries.get(key) ?? 0) + 1);
    }
  }
  for (const [key, n] of missingSummaries)
    problems.push(`${key}: not in this project, and the file holds ${n} scaffold alignment(s) on it`);
  for (const name of new Set(
    other.alignments
      .filter((a) => a.importKey === null && kinds.get(a.annotator) === 'imported')
      .map((a) => a.annotator),
  )) {
    problems.push(
      `annotator "${name}": scaffold alignments made in Loupe in the file, but "${name}" is an imported label set here (read-only)`,
    );
  }
  return { problems, resolutions };
}

/** Writes the plan (after `planScaffoldMerge` found no problem): missing person versions, then the alignment events not present. */
export function applyScaffoldMerge(
  target: MergeRepository,
  other: OtherProjectContents,
  plan: ScaffoldMergePlan,
  annotatorId: (name: string) => number,
  merge: { sourceProject: string; mergeId: number },
): ScaffoldMergeCounts {
  const counts: ScaffoldMergeCounts = { alignmentsAdded: 0, alignmentsPresent: 0, scaffoldsAdded: 0 };
  if (other.alignments.length === 0) return counts;
  const hereScaffolds = target.scaffolds();
  const hereIdentity = new Map(hereScaffolds.map((s) => [s.id, scaffoldIdentity(s)]));
  const hereItems = new Map(
    hereScaffolds.map((s) => [s.id, new Map(s.items.map((i) => [itemIdentity(i.kind, i.key), i.id]))]),
  );
  const { identities, importKeys } = target.alignmentKeys(hereIdentity);

  // File versions in id order: a base is resolved (and added) before its edits.
  const targetIdOf = new Map<number, number>();
  const byIdentity = new Map([...hereIdentity].map(([id, identity]) => [identity, id]));
  for (const s of other.scaffolds) {
    const r = plan.resolutions.get(s.id);
    if (!r) continue;
    // Two versions of the file with the same items (or one this merge just added) are one version here.
    const same = r.kind === 'match' ? r.targetId : byIdentity.get(scaffoldIdentity(s));
    if (same !== undefined) {
      targetIdOf.set(s.id, same);
      continue;
    }
    if (r.kind !== 'add') continue;
    const basedOnId = r.base === null ? null : targetIdOf.get(r.base)!;
    const baseItems = basedOnId === null ? new Map<string, number>() : hereItems.get(basedOnId)!;
    const added = target.insertScaffold(r.documentKey, s, {
      basedOnId,
      createdBy: s.createdBy === null ? null : annotatorId(s.createdBy),
      fromItem: (fromKey) => baseItems.get(fromKey) ?? null,
    });
    targetIdOf.set(s.id, added.id);
    hereItems.set(added.id, added.items);
    byIdentity.set(scaffoldIdentity(s), added.id);
    counts.scaffoldsAdded += 1;
  }

  const fileIdentity = new Map(other.scaffolds.map((s) => [s.id, scaffoldIdentity(s)]));
  for (const a of other.alignments) {
    const identity = alignmentIdentity(a, fileIdentity.get(a.scaffoldId)!);
    if (identities.has(identity) || (a.importKey !== null && importKeys.has(a.importKey))) {
      counts.alignmentsPresent += 1;
      continue;
    }
    const scaffoldHere = targetIdOf.get(a.scaffoldId)!;
    const itemId = hereItems.get(scaffoldHere)!.get(itemIdentity(a.itemKind, a.itemKey))!;
    // As a label event: an alignment the file had merged keeps its first origin; one made there is (its project, its event).
    const origin =
      a.originProject !== null && a.originEvent !== null
        ? { originProject: a.originProject, originEvent: a.originEvent }
        : { originProject: merge.sourceProject, originEvent: a.id };
    target.insertAlignment(a, {
      itemId,
      summaryKey: target.summaryKey(a.dataset, a.summaryId)!,
      annotatorId: annotatorId(a.annotator),
      ...origin,
      mergeId: merge.mergeId,
    });
    identities.add(identity);
    if (a.importKey !== null) importKeys.add(a.importKey);
    counts.alignmentsAdded += 1;
  }
  return counts;
}
