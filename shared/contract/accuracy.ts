/**
 * accuracy.*: the LLM tasks of the evaluation (claims, key facts, summaries by systems under
 * test, scaffolds, direct scores) on the one task engine: what can run, a preview of one request,
 * a plan, background runs and batch files, told as judge runs are. Judge outputs are read only
 * through the analysis (analysis.start) and the lead's runs.
 */
import { z } from 'zod';
import { BatchImportCountsSchema, BatchSourceSchema, RunStatusSchema } from './tasks';
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
  /** Document → its Semantic Scaffold (facts, key questions, entity attributes; main / supporting), one pass (the Semantic Scaffold paper, App. G). */
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
    /**
     * scaffold_extraction and scaffold_alignment: the Semantic Scaffold paper's separate prompts
     * (App. G.1–G.3, G.4–G.6: three requests per document or summary) or one combined request (cheaper).
     */
    prompts: z.enum(['paper', 'combined']).default('paper'),
  })
  .superRefine((v, ctx) => {
    if (v.task === 'summary_generation' && v.system === undefined)
      ctx.addIssue({ code: 'custom', path: ['system'], message: 'summary_generation runs a system (systems.add)' });
    if (v.task !== 'summary_generation' && v.judge === undefined)
      ctx.addIssue({ code: 'custom', path: ['judge'], message: `${v.task} runs with a judge (judges.add)` });
    if (v.task === 'summary_generation' && v.dataset === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['dataset'],
        message: 'summary_generation needs the dataset whose documents to summarise',
      });
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
  /** Prompt tokens of those requests, estimated from their real prompts as characters / 4 (no tokenizer). */
  promptTokens: Id,
  /** Where they go: every replica's base URL. */
  baseUrls: z.array(z.string()),
  /** Left out: no document, no claims or no key facts yet (say which in notes). */
  missing: Id,
  notes: z.array(z.string()),
});
export type AccuracyPlan = z.infer<typeof AccuracyPlanSchema>;

/** An accuracy run: the run status of every task, for one task and model (a judge, or a system) over a selection. */
export const AccuracyRunStatusSchema = RunStatusSchema.extend({
  task: AccuracyTaskSchema,
  /** The judge or system name. */
  model: z.string(),
  /** What one item of the task is ("sentence", "claim", "document" …), for the progress line. */
  itemNoun: z.string(),
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

/** accuracy.batchImport: a batch engine's output file read back for the task's current configuration. */
export const AccuracyBatchImportSchema = BatchImportCountsSchema.extend({
  task: AccuracyTaskSchema,
  model: z.string(),
  configHash: z.string(),
});
export type AccuracyBatchImport = z.infer<typeof AccuracyBatchImportSchema>;

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
  'accuracy.batchExport': {
    input: z.object({ run: AccuracyRunInputSchema, path: z.string().min(1).optional() }),
    output: AccuracyBatchExportSchema,
  },
  /**
   * Stores a batch engine's output file for the task's current configuration: a path (desktop,
   * CLI) or the uploaded text. An answer for an item its request file (named by its custom_id)
   * did not ask for, or naming a file the project did not write, is refused; the run's dataset
   * and onlySampled are the selection answers must also be in, and where "still to do" is counted
   * (when they name the whole project and every answer is of one request file: in that file's).
   */
  'accuracy.batchImport': {
    input: z.object({ run: AccuracyRunInputSchema, source: BatchSourceSchema }),
    output: AccuracyBatchImportSchema,
  },
} as const;
