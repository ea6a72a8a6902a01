/**
 * Which human label counts for p̂, ε̂ and the human composition (annotation phase only; the
 * caller passes no review-phase label here).
 */
import type { HumanLabel } from '../domain';
import type { HumanLabelStatus } from './types';

export interface ResolvedHumanLabel {
  label: HumanLabel | null;
  status: HumanLabelStatus;
}

/**
 * An adjudicated label wins; otherwise one annotator's label, or the label all annotators
 * agree on; several annotators who disagree (e.g. faithful vs unclear) leave the unit
 * unresolved (label null, status `disagreement`), and the analysis leaves it out and counts it.
 */
export function resolveHumanLabel(
  labelsByAnnotator: Readonly<Record<string, HumanLabel>> | ReadonlyMap<string, HumanLabel>,
  adjudicated?: HumanLabel | null,
): ResolvedHumanLabel {
  if (adjudicated !== undefined && adjudicated !== null) return { label: adjudicated, status: 'adjudicated' };
  const labels = labelsByAnnotator instanceof Map ? [...labelsByAnnotator.values()] : Object.values(labelsByAnnotator);
  if (labels.length === 0) return { label: null, status: 'none' };
  const first = labels[0]!;
  if (labels.length === 1) return { label: first, status: 'single' };
  return labels.every((label) => label === first) ? { label: first, status: 'agreed' } : { label: null, status: 'disagreement' };
}
