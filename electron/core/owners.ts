/**
 * Who owns what an annotator link reaches (docs/architecture.md, "Shared objects have owners"):
 * the lead reaches every summary and document; an annotator link only the summaries of its own
 * queue and the documents they belong to. The role table in dispatch checks the name a call acts
 * as; these checks need the project, so the handlers make them before they read or write.
 */
import { ApiError, type Caller } from '../../shared/api';
import type { Repository } from '../../db/repository';

/** No annotator has this id: an unknown name has only the queue everyone shares. */
const NOBODY = -1;

function annotatorIdOf(repo: Repository, name: string): number {
  return repo.annotator(name)?.id ?? NOBODY;
}

/** The caller is an annotator link (not the lead). */
export function isAnnotatorLink(caller: Caller | undefined): caller is Extract<Caller, { role: 'annotator' }> {
  return caller?.role === 'annotator';
}

/** Refuses (forbidden) an annotator link a summary outside its queue; the lead passes. */
export function requireOwnSummary(repo: Repository, caller: Caller | undefined, summaryKey: number): void {
  if (!isAnnotatorLink(caller)) return;
  if (!repo.inAnnotationQueue(annotatorIdOf(repo, caller.annotator), summaryKey)) {
    throw new ApiError({
      code: 'forbidden',
      message: `This link is annotator "${caller.annotator}"'s: summary ${summaryKey} is not in their queue.`,
    });
  }
}

/** Refuses (forbidden) an annotator link a document with no summary in its queue; the lead passes. */
export function requireOwnDocument(repo: Repository, caller: Caller | undefined, documentKey: number): void {
  if (!isAnnotatorLink(caller)) return;
  if (!repo.documentInAnnotationQueue(annotatorIdOf(repo, caller.annotator), documentKey)) {
    throw new ApiError({
      code: 'forbidden',
      message: `This link is annotator "${caller.annotator}"'s: no summary of document ${documentKey} is in their queue.`,
    });
  }
}
