/**
 * The direct score of App. G.7: a judge's four 1–10 axes for a summary, and their mean. The one
 * schema both the direct_score task (checking an answer) and the analysis (reading a stored
 * answer back) use; an answer that no longer parses is left out (null).
 */
import { z } from 'zod';

const Score = z.number().min(1).max(10);

export const DirectScoreOutputSchema = z
  .object({
    faithfulness: Score,
    completeness: Score,
    understandability: Score,
    hallucination: Score,
    rationale: z.string().max(5_000).default(''),
  })
  .passthrough();
export type DirectScoreOutput = z.infer<typeof DirectScoreOutputSchema>;

/** The direct score of one answer: the mean of its four axes (1–10). */
export const directScoreOf = (
  o: Pick<DirectScoreOutput, 'faithfulness' | 'completeness' | 'understandability' | 'hallucination'>,
): number => (o.faithfulness + o.completeness + o.understandability + o.hallucination) / 4;

/** The direct score of a stored answer (task_results output), or null when it does not parse. */
export function directScoreOfStored(json: string): number | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const parsed = DirectScoreOutputSchema.safeParse(value);
  return parsed.success ? directScoreOf(parsed.data) : null;
}
