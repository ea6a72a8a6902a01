/** zod number schemas from the plain bounds of shared/limits.ts (kept apart so limits.ts stays zod-free for the UI). */
import { z } from 'zod';
import type { Bound } from './limits';

export function boundedNumber(b: Bound) {
  const base = b.integer ? z.number().int() : z.number();
  return (b.aboveMin ? base.gt(b.min) : base.min(b.min)).max(b.max);
}
