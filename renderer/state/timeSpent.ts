/**
 * A decision's time spent: from its unit becoming current to the key press, in whole
 * milliseconds, within the contract's bound (a day: a tab left open is not work).
 */
import { LIMITS } from '../../shared/limits';

export function timeSpent(pressedAt: number, since: number): number {
  return Math.min(LIMITS.timeSpentMs.max, Math.max(0, Math.round(pressedAt - since)));
}
