/**
 * jobs.*: background imports, polled and cancelled by id.
 */
import { z } from 'zod';
import { ImportResultSchema, ProblemSchema } from './imports';

export const JobSchema = z.object({
  id: z.string(),
  kind: z.literal('import'),
  state: z.enum(['running', 'done', 'failed', 'cancelled']),
  /** What it is doing now: "reading", "parsing", "splitting", "writing". */
  phase: z.string(),
  done: z.number().int(),
  total: z.number().int(),
  result: ImportResultSchema.nullable(),
  error: z.object({ message: z.string(), problems: z.array(ProblemSchema) }).nullable(),
});
export type Job = z.infer<typeof JobSchema>;

export const JOBS_API = {
  'jobs.get': { input: z.object({ jobId: z.string() }), output: JobSchema },
  'jobs.cancel': { input: z.object({ jobId: z.string() }), output: JobSchema },
} as const;
