/**
 * The contract of the Summarization Accuracy evaluation (issue 11): claims, key facts, systems
 * under test and the LLM tasks that produce them. shared/api.ts spreads ACCURACY_API into API and
 * ACCURACY_ANNOTATOR_METHODS into ANNOTATOR_METHODS; dispatch validates every call against these.
 *
 * Identities: a summary is its `key` (as in annotation.load), a document its `documentKey`; a
 * claim or a key fact is its id, which belongs to exactly one version of its set. Editing a set
 * makes a new version with new ids; labels stay on the ids (the version) they were given on.
 *
 * Blindness (ARCHITECTURE.md rule 1): claims.load / keyfacts.load return only the calling
 * annotator's own labels, never a judge output, another person's label or a benchmark label.
 * Judge outputs are read only through the analysis (analysis.start) and the lead's runs.
 */
import { z } from 'zod';
import { BaseUrlSchema, ExtraFieldsSchema, JsonValueSchema, MAX_REPLICAS } from '../judges/config';
import { LIMITS } from '../limits';
import { boundedNumber } from '../bounded';
import { ClaimErrorTypeSchema, ClaimLabelSchema, KeyFactLabelSchema, SetSourceSchema, SystemFailureSchema } from '../accuracy/domain';

const Name = z.string().trim().min(LIMITS.nameChars.min).max(LIMITS.nameChars.max);
const Empty = z.object({}).strict();
const Id = z.number().int();
const Note = z.string().max(10_000).nullable();
/** A claim or key-fact text. */
const ItemText = z.string().trim().min(1).max(5_000);
const TimeSpent = boundedNumber(LIMITS.timeSpentMs).nullable();
export const ItemRecordCauseSchema = z.enum(['label', 'error_type', 'note', 'conveyed_by', 'undo', 'redo', 'clear']);

// --- claims -------------------------------------------------------------------------------------

export const ClaimLabelStateSchema = z
  .object({
    label: ClaimLabelSchema.nullable(),
    errorType: ClaimErrorTypeSchema.nullable(),
    note: Note,
  })
  .refine((s) => s.errorType === null || s.label === 'unsupported', {
    message: 'An error type applies only to an Unsupported claim.',
    path: ['errorType'],
  });
export type ClaimLabelState = z.infer<typeof ClaimLabelStateSchema>;

/** One claim as its annotator sees it: text, its sentence and the annotator's own label. */
export const AnnotationClaimSchema = z.object({ id: Id, index: Id, text: z.string(), state: ClaimLabelStateSchema });
export type AnnotationClaim = z.infer<typeof AnnotationClaimSchema>;

/** claims.load: the summary's sentences, each with its claims of the current version. Blind. */
export const ClaimAnnotationSchema = z.object({
  key: Id,
  summaryId: z.string(),
  /** null: the summary has no claims yet (decompose or import them first). */
  setId: Id.nullable(),
  version: Id.nullable(),
  sentences: z.array(z.object({ unitId: Id, index: Id, text: z.string(), claims: z.array(AnnotationClaimSchema) })),
});
export type ClaimAnnotation = z.infer<typeof ClaimAnnotationSchema>;

/** One claim of a version, with provenance: which claims of the version it was edited from. */
export const ClaimItemSchema = z.object({
  id: Id,
  sentenceUnitId: Id,
  sentenceIndex: Id,
  index: Id,
  text: z.string(),
  /** Claims of the previous version this one was kept, edited, split or merged from (empty: new). */
  from: z.array(Id),
});
export type ClaimItem = z.infer<typeof ClaimItemSchema>;

export const ClaimSetSchema = z.object({
  setId: Id,
  key: Id,
  version: Id,
  source: SetSourceSchema,
  /** Who made it: "task:claim_decomposition@<config hash>", "import:<file>", "person:<name>". */
  decomposer: z.string(),
  decomposerVersion: z.string(),
  /** The version it was edited from (null: the first). */
  basedOnVersion: Id.nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  note: z.string().nullable(),
  claims: z.array(ClaimItemSchema),
  /** Label events on this version's claims (any annotator): > 0 means it has been labeled. */
  labelEvents: Id,
});
export type ClaimSet = z.infer<typeof ClaimSetSchema>;

export const ClaimEditInputSchema = z.object({
  key: Id,
  annotator: Name,
  /** The version the edit starts from; refused (conflict) when it is no longer the current one. null: the summary has none. */
  basedOnVersion: Id.nullable(),
  /** The whole new set, in order. A dropped claim is simply absent; a split lists its origin twice; a merge lists both origins. */
  claims: z
    .array(z.object({ sentenceUnitId: Id, text: ItemText, from: z.array(Id).max(50).default([]) }))
    .max(5_000),
  note: z.string().max(2_000).optional(),
});

