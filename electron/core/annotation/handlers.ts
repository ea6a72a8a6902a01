/**
 * annotation.*: the blind annotation calls. Their outputs have no field for a judge prediction
 * or a global label (shared/api.ts), and reads never write: an annotator who has not labeled
 * yet is created by their first label, not by looking at the queue.
 *
 * Identities: an imported label set (a benchmark's annotators) is never annotated as:
 * every call naming one is refused. Reveals: a revealing view (judges, analysis, review) opened
 * while the annotator's sample is unfinished records a reveal per unfinished summary; labels
 * given on a revealed summary are stored with blind = false (schema 7's trigger).
 */
import { ApiError, hasWorkLeft, type ApiHandlers, type RevealStatus } from '../../../shared/api';
import { LIMITS } from '../../../shared/limits';
import { AnnotatorKindError, type Repository } from '../../../db/repository';
import { plural } from '../../../shared/words';
import type { CoreContext } from '../context';
import { isAnnotatorLink, requireOwnSummary } from '../owners';
import { createProgressTracker } from './progress';

export type AnnotationHandlers = Pick<
  ApiHandlers,
  | 'annotation.queue'
  | 'annotation.next'
  | 'annotation.load'
  | 'annotation.record'
  | 'annotation.revealStatus'
  | 'annotation.reveal'
  | 'annotation.attachDocument'
>;

/** No annotator has this id: an unknown name reads as someone with no labels and no assignments. */
const NOBODY = -1;

/** The id to read as (NOBODY for a name not yet known); refuses an imported label set. */
function readerId(repo: Repository, name: string): number {
  const row = repo.annotator(name);
  if (row?.kind === 'imported') throw new AnnotatorKindError(name);
  return row?.id ?? NOBODY;
}

/** The person of this name, created when missing; refuses an imported label set (AnnotatorKindError). */
function writerId(repo: Repository, name: string): number {
  return repo.ensureAnnotator(name, 'person').id;
}

/**
 * The lead reveals for a person only when that person is confirmed by name (the gate names what it
 * does to their labels), and never for someone with a live annotator link: that link's labels stay
 * blind whatever another tab opens.
 */
function requireRevealFor(
  ctx: CoreContext,
  annotator: string,
  confirmFor: string | undefined,
  summaries: number,
): void {
  if (ctx.options.links?.list().some((link) => link.annotator === annotator)) {
    throw new ApiError({
      code: 'forbidden',
      message: `"${annotator}" annotates through their own link: only that link can reveal judge outputs to them, so their labels stay blind. Review under your own name.`,
    });
  }
  if (confirmFor !== annotator) {
    throw new ApiError({
      code: 'conflict',
      message: `Revealing for "${annotator}" marks the labels they give afterwards on ${plural(summaries, 'unfinished summary')} not blind and leaves their scaffold alignments on them out of the blind audit: confirm it for them by name (confirmFor).`,
    });
  }
}

