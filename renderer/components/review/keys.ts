/**
 * The Review view's keyboard map: the annotation keys for a decision (F/U/C, E, M, J/K, Enter/N,
 * P, Ctrl+Z/Y) plus R, which opens the F/U/C choice again on a decided sentence. One place, so
 * the legend on screen and the handler never disagree.
 */
import type { HumanLabel } from '../../../shared/domain';
import type { KeyLike } from '../../keyboard';

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
  f: { type: 'decide', label: 'faithful' },
  '1': { type: 'decide', label: 'faithful' },
  u: { type: 'decide', label: 'unfaithful' },
  '2': { type: 'decide', label: 'unfaithful' },
  c: { type: 'decide', label: 'unclear' },
  '3': { type: 'decide', label: 'unclear' },
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

export function reviewCommandForKey(event: KeyLike): ReviewCommand | null {
  const key = event.key.toLowerCase();
  const command = event.ctrlKey || event.metaKey;
  if (command && !event.altKey) {
    if (key === 'z') return event.shiftKey ? { type: 'redo' } : { type: 'undo' };
    if (key === 'y' && !event.shiftKey) return { type: 'redo' };
    return null;
  }
  if (command || event.altKey) return null;
  return PLAIN_KEYS[key] ?? null;
}

/** The F/U/C choice opened by R (and only those, plus Esc). */
export function labelForKey(key: string): HumanLabel | null {
  const command = PLAIN_KEYS[key.toLowerCase()];
  return command?.type === 'decide' ? command.label : null;
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
