/**
 * annotation.*: the blind annotation calls. Their outputs have no field for a judge prediction
 * or a global label (shared/api.ts), and reads never write: an annotator who has not labeled
 * yet is created by their first label, not by looking at the queue.
 */
import { ApiError, type ApiHandlers } from '../../../shared/api';
import type { Repository } from '../../../db/repository';
import type { CoreContext } from '../context';
import { progressOf } from './progress';

export type AnnotationHandlers = Pick<ApiHandlers, 'annotation.queue' | 'annotation.load' | 'annotation.record' | 'annotation.attachDocument'>;

/** No annotator has this id: an unknown name reads as someone with no labels and no assignments. */
const NOBODY = -1;

function readerId(repo: Repository, name: string): number {
  return repo.annotatorId(name) ?? NOBODY;
}

export function createAnnotationHandlers(ctx: CoreContext): AnnotationHandlers {
  return {
    'annotation.queue': async ({ annotator, dataset }) => {
      const rows = ctx.project().repo.annotationQueue(readerId(ctx.project().repo, annotator), dataset ?? null);
      const resume = rows.findIndex((r) => r.labeled < r.units && !r.documentMissing);
      return { annotator, items: rows, progress: progressOf(rows), resumeAt: resume === -1 ? null : resume };
    },
    'annotation.load': async ({ key, annotator }) => {
      const { repo } = ctx.project();
      const summary = repo.summaryForAnnotation(key);
      if (!summary) throw new ApiError({ code: 'not_found', message: `No summary ${key}` });
      const states = repo.currentStates(key, readerId(repo, annotator), 'annotation');
      return {
        key: summary.key,
        dataset: summary.dataset,
        summaryId: summary.summaryId,
        docId: summary.docId,
        summary: summary.summary,
        document: summary.document,
        splitter: summary.units[0]?.splitter ?? '',
        units: summary.units.map(({ splitter: _splitter, ...u }) => ({ ...u, state: states.get(u.id) ?? { label: null, errorType: null, note: null } })),
      };
    },
    'annotation.record': async ({ unitId, annotator, state, timeSpentMs, cause }) => {
      const { repo } = ctx.project();
      const key = repo.unitSummaryKey(unitId);
      if (key === null) throw new ApiError({ code: 'not_found', message: `No unit ${unitId}` });
      const summary = repo.summaryForAnnotation(key)!;
      if (summary.document === null && state.label !== null) {
        throw new ApiError({ code: 'conflict', message: 'This summary has no document yet; attach its document before labeling.' });
      }
      const id = repo.ensureAnnotator(annotator).id;
      const eventId = repo.recordLabel({ unitId, annotatorId: id, phase: 'annotation', state, timeSpentMs, cause });
      return { eventId, unitId, state, progress: progressOf(repo.annotationQueue(id, null)) };
    },
    'annotation.attachDocument': async ({ key, text }) => ({ attached: ctx.project().repo.attachDocument(key, text) }),
  };
}
