/**
 * The Review view's keyboard map: the annotation keys for a decision (F/U/C, E, M, J/K, Enter/N,
 * P, Ctrl+Z/Y) plus R, which opens the F/U/C choice again on a decided sentence. One place, so
 * the legend on screen and the handler never disagree.
 */
import type { HumanLabel } from '../../../shared/domain';
import { keyCommands, LABEL_KEYS, labelKeyCommands } from '../../keyboard';

export type ReviewCommand =
  | { type: 'decide'; label: HumanLabel }
  | { type: 'revise' }
  | { type: 'next-unit' }
  | { type: 'previous-unit' }
  | { type: 'next-card' }
  | { type: 'previous-card' }
  | { type: 'error-type' }
  | { type: 'note' }
  | { type: 'undo' }
  | { type: 'redo' };

/** R revises: free in this view (the Judges view's R acts only there). */
export const REVISE_KEY = 'R';

const PLAIN_KEYS: Record<string, ReviewCommand> = {
  ...labelKeyCommands((label): ReviewCommand => ({ type: 'decide', label })),
  r: { type: 'revise' },
  j: { type: 'next-unit' },
  arrowdown: { type: 'next-unit' },
  k: { type: 'previous-unit' },
  arrowup: { type: 'previous-unit' },
  enter: { type: 'next-card' },
  n: { type: 'next-card' },
  p: { type: 'previous-card' },
  e: { type: 'error-type' },
  '/': { type: 'note' },
  m: { type: 'note' },
};

export const reviewCommandForKey = keyCommands<ReviewCommand>(PLAIN_KEYS, { type: 'undo' }, { type: 'redo' });

/** The F/U/C choice opened by R (and only those, plus Esc). */
export function labelForKey(key: string): HumanLabel | null {
  return LABEL_KEYS[key.toLowerCase()] ?? null;
}

export const REVIEW_KEY_LEGEND: ReadonlyArray<{ keys: string; action: string; label?: HumanLabel }> = [
  { keys: 'F / 1', action: 'Faithful', label: 'faithful' },
  { keys: 'U / 2', action: 'Unfaithful', label: 'unfaithful' },
  { keys: 'C / 3', action: 'Unclear / fragment', label: 'unclear' },
  { keys: REVISE_KEY, action: 'revise the decision' },
  { keys: 'J ↓ / K ↑', action: 'next / previous marked sentence' },
  { keys: 'Enter / N', action: 'next card' },
  { keys: 'P', action: 'previous card' },
  { keys: 'E', action: 'error type (after U)' },
  { keys: '/ or M', action: 'note' },
  { keys: 'Ctrl+Z / Ctrl+Y', action: 'undo / redo' },
];
