/**
 * accuracy.*: the LLM tasks of the evaluation (claims, key facts, summaries by systems under
 * test, scaffolds, direct scores) on the one task engine: what can run, a preview of one request,
 * a plan, background runs and batch files, told as judge runs are. Judge outputs are read only
 * through the analysis (analysis.start) and the lead's runs.
 */
import { z } from 'zod';
import { JsonValueSchema } from '../judges/config';
import { Empty, Id, Name, RunRef } from './primitives';

export const ACCURACY_TASKS = [
  /** Sentence → atomic standalone claims (FActScore-style; no document in the prompt). */
  'claim_decomposition',
  /** Document → key facts (the card's key fact extraction). */
  'keyfact_extraction',
  /** Document + one claim → supported / unsupported + error type (the card's per-claim prompt). */
  'claim_verdict',
  /** Summary lines (sentences or claims) + every key fact → per fact covered + which lines (FineSurE). */
  'keyfact_alignment',
  /** Summary claims + one key fact → covered + which claims (the card's per-key-fact prompt). */
  'keyfact_alignment_per_fact',
  /** Document → a summary by a system under test. */
  'summary_generation',
  /** Document → its Semantic Scaffold (facts, key questions, entity attributes; main / supporting), one pass (seed 000 App. G). */
  'scaffold_extraction',
  /** Summary + its document's current scaffold → per item preserved / partial / missing / misrepresented, answered / unanswered. */
  'scaffold_alignment',
  /** Document + summary → a holistic 1–10 score (App. G.7), the baseline whose saturation the scaffold metrics avoid. */
  'direct_score',
] as const;
export const AccuracyTaskSchema = z.enum(ACCURACY_TASKS);
export type AccuracyTask = z.infer<typeof AccuracyTaskSchema>;

export const AccuracyTaskInfoSchema = z.object({
  task: AccuracyTaskSchema,
  /** The kind's version: a change of template or output schema makes a new one (and new cache keys). */
  version: Id,
  description: z.string(),
  /** The prompt template exactly as sent; `{name}` placeholders are filled per item. */
  template: z.string(),
  placeholders: z.array(z.string()),
  /** What one request is about: "sentence", "document", "claim", "summary", "key fact". */
  itemNoun: z.string(),
});
export type AccuracyTaskInfo = z.infer<typeof AccuracyTaskInfoSchema>;

/**
 * What a task runs with: a judge of judges.* (its endpoint, model and key; the task's own template)
 * for every task but summary_generation, which runs a system of systems.*.
 */
export const AccuracyRunInputSchema = z
  .object({
    task: AccuracyTaskSchema,
    judge: Name.optional(),
    system: Name.optional(),
    dataset: Name.optional(),
    onlySampled: z.boolean().default(false),
    /** keyfact_alignment: align against the summary's sentences (FineSurE) or its current claims. */
    lines: z.enum(['sentences', 'claims']).default('sentences'),
  })
  .superRefine((v, ctx) => {
    if (v.task === 'summary_generation' && v.system === undefined) ctx.addIssue({ code: 'custom', path: ['system'], message: 'summary_generation runs a system (systems.add)' });
    if (v.task !== 'summary_generation' && v.judge === undefined) ctx.addIssue({ code: 'custom', path: ['judge'], message: `${v.task} runs with a judge (judges.add)` });
    if (v.task === 'summary_generation' && v.dataset === undefined) ctx.addIssue({ code: 'custom', path: ['dataset'], message: 'summary_generation needs the dataset whose documents to summarise' });
  });
export type AccuracyRunInput = z.input<typeof AccuracyRunInputSchema>;

export const AccuracyPlanSchema = z.object({
  task: AccuracyTaskSchema,
  /** The judge or system name. */
  model: z.string(),
  configHash: z.string(),
  dataset: z.string().nullable(),
  selection: Id,
  done: Id,
  requests: Id,
  /** Left out: no document, no claims or no key facts yet (say which in notes). */
  missing: Id,
  notes: z.array(z.string()),
});
export type AccuracyPlan = z.infer<typeof AccuracyPlanSchema>;

export const AccuracyRunStatusSchema = z.object({
  runId: z.string(),
  task: AccuracyTaskSchema,
  model: z.string(),
  configHash: z.string(),
  dataset: z.string().nullable(),
  state: z.enum(['running', 'paused', 'done', 'cancelled', 'failed']),
  pauseReason: z.enum(['user', 'endpoint_unreachable', 'endpoint_rejects']).nullable(),
  message: z.string(),
  done: Id,
  total: Id,
  cached: Id,
  requests: Id,
  ok: Id,
  parseErrors: Id,
  failed: Id,
  missing: Id,
  notes: z.array(z.string()),
  startedAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** As a judge run's (added after the first contract, so optional): completions per second over the last 10 s, null when not running. */
  ratePerSecond: z.number().nullable().optional(),
  etaSeconds: z.number().nullable().optional(),
  tokens: z.object({ prompt: Id, completion: Id }).optional(),
  /** Failed attempts grouped by kind (retries included); messages have keys redacted. */
  errors: z.array(z.object({ kind: z.string(), count: Id, lastMessage: z.string() })).optional(),
  /** What one item of the task is ("sentence", "claim", "document" …), for the progress line. */
  itemNoun: z.string().optional(),
});
export type AccuracyRunStatus = z.infer<typeof AccuracyRunStatusSchema>;

