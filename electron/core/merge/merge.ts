/**
 * Merging annotators' copies (teams without a server). Each annotator labels offline in
 * a copy of the project (or an assignment file made from it); `mergeProjects` brings the label
 * histories of those files into the open project:
 *
 * - Units must match: summaries by (dataset, summary id), sentences by index and text. A summary
 *   whose sentences differ is a problem and the file merges nothing. A summary the other file
 *   has and this project lacks is a problem only if it carries labels (they would be lost: import
 *   that dataset here first, from the same source file, then merge again); without labels it is
 *   counted and ignored. Nothing else (documents, samples, judges) is merged.
 * - Every label event (annotation and review phase, with its review queue) not already present is
 *   copied with its annotator (matched by name, created when missing), label, error type, note,
 *   time spent, cause and created_at, and its provenance (db/mergeRepository.ts: origin project
 *   and event, kept from an earlier merge; the merge row). Presence is by content, so merging
 *   twice changes nothing, chains A→B→C stay idempotent and the project's own events coming back
 *   from a copy are recognised.
 * - People's claim labels, key-fact labels and sentence–key-fact events, with their notes
 *   (./items.ts): claims and key facts matched by their set's content; a set a person made that
 *   this project lacks is added; any other set it lacks refuses the file.
 * - People's scaffold alignment events and the person-made scaffold versions they rest on
 *   (schema 9, ./scaffolds.ts): versions matched by (dataset, doc id) and item content, events by
 *   content; judges' alignments are not merged. A scaffold that cannot be matched refuses the file.
 * - One transaction per file: a file merges completely or not at all.
 * - The current label stays the latest event by created_at (db/latest.ts), whatever the order of
 *   the merges.
 */
import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DatabaseConstructor } from '../../../db/open';
import type { Repository } from '../../../db/repository';
import {
  MergeRepository,
  OtherProjectError,
  eventIdentity,
  readOtherProject,
  summaryIdentity,
  type OtherProjectContents,
} from '../../../db/mergeRepository';
import type { Database } from '../../../db/open';
import type { AnnotatorKind } from '../../../db/annotatorKind';
import { applyScaffoldMerge, planScaffoldMerge } from './scaffolds';
import { applyItemMerge, planItemMerge } from './items';

export interface MergeFileResult {
  path: string;
  /** The other file's project id (null: it has none, or it could not be read). */
  sourceProject: string | null;
  /** True when the file's events are in the project (added now or before). */
  merged: boolean;
  /** Label events and people's scaffold alignment events together (the breakdown follows). */
  eventsAdded: number;
  eventsPresent: number;
  /** Schema 9: people's scaffold alignment events added / already present, and people's scaffold versions added. */
  alignmentsAdded: number;
  alignmentsPresent: number;
  scaffoldsAdded: number;
  /** Schema 8: people's claim and key-fact events (labels, notes, sentence–key-fact) added / already present. */
  itemLabelsAdded: number;
  itemLabelsPresent: number;
  /** People's claim sets and key-fact lists this project lacked, added as their owner's next version. */
  itemSetsAdded: number;
  /** Annotators with events in the file, and those created here by this merge. */
  annotators: string[];
  annotatorsAdded: string[];
  summariesMatched: number;
  /** Summaries of the other file that this project lacks and that carry no label (ignored). */
  summariesNotInProject: number;
  problems: string[];
}

const MAX_PROBLEMS = 200;

/** The project's stable id (project_meta `project_id`), created when missing. Judges' stored keys use it too. */
export function ensureProjectId(repo: Repository): string {
  let id = repo.getMeta('project_id');
  if (id === null) {
    id = randomUUID();
    repo.setMeta('project_id', id);
  }
  return id;
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}

