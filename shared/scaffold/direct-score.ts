/**
 * The direct score of App. G.7 as the analysis reads it: the direct_score task's stored answer
 * (four 1–10 axes) → their mean. An answer that no longer parses is left out (null).
 */
import { z } from 'zod';

const Score = z.number().min(1).max(10);
const StoredDirectScore = z.object({ faithfulness: Score, completeness: Score, understandability: Score, hallucination: Score }).passthrough();

export function directScoreOfStored(json: string): number | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const parsed = StoredDirectScore.safeParse(value);
  if (!parsed.success) return null;
  const o = parsed.data;
  return (o.faithfulness + o.completeness + o.understandability + o.hallucination) / 4;
}
