/**
 * What every LLM run tells, whichever task it runs (judges.* sentence verdicts, accuracy.* tasks):
 * one run status, one report of a batch file read back, one batch-file source. Each namespace
 * extends these with what names its own run (the judge, or the task and its model). No method
 * lives here: the task engine is not an API namespace.
 */
import { z } from 'zod';

/** Why a call failed (transport classification; `parse_error` for answers that do not parse). */
export const TASK_ERROR_KINDS = [
  'rate_limited',
  'server_error',
  'timeout',
  'connection',
  'auth',
  'client_error',
  'malformed_response',
  'parse_error',
] as const;
export const TaskErrorKindSchema = z.enum(TASK_ERROR_KINDS);
export type TaskErrorKind = z.infer<typeof TaskErrorKindSchema>;

export const RunStateSchema = z.enum(['running', 'paused', 'done', 'cancelled', 'failed']);
export type RunState = z.infer<typeof RunStateSchema>;

/**
 * Why a paused run is paused: the user (or SIGINT), or the circuit: the endpoint is down
 * (connection failures, timeouts, 5xx in a row) or rejects every request (401/403/404 in a row).
 */
export const PauseReasonSchema = z.enum(['user', 'endpoint_unreachable', 'endpoint_rejects']);
export type PauseReason = z.infer<typeof PauseReasonSchema>;

/** One replica (base URL) of an endpoint during a run. */
export const ReplicaStatusSchema = z.object({
  baseUrl: z.string(),
  /** false: taken out after failures in a row; probed back in after a backoff. */
  healthy: z.boolean(),
  inFlight: z.number().int(),
  /** Its adaptive concurrency (AIMD), at most the configured concurrency. */
  limit: z.number().int(),
  sent: z.number().int(),
  ok: z.number().int(),
  rateLimited: z.number().int(),
  failed: z.number().int(),
});
export type ReplicaStatus = z.infer<typeof ReplicaStatusSchema>;

/** A run's progress as the engine tells it, the same for every task. */
export const RunStatusSchema = z.object({
  runId: z.string(),
  /** The configuration version the run answers for (its answers are cached under it). */
  configHash: z.string(),
  dataset: z.string().nullable(),
  state: RunStateSchema,
  pauseReason: PauseReasonSchema.nullable(),
  /** One line for people: "running", "paused: endpoint unreachable", "done: 3 sentences failed". */
  message: z.string(),
  /** Items finished in this run's selection: cached + reusedParseErrors + ok + parseErrors + failed. */
  done: z.number().int(),
  total: z.number().int(),
  /** Answered without a request: stored earlier or found in the content cache. */
  cached: z.number().int(),
  /** Items given, without a request, the unparseable answer of an item with the same content. */
  reusedParseErrors: z.number().int(),
  /**
   * HTTP requests sent by this run, retries included:
   * ok + parseErrors + the failed attempts by kind (parse_error aside) + dropped.
   */
  requests: z.number().int(),
  /** Requests whose answer a pause or cancel dropped (sent again on resume). */
  dropped: z.number().int(),
  /** Items answered by a request. */
  ok: z.number().int(),
  /** Items whose fresh answer did not parse. */
  parseErrors: z.number().int(),
  /** Items whose last attempt failed (run again to retry them). */
  failed: z.number().int(),
  /** Failed attempts since the last answer, across resumes (what opens the circuit). */
  failuresInARow: z.number().int(),
  /** Items left out because their input is missing (no document, no claims or key facts yet; the notes say which). */
  missing: z.number().int(),
  /** Items per second over the last 10 seconds; null before the first answer. */
  ratePerSecond: z.number().nullable(),
  etaSeconds: z.number().nullable(),
  tokens: z.object({ prompt: z.number().int(), completion: z.number().int() }),
  /** Failed attempts grouped by kind (retries included); messages have keys redacted. */
  errors: z.array(z.object({ kind: TaskErrorKindSchema, count: z.number().int(), lastMessage: z.string() })),
  /** Said once per run, e.g. "the endpoint returned no log-probabilities: hard labels only". */
  notes: z.array(z.string()),
  startedAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type RunStatus = z.infer<typeof RunStatusSchema>;

export const BatchProblemSchema = z.object({
  line: z.number().int(),
  customId: z.string().nullable(),
  message: z.string(),
});

/** A batch engine's output file (OpenAI Batch API JSONL) read back: what was stored, what was not and why. */
export const BatchImportCountsSchema = z.object({
  lines: z.number().int(),
  /** Stored exactly as a live call's answer. */
  answered: z.number().int(),
  /** Stored as unparseable (kept with their text). */
  parseErrors: z.number().int(),
  /** Stored as failed calls (status ≠ 200, error objects, bodies that are not completions): the next run or batch sends them again. */
  failed: z.number().int(),
  /** custom_ids that are not an item still to do of this task and configuration (another one, answered before, or not Loupe's). */
  unknown: z.number().int(),
  duplicates: z.number().int(),
  /** Lines that are not JSON or not an output line. */
  invalid: z.number().int(),
  /** Items filled from the content cache after the import (same content as an answered one). */
  shared: z.number().int(),
  /** Items still without an answer (failed ones included): a later run or batch sends them. */
  stillToDo: z.number().int(),
  problems: z.object({
    unknown: z.array(BatchProblemSchema),
    failed: z.array(BatchProblemSchema),
    invalid: z.array(BatchProblemSchema),
  }),
  notes: z.array(z.string()),
});
export type BatchImportCounts = z.infer<typeof BatchImportCountsSchema>;

/** Where a batch output file comes from: a path on disk (desktop, CLI) or the uploaded text (`loupe serve`). */
export const BatchSourceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('path'), path: z.string().min(1) }),
  z.object({ type: z.literal('upload'), name: z.string().min(1).max(500), text: z.string() }),
]);
export type BatchSource = z.infer<typeof BatchSourceSchema>;