function emptyResult(path: string): MergeFileResult {
  return {
    path,
    sourceProject: null,
    merged: false,
    eventsAdded: 0,
    eventsPresent: 0,
    alignmentsAdded: 0,
    alignmentsPresent: 0,
    scaffoldsAdded: 0,
    itemLabelsAdded: 0,
    itemLabelsPresent: 0,
    itemSetsAdded: 0,
    annotators: [],
    annotatorsAdded: [],
    summariesMatched: 0,
    summariesNotInProject: 0,
    problems: [],
  };
}

/** Merges each file into the open project (db: its connection; projectPath: its file), one transaction per file. */
export function mergeProjects(
  options: { Database: DatabaseConstructor; db: Database; repo: Repository; projectPath: string },
  paths: string[],
): MergeFileResult[] {
  const target = new MergeRepository(options.db);
  // The project gets its id before any copy of it can be made from a merged state.
  ensureProjectId(options.repo);
  return paths.map((p) => {
    const path = resolve(p);
    const result = emptyResult(path);
    if (samePath(path, options.projectPath)) {
      result.problems.push(`${path} is the open project itself`);
      return result;
    }
    let other: OtherProjectContents;
    try {
      other = readOtherProject(options.Database, path);
    } catch (err) {
      if (err instanceof OtherProjectError) {
        result.problems.push(err.message);
        return result;
      }
      throw err;
    }
    result.sourceProject = other.projectId;
    result.annotators = [
      ...new Set([
        ...other.events.map((e) => e.annotator),
        ...other.alignments.map((a) => a.annotator),
        ...other.itemEvents.map((e) => e.annotator),
      ]),
    ].sort();
    return target.transaction(() => mergeOne(target, path, other, result));
  });
}

