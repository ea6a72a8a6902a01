/**
 * What the core tells open views after a committed write: one change event (which namespace,
 * what changed, the dataset when known, whose write), and who may learn of it. No method lives
 * here: the events travel beside the API (desktop IPC, `GET /api/events` in `loupe serve`).
 *
 * An annotator link learns only of changes to what it may see: the corpus, samples, claim /
 * key-fact / scaffold sets, the lead's decisions on proposals and its own labels; never of judges, systems, task runs, reviews,
 * links, merges or someone else's labels, nor of imports that carry judge outputs or labels.
 */
import { z } from 'zod';
import type { Caller } from './primitives';

export const CHANGE_NAMESPACES = [
  'projects',
  'datasets',
  'imports',
  'annotators',
  'annotation',
  'sampling',
  'judges',
  'review',
  'links',
  'merge',
  'claims',
  'keyfacts',
  'scaffold',
  'systems',
  'accuracy',
  'proposals',
] as const;
export const ChangeNamespaceSchema = z.enum(CHANGE_NAMESPACES);
export type ChangeNamespace = z.infer<typeof ChangeNamespaceSchema>;

export const ChangeEventSchema = z.object({
  /** Increases by one per event of this core (a gap says events were missed: resync). */
  seq: z.number().int(),
  namespace: ChangeNamespaceSchema,
  /** The write: a method name (`judges.add`) or background work (`imports.scaffold`, `judges.run`). */
  what: z.string().max(200),
  /** The dataset written to, when the write names one. */
  dataset: z.string().nullable(),
  /** The annotator whose labels or sets these are; null for the lead's writes and background work. */
  by: z.string().nullable(),
});
export type ChangeEvent = z.infer<typeof ChangeEventSchema>;

/** What a view hears when it may have missed events (a reconnect): refetch everything. */
export const RESYNC_WHAT = 'resync';

export function resyncEvent(): ChangeEvent {
  return { seq: -1, namespace: 'projects', what: RESYNC_WHAT, dataset: null, by: null };
}

const ANNOTATOR_NAMESPACES: ReadonlySet<ChangeNamespace> = new Set<ChangeNamespace>([
  'projects',
  'datasets',
  'imports',
  'annotation',
  'sampling',
  'claims',
  'keyfacts',
  'scaffold',
  'proposals',
]);
/** Imports of these kinds carry judge outputs or other people's labels: not an annotator's business. */
const LEAD_ONLY_IMPORTS: ReadonlySet<string> = new Set([
  'imports.predictions',
  'imports.labels',
  'imports.scaffold-alignments',
]);

/** The event as `caller` may receive it, or null when it is none of their business. */
export function changeFor(event: ChangeEvent, caller: Caller): ChangeEvent | null {
  if (caller.role === 'lead') return event;
  if (!ANNOTATOR_NAMESPACES.has(event.namespace)) return null;
  if (event.namespace === 'imports' && LEAD_ONLY_IMPORTS.has(event.what)) return null;
  if (event.by !== null && event.by !== caller.annotator) return null;
  return event;
}