export const ClaimListEntrySchema = z.object({
  key: Id,
  dataset: z.string(),
  summaryId: z.string(),
  docId: z.string(),
  system: z.string().nullable(),
  sentences: Id,
  /** null: no claim set yet. */
  currentVersion: Id.nullable(),
  versions: Id,
  claims: Id,
  source: SetSourceSchema.nullable(),
  decomposer: z.string().nullable(),
});
export type ClaimListEntry = z.infer<typeof ClaimListEntrySchema>;

// --- key facts ----------------------------------------------------------------------------------

export const ConveyedBySchema = z.object({ claims: z.array(Id).max(500).default([]), sentences: z.array(Id).max(500).default([]) });
export type ConveyedBy = z.infer<typeof ConveyedBySchema>;

export const KeyFactLabelStateSchema = z
  .object({
    label: KeyFactLabelSchema.nullable(),
    /** Claims (ids of the summary's current claim set) and sentences (unit ids) that convey the fact. */
    conveyedBy: ConveyedBySchema,
    note: Note,
  })
  .refine((s) => s.label === 'covered' || (s.conveyedBy.claims.length === 0 && s.conveyedBy.sentences.length === 0), {
    message: 'Only a Covered key fact is conveyed by claims or sentences.',
    path: ['conveyedBy'],
  });
export type KeyFactLabelState = z.infer<typeof KeyFactLabelStateSchema>;

/** keyfacts.load: the document's key facts (current version) for one summary, with the annotator's own labels. Blind. */
export const KeyFactAnnotationSchema = z.object({
  key: Id,
  summaryId: z.string(),
  documentKey: Id,
  docId: z.string(),
  setId: Id.nullable(),
  version: Id.nullable(),
  facts: z.array(z.object({ id: Id, index: Id, text: z.string(), state: KeyFactLabelStateSchema })),
  /** What a key fact can be conveyed by: the summary's sentences and its current claims. */
  sentences: z.array(z.object({ unitId: Id, index: Id, text: z.string() })),
  claims: z.array(z.object({ id: Id, sentenceUnitId: Id, text: z.string() })),
});
export type KeyFactAnnotation = z.infer<typeof KeyFactAnnotationSchema>;

export const KeyFactItemSchema = z.object({ id: Id, index: Id, text: z.string(), from: z.array(Id) });
export type KeyFactItem = z.infer<typeof KeyFactItemSchema>;

export const KeyFactSetSchema = z.object({
  setId: Id,
  documentKey: Id,
  version: Id,
  source: SetSourceSchema,
  /** "task:keyfact_extraction@<config hash>", "import:<file>", "person:<name>". */
  extractor: z.string(),
  extractorVersion: z.string(),
  basedOnVersion: Id.nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  note: z.string().nullable(),
  facts: z.array(KeyFactItemSchema),
  labelEvents: Id,
});
export type KeyFactSet = z.infer<typeof KeyFactSetSchema>;

export const KeyFactEditInputSchema = z.object({
  documentKey: Id,
  annotator: Name,
  basedOnVersion: Id.nullable(),
  facts: z.array(z.object({ text: ItemText, from: z.array(Id).max(50).default([]) })).max(2_000),
  note: z.string().max(2_000).optional(),
});

export const KeyFactListEntrySchema = z.object({
  documentKey: Id,
  dataset: z.string(),
  docId: z.string(),
  summaries: Id,
  currentVersion: Id.nullable(),
  versions: Id,
  facts: Id,
  source: SetSourceSchema.nullable(),
  extractor: z.string().nullable(),
});
export type KeyFactListEntry = z.infer<typeof KeyFactListEntrySchema>;

// --- systems under test -------------------------------------------------------------------------

/** The card: each document as one user message asking for a summary, no system message. */
export const DEFAULT_SUMMARY_PROMPT = 'Summarize the following document.\n\n{document}';

/** An OpenAI-compatible model that writes summaries. Never holds a key (only the NAME of an environment variable; a typed key goes to the OS keychain, systems.add apiKey). */
export const SystemConfigSchema = z
  .object({
    baseUrl: BaseUrlSchema.optional(),
    baseUrls: z.array(BaseUrlSchema).min(1).max(MAX_REPLICAS).optional(),
    model: z.string().trim().min(1).max(500),
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name such as OPENAI_API_KEY').nullable().default(null),
    /** The user message; `{document}` is replaced by the document. */
    prompt: z.string().min(1).max(20_000).refine((t) => t.includes('{document}'), { message: 'a prompt containing {document}' }).default(DEFAULT_SUMMARY_PROMPT),
    temperature: z.number().min(0).max(2).default(0),
    topP: z.number().gt(0).max(1).default(1),
    maxTokens: z.number().int().min(1).max(1_000_000).default(1024),
    extra: ExtraFieldsSchema.default({}),
    concurrency: z.number().int().min(1).max(256).default(4),
    timeoutS: z.number().positive().max(3600).default(120),
    retries: z.number().int().min(0).max(20).default(4),
  })
  .strict()
  .refine((v) => v.baseUrl !== undefined || v.baseUrls !== undefined, { message: 'a URL such as http://127.0.0.1:8000/v1', path: ['baseUrl'] });