export function createAnnotationHandlers(ctx: CoreContext): AnnotationHandlers {
  const progress = createProgressTracker();
  /** How many summaries of the annotator's queue are unfinished, and how many of those revealed: from counts. */
  const revealStatus = (repo: Repository, annotator: string): RevealStatus => {
    const id = readerId(repo, annotator);
    const queue = repo.queue.of(id, null);
    const { summariesDone, summariesTotal } = progress.of(repo, id, queue, null);
    return { annotator, unfinished: summariesTotal - summariesDone, revealed: queue.revealedUnfinished() };
  };
  return {
    'annotation.queue': async ({ annotator, dataset, limit, cursor, before, around, position }) => {
      const { repo } = ctx.project();
      const id = readerId(repo, annotator);
      const queue = repo.queue.of(id, dataset ?? null);
      const size = limit ?? LIMITS.lists.limit.default!;
      const page =
        cursor !== undefined
          ? queue.pageAfter(Number(cursor), size)
          : before !== undefined
            ? queue.pageBefore(Number(before), size)
            : around !== undefined
              ? queue.pageAround(around, size)
              : queue.pageAt(position ?? 0, size);
      const counts = progress.of(repo, id, queue, dataset ?? null);
      const blocked = queue.blocked();
      const first = page.rows[0];
      const last = page.rows[page.rows.length - 1];
      return {
        annotator,
        items: page.rows,
        start: page.start,
        total: page.total,
        nextCursor: last && page.start + page.rows.length < page.total ? String(last.key) : null,
        previousCursor: first && page.start > 0 ? String(first.key) : null,
        progress: counts,
        blocked,
        resumeAt: hasWorkLeft(counts, blocked) ? (queue.nextWithWork(null)?.position ?? null) : null,
      };
    },
    'annotation.next': async ({ annotator, dataset, after, withWork }) => {
      const { repo } = ctx.project();
      const id = readerId(repo, annotator);
      const queue = repo.queue.of(id, dataset ?? null);
      if (withWork === false) {
        const first = queue.pageAt(0, 1).rows[0];
        const next = after === null ? (first ? { row: first, position: 0 } : null) : queue.next(after);
        return next ? { item: next.row, position: next.position } : null;
      }
      // Nothing anywhere to work on: say so without searching the queue for it.
      if (!hasWorkLeft(progress.of(repo, id, queue, dataset ?? null), queue.blocked())) return null;
      const found = queue.nextWithWork(after);
      return found ? { item: found.row, position: found.position } : null;
    },
    'annotation.load': async ({ key, annotator }, caller) => {
      const { repo } = ctx.project();
      requireOwnSummary(repo, caller, key);
      const id = readerId(repo, annotator);
      const summary = repo.summaryForAnnotation(key);
      if (!summary) throw new ApiError({ code: 'not_found', message: `No summary ${key}` });
      const states = repo.currentStates(key, id, 'annotation');
      return {
        key: summary.key,
        dataset: summary.dataset,
        summaryId: summary.summaryId,
        docId: summary.docId,
        summary: summary.summary,
        document: summary.document,
        splitter: summary.units[0]?.splitter ?? '',
        units: summary.units.map(({ splitter: _splitter, ...u }) => ({
          ...u,
          state: states.get(u.id) ?? { label: null, errorType: null, note: null },
        })),
        revealed: id !== NOBODY && repo.isRevealed(id, key),
      };
    },
    'annotation.record': async ({ unitId, annotator, state, timeSpentMs, cause }, caller) => {
      const { repo } = ctx.project();
      const key = repo.unitSummaryKey(unitId);
      if (key === null) throw new ApiError({ code: 'not_found', message: `No unit ${unitId}` });
      requireOwnSummary(repo, caller, key);
      if (state.label !== null && repo.documentMissing(key)) {
        throw new ApiError({
          code: 'conflict',
          message: 'This summary has no document yet; attach its document before labeling.',
        });
      }
      const id = writerId(repo, annotator);
      // Index seeks only: the unit's label before, the queue's fingerprint, then one committed event.
      const before = repo.currentAnnotationLabel(unitId, id) !== null;
      const fingerprint = repo.queueFingerprint();
      const eventId = repo.recordLabel({ unitId, annotatorId: id, phase: 'annotation', state, timeSpentMs, cause });
      return {
        eventId,
        unitId,
        state,
        progress: progress.afterLabel(repo, id, fingerprint, key, before, state.label !== null),
      };
    },
    'annotation.revealStatus': async ({ annotator }) => revealStatus(ctx.project().repo, annotator),
    'annotation.reveal': async ({ annotator, view, confirmFor }, caller) => {
      const { repo } = ctx.project();
      // Counted and recorded in SQL, in one transaction: the gate sees the count before anything is written.
      const revealed = repo.revealUnfinished(readerId(repo, annotator), view, (unrevealed) => {
        if (!isAnnotatorLink(caller)) requireRevealFor(ctx, annotator, confirmFor, unrevealed);
        return writerId(repo, annotator);
      });
      return { revealed, status: revealStatus(repo, annotator) };
    },
    'annotation.attachDocument': async ({ key, text, replace }, caller) => {
      const { repo } = ctx.project();
      requireOwnSummary(repo, caller, key);
      if (replace && isAnnotatorLink(caller)) {
        throw new ApiError({
          code: 'forbidden',
          message: `Replacing a document's text needs the lead's link: this link is annotator "${caller.annotator}"'s.`,
        });
      }
      if (!repo.corpus.summaryInfo(key)) throw new ApiError({ code: 'not_found', message: `No summary ${key}` });
      if (!replace && !repo.documentMissing(key)) {
        throw new ApiError({
          code: 'conflict',
          message: `The document of summary ${key} already has its text; only the lead replaces it (replace: true).`,
        });
      }
      return { attached: repo.attachDocument(key, text, replace === true) };
    },
  };
}