function mergeOne(
  target: MergeRepository,
  path: string,
  other: OtherProjectContents,
  result: MergeFileResult,
): MergeFileResult {
  const here = target.summaries();
  const labeled = new Map<string, number>();
  for (const e of other.events) {
    const key = summaryIdentity(e.dataset, e.summaryId);
    labeled.set(key, (labeled.get(key) ?? 0) + 1);
  }
  const problems: string[] = [];
  for (const s of other.summaries) {
    const key = summaryIdentity(s.dataset, s.summaryId);
    const mine = here.get(key);
    if (!mine) {
      const n = labeled.get(key) ?? 0;
      if (n > 0)
        problems.push(
          `${s.dataset}/${s.summaryId}: not in this project, and the file holds ${n} label event(s) on it (import dataset "${s.dataset}" here first, then merge again)`,
        );
      else result.summariesNotInProject += 1;
      continue;
    }
    if (mine.unitTexts.length !== s.unitTexts.length) {
      problems.push(
        `${s.dataset}/${s.summaryId}: ${s.unitTexts.length} sentence(s) in the file, ${mine.unitTexts.length} here`,
      );
      continue;
    }
    const differing = s.unitTexts.flatMap((text, i) => (text === mine.unitTexts[i] ? [] : [i]));
    if (differing.length > 0) {
      const i = differing[0]!;
      problems.push(
        `${s.dataset}/${s.summaryId}: sentence ${differing.join(', ')} differ${differing.length === 1 ? 's' : ''} ` +
          `(sentence ${i} here: ${JSON.stringify(mine.unitTexts[i])}; in the file: ${JSON.stringify(s.unitTexts[i])})`,
      );
      continue;
    }
    result.summariesMatched += 1;
  }
  // One identity per name: a label made in Loupe is never merged under an imported label set's name.
  const kinds = target.annotatorKinds();
  for (const name of new Set(
    other.events.filter((e) => e.cause !== 'import' && kinds.get(e.annotator) === 'imported').map((e) => e.annotator),
  )) {
    problems.push(
      `annotator "${name}": labels made in Loupe in the file, but "${name}" is an imported label set here (read-only)`,
    );
  }
  const scaffoldPlan = planScaffoldMerge(target, other);
  problems.push(...scaffoldPlan.problems);
  const itemPlan = planItemMerge(target, other);
  problems.push(...itemPlan.problems);
  if (problems.length > 0) {
    result.problems =
      problems.length > MAX_PROBLEMS
        ? [...problems.slice(0, MAX_PROBLEMS), `… and ${problems.length - MAX_PROBLEMS} more`]
        : problems;
    result.summariesMatched = 0;
    result.summariesNotInProject = 0;
    return result;
  }

  const sourceProject = other.projectId ?? `file:${path}`;
  const { identities, importKeys } = target.eventKeys();
  const known = target.annotatorNames();
  const annotatorIds = new Map<string, number>();
  const mergeId = target.beginMerge(path, sourceProject);
  const annotatorFor = (name: string, kind: AnnotatorKind): number => {
    let id = annotatorIds.get(name);
    if (id === undefined) {
      if (!known.has(name)) result.annotatorsAdded.push(name);
      id = target.ensureAnnotator(name, kind);
      annotatorIds.set(name, id);
    }
    return id;
  };
  for (const e of other.events) {
    const identity = eventIdentity(e);
    if (identities.has(identity) || (e.importKey !== null && importKeys.has(e.importKey))) {
      result.eventsPresent += 1;
      continue;
    }
    const annotatorId = annotatorFor(e.annotator, e.annotatorKind);
    const unitId = here.get(summaryIdentity(e.dataset, e.summaryId))!.unitIds[e.unitIndex]!;
    // An event the other project had merged keeps its first origin; one made there is (its id, its event).
    const origin =
      e.originProject !== null && e.originEvent !== null
        ? { project: e.originProject, event: e.originEvent }
        : { project: sourceProject, event: e.id };
    target.insertEvent(e, { unitId, annotatorId, originProject: origin.project, originEvent: origin.event, mergeId });
    identities.add(identity);
    if (e.importKey !== null) importKeys.add(e.importKey);
    result.eventsAdded += 1;
  }
  // People's alignments (and the versions they rest on) go in before the reveals, as label events do.
  const scaffoldCounts = applyScaffoldMerge(target, other, scaffoldPlan, (name) => annotatorFor(name, 'person'), {
    sourceProject,
    mergeId,
  });
  result.alignmentsAdded = scaffoldCounts.alignmentsAdded;
  result.alignmentsPresent = scaffoldCounts.alignmentsPresent;
  result.scaffoldsAdded = scaffoldCounts.scaffoldsAdded;
  result.eventsAdded += scaffoldCounts.alignmentsAdded;
  result.eventsPresent += scaffoldCounts.alignmentsPresent;
  const itemCounts = applyItemMerge(target, other, itemPlan, (name) => annotatorFor(name, 'person'), {
    sourceProject,
    mergeId,
  });
  result.itemLabelsAdded = itemCounts.added;
  result.itemSetsAdded = itemCounts.setsAdded;
  result.itemLabelsPresent = itemCounts.present;
  result.eventsAdded += itemCounts.added;
  result.eventsPresent += itemCounts.present;
  let revealsChanged = 0;
  for (const r of other.reveals) {
    const key = target.summaryKey(r.dataset, r.summaryId);
    if (key === null) continue;
    const annotatorId = annotatorFor(r.annotator, 'person');
    if (target.mergeReveal(annotatorId, key, r.view, r.createdAt)) revealsChanged += 1;
  }
  result.annotatorsAdded.sort();
  if (
    result.eventsAdded === 0 &&
    result.scaffoldsAdded === 0 &&
    result.itemSetsAdded === 0 &&
    revealsChanged === 0 &&
    result.annotatorsAdded.length === 0
  )
    target.dropMerge(mergeId);
  else
    target.finishMerge(mergeId, {
      eventsAdded: result.eventsAdded,
      eventsPresent: result.eventsPresent,
      annotatorsAdded: result.annotatorsAdded.length,
    });
  result.merged = true;
  return result;
}