export type SystemConfig = z.output<typeof SystemConfigSchema>;

export const SystemInfoSchema = z.object({
  name: z.string(),
  /** endpoint: Loupe asks it for summaries; imported: summaries came with a file (its model/system field). */
  kind: z.enum(['endpoint', 'imported']),
  config: SystemConfigSchema.nullable(),
  /** Hash of the answer-affecting fields (model, URL, prompt, decoding); "imported" for imported systems. */
  configHash: z.string(),
  documents: Id,
  ok: Id,
  failed: Id,
  failures: z.array(z.object({ kind: SystemFailureSchema, count: Id })),
  updatedAt: z.string(),
  /**
   * Where a run takes the key from, as for judges: 'stored' (the OS keychain, desktop), a key
   * stored for another endpoint origin (kept, not sent), the environment variable apiKeyEnv, none.
   */
  keySource: z.enum(['stored', 'stored_other_origin', 'env', 'none']),
});
export type SystemInfo = z.infer<typeof SystemInfoSchema>;

// --- LLM tasks (one task engine, issue 8) --------------------------------------------------------

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

const RunRef = z.object({ runId: z.string().min(1) });
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
  /** Lead: every summary with its claim-set state. */
  'claims.list': { input: z.object({ dataset: Name.optional() }), output: z.array(ClaimListEntrySchema) },
  /** Lead: every version of one summary's claims, oldest first, with provenance. */
  'claims.versions': { input: z.object({ key: Id }), output: z.array(ClaimSetSchema) },
  /** Annotator: the summary's sentences and current claims with this annotator's own labels. Blind. */
  'claims.load': { input: z.object({ key: Id, annotator: Name }), output: ClaimAnnotationSchema },
  /** Annotator: one claim's new state, one committed event (append-only; label null clears). */
  'claims.record': {
    input: z.object({ claimId: Id, annotator: Name, state: ClaimLabelStateSchema, timeSpentMs: TimeSpent, cause: ItemRecordCauseSchema }),
    output: z.object({ eventId: Id, claimId: Id, state: ClaimLabelStateSchema }),
  },
  /** Edit, split, merge or drop claims: a new version (source person); earlier labels stay on their version. */
  'claims.edit': { input: ClaimEditInputSchema, output: ClaimSetSchema },
  'keyfacts.list': { input: z.object({ dataset: Name.optional() }), output: z.array(KeyFactListEntrySchema) },
  'keyfacts.versions': { input: z.object({ documentKey: Id }), output: z.array(KeyFactSetSchema) },
  /** Annotator: the document's key facts for one summary, with this annotator's own labels. Blind. */
  'keyfacts.load': { input: z.object({ key: Id, annotator: Name }), output: KeyFactAnnotationSchema },
  'keyfacts.record': {
    input: z.object({ keyFactId: Id, key: Id, annotator: Name, state: KeyFactLabelStateSchema, timeSpentMs: TimeSpent, cause: ItemRecordCauseSchema }),
    output: z.object({ eventId: Id, keyFactId: Id, key: Id, state: KeyFactLabelStateSchema }),
  },
  'keyfacts.edit': { input: KeyFactEditInputSchema, output: KeyFactSetSchema },
  'systems.list': { input: Empty, output: z.array(SystemInfoSchema) },
  /**
   * Adds or replaces a system. apiKey (desktop only: the OS keychain, bound to the origins of the
   * config's base URLs): a string stores it, null removes a stored one, absent keeps it. The CLI
   * and `loupe serve` read config.apiKeyEnv under the host's --allow-key-env policy.
   */
  'systems.add': { input: z.object({ name: Name, config: SystemConfigSchema, apiKey: z.string().min(LIMITS.judge.apiKeyChars.min).max(LIMITS.judge.apiKeyChars.max).nullable().optional() }), output: SystemInfoSchema },
  'systems.remove': { input: z.object({ name: Name }), output: z.object({ removed: z.boolean() }) },
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

/** The annotation side: an annotator link may call these, each naming its own annotator. */
export const ACCURACY_ANNOTATOR_METHODS = {
  'claims.load': 'annotator',
  'claims.record': 'annotator',
  'claims.edit': 'annotator',
  'keyfacts.load': 'annotator',
  'keyfacts.record': 'annotator',
  'keyfacts.edit': 'annotator',
} as const;