export const AccuracyPreviewSchema = z.object({
  task: AccuracyTaskSchema,
  configHash: z.string(),
  /** What the preview was built for ("summary 3, sentence 2"); null when the project has no such item. */
  item: z.string().nullable(),
  /** The filled prompt (the one user message). */
  prompt: z.string().nullable(),
  /** The exact request body (no key). */
  body: JsonValueSchema.nullable(),
});
export type AccuracyPreview = z.infer<typeof AccuracyPreviewSchema>;

const BatchProblemSchema = z.object({ line: Id, customId: z.string().nullable(), message: z.string() });

/** accuracy.batchExport: a batch request file (OpenAI Batch API JSONL) of the task's items still to do. */
export const AccuracyBatchExportSchema = AccuracyPlanSchema.extend({
  /** Found in the content cache and stored on the way (no request written). */
  cached: Id,
  /** The file written (path given), else null. */
  path: z.string().nullable(),
  /** A name for the file (the browser's download). */
  fileName: z.string(),
  /** The file's text when no path was given (`loupe serve`: the browser downloads it); else null. */
  content: z.string().nullable(),
});
export type AccuracyBatchExport = z.infer<typeof AccuracyBatchExportSchema>;

/** accuracy.batchImport: a batch engine's output file read back, as judges.batchImport tells it. */
export const AccuracyBatchImportSchema = z.object({
  task: AccuracyTaskSchema,
  model: z.string(),
  configHash: z.string(),
  lines: Id,
  answered: Id,
  parseErrors: Id,
  /** Stored as failed calls: the next run or batch sends them again. */
  failed: Id,
  /** custom_ids that are not an item still to do of this task and configuration. */
  unknown: Id,
  duplicates: Id,
  invalid: Id,
  shared: Id,
  stillToDo: Id,
  problems: z.object({ unknown: z.array(BatchProblemSchema), failed: z.array(BatchProblemSchema), invalid: z.array(BatchProblemSchema) }),
  notes: z.array(z.string()),
});
export type AccuracyBatchImport = z.infer<typeof AccuracyBatchImportSchema>;

export const AccuracyBatchSourceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('path'), path: z.string().min(1) }),
  z.object({ type: z.literal('upload'), name: z.string().min(1).max(500), text: z.string() }),
]);


export const ACCURACY_API = {
  /** Lead: the task kinds with their prompt templates and versions (shown like the sentence judge's). */
  'accuracy.tasks': { input: Empty, output: z.array(AccuracyTaskInfoSchema) },
  /** The exact request of one item (the first that fits), for a judge or system. */
  'accuracy.preview': { input: AccuracyRunInputSchema, output: AccuracyPreviewSchema },
  /** What a start would send (nothing is sent or stored). */
  'accuracy.plan': { input: AccuracyRunInputSchema, output: AccuracyPlanSchema },
  /** Starts a background run of one task (cached by content, resumable); poll accuracy.status. */
  'accuracy.start': { input: AccuracyRunInputSchema, output: AccuracyRunStatusSchema },
  'accuracy.status': { input: RunRef, output: AccuracyRunStatusSchema },
  'accuracy.pause': { input: RunRef, output: AccuracyRunStatusSchema },
  'accuracy.resume': { input: RunRef, output: AccuracyRunStatusSchema },
  'accuracy.cancel': { input: RunRef, output: AccuracyRunStatusSchema },
  'accuracy.runs': { input: Empty, output: z.array(AccuracyRunStatusSchema) },
  /**
   * A batch request file of the task's items still to do (cache hits stored on the way), as
   * judges.batchExport: `path` (desktop, CLI) writes it there, else the answer carries the text.
   */
  'accuracy.batchExport': { input: z.object({ run: AccuracyRunInputSchema, path: z.string().min(1).optional() }), output: AccuracyBatchExportSchema },
  /**
   * Stores a batch engine's output file for the task's current configuration, every item of the
   * project (summary_generation: of the run's dataset): a path (desktop, CLI) or the uploaded text.
   */
  'accuracy.batchImport': { input: z.object({ run: AccuracyRunInputSchema, source: AccuracyBatchSourceSchema }), output: AccuracyBatchImportSchema },
} as const;
