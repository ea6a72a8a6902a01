/**
 * The one contract between the UI and the core. Every host (Electron IPC, the `loupe serve`
 * HTTP harness) exposes exactly these methods, validates inputs and outputs with these schemas,
 * and nothing else reaches the renderer.
 *
 * Blindness (ARCHITECTURE.md rule 1): no output schema of the `annotation.*` methods has a
 * field for judge predictions or global labels; the hosts strip unknown keys by parsing outputs.
 */
import { z } from 'zod';
import { ERROR_TYPES, ErrorTypeSchema, GlobalLabelSchema, HumanLabelSchema } from './domain';
import { IMPORT_KINDS } from './formats/types';
import { API_ERROR_CODES, ApiError, type ApiErrorBody } from './errors';
import { BaselineConfigSchema, EndpointConfigSchema, JUDGE_KINDS, JudgeConfigSchema, JsonValueSchema } from './judges/config';
import { AnalysisReportSchema } from './analysis/schema';
import { LIMITS } from './limits';
import { boundedNumber } from './bounded';
import { ACCURACY_ANNOTATOR_METHODS, ACCURACY_API } from './accuracy/contract';
import { SCAFFOLD_ANNOTATOR_METHODS, SCAFFOLD_API } from './scaffold/contract';

const Name = z.string().trim().min(LIMITS.nameChars.min).max(LIMITS.nameChars.max);
const Empty = z.object({}).strict();

export const ProjectInfoSchema = z.object({
  path: z.string(),
  name: z.string(),
  schemaVersion: z.number().int(),
  isDemo: z.boolean(),
});
export type ProjectInfo = z.infer<typeof ProjectInfoSchema>;

export const DatasetStatsSchema = z.object({
  name: z.string(),
  documents: z.number().int(),
  documentsMissing: z.number().int(),
  summaries: z.number().int(),
  units: z.number().int(),
  sampled: z.number().int(),
  batches: z.number().int(),
});
export type DatasetStats = z.infer<typeof DatasetStatsSchema>;

/**
 * A person of the project, or an imported label set (a benchmark's annotators such as FRANK's):
 * imported ones are read-only sources, never offered or written as the current annotator.
 */
export const AnnotatorKindSchema = z.enum(['person', 'imported']);
export const AnnotatorSchema = z.object({ id: z.number().int(), name: z.string(), kind: AnnotatorKindSchema });
export type Annotator = z.infer<typeof AnnotatorSchema>;

/** An annotator's profile: what they have done, and how fast (outside blind annotation only). */
export const AnnotatorActivitySchema = z.object({
  name: z.string(),
  /** A person of the project, or a label set a benchmark import brought (read-only). */
  kind: AnnotatorKindSchema,
  annotationLabels: z.number().int(),
  reviewDecisions: z.number().int(),
  /** Current claim labels; key-fact labels (covered / not, and which sentences convey a fact); Semantic Scaffold alignments. */
  claimLabels: z.number().int(),
  keyFactLabels: z.number().int(),
  scaffoldAlignments: z.number().int(),
  events: z.number().int(),
  /** Keypress decisions with a recorded time. */
  timedDecisions: z.number().int(),
  medianMsPerDecision: z.number().nullable(),
  /** Decisions faster than fastMs: implausibly fast for reading a sentence against its document. */
  fastDecisions: z.number().int(),
  firstAt: z.string().nullable(),
  lastAt: z.string().nullable(),
});
export type AnnotatorActivity = z.infer<typeof AnnotatorActivitySchema>;

export const ImportKindSchema = z.enum(IMPORT_KINDS);

/**
 * Largest browser upload: `loupe serve` accepts request bodies up to 256 MiB and base64 needs
 * 4 characters per 3 bytes, so 191 MiB of file (≈ 255 MiB of base64) plus the call around it fit.
 */
export const UPLOAD_MAX_BYTES = 191 * 1024 * 1024;
const UPLOAD_BASE64_MAX_CHARS = Math.ceil(UPLOAD_MAX_BYTES / 3) * 4;

export const ImportSourceSchema = z.discriminatedUnion('type', [
  /** A file or folder on the host's disk (desktop app, CLI). */
  z.object({ type: z.literal('path'), path: z.string().min(1) }),
  /**
   * A file's bytes sent by the browser (drag and drop or the file input in `loupe serve`), in
   * base64: the core decodes them with the same strict UTF-8 decoder as a file on disk.
   */
  z.object({
    type: z.literal('upload'),
    name: z.string().min(1).max(500),
    base64: z.base64({ error: 'the file\'s bytes in base64' }).max(UPLOAD_BASE64_MAX_CHARS, {
      error: `a file of at most ${UPLOAD_MAX_BYTES / 1024 / 1024} MiB (uploads travel in base64 inside the server's 256 MiB request limit); import larger files with \`loupe import\``,
    }),
  }),
]);
export type ImportSource = z.infer<typeof ImportSourceSchema>;

/** Benchmark predictions left out of an import because they do not fit their record (the rest is imported). */
export const SkippedPredictionsSchema = z.object({
  file: z.string(),
  line: z.number().int().optional(),
  record: z.number().int().optional(),
  /** The record's summary (as stored) and the file's field that holds the predictions. */
  summaryId: z.string(),
  field: z.string(),
  /** Predictions the record needs (its sentences) and predictions the file has. */
  expected: z.number().int(),
  found: z.number().int(),
});
export type SkippedPredictions = z.infer<typeof SkippedPredictionsSchema>;

export const ProblemSchema = z.object({
  file: z.string(),
  line: z.number().int().optional(),
  record: z.number().int().optional(),
  field: z.string().optional(),
  expected: z.string(),
  found: z.string().optional(),
});

export const ImportResultSchema = z.object({
  kind: ImportKindSchema,
  datasets: z.array(z.string()),
  filesUsed: z.array(z.string()),
  summariesAdded: z.number().int(),
  summariesUnchanged: z.number().int(),
  unitsAdded: z.number().int(),
  labelsAdded: z.number().int(),
  labelsUnchanged: z.number().int(),
  predictionsKept: z.number().int(),
  /** Records whose bundled judge predictions did not fit (e.g. an LLM merged two sentences): imported without them. */
  predictionsSkipped: z.array(SkippedPredictionsSchema),
  notes: z.array(z.string()),
  /** Claims and key facts written (realsumm, accuracy); their labels and judge outputs are also in labelsAdded / predictionsKept. */
  accuracy: z
    .object({ claimSets: z.number().int(), keyFactSets: z.number().int(), labels: z.number().int(), predictions: z.number().int(), systemOutputs: z.number().int() })
    .optional(),
  /** Semantic Scaffold versions and alignments written (scaffold, scaffold-alignments). */
  scaffold: z.object({ scaffolds: z.number().int(), alignments: z.number().int() }).optional(),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;

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

export const SampleBatchSchema = z.object({
  dataset: z.string(),
  batch: z.number().int(),
  seed: z.number().int(),
  requested: z.number().int(),
  annotator: z.string().nullable(),
  summaryIds: z.array(z.string()),
  /** True when fewer than `requested` unsampled summaries were left. */
  exhausted: z.boolean(),
  createdAt: z.string(),
  /** The overlap asked for when drawn with annotators (schema 5); null otherwise. */
  overlap: z.number().nullable(),
  /** Per annotator (by name), the summaries assigned to them in batch order; empty for a batch drawn without annotators. */
  assignments: z.array(z.object({ annotator: z.string(), summaryIds: z.array(z.string()) })),
});
export type SampleBatch = z.infer<typeof SampleBatchSchema>;

export const ProgressSchema = z.object({
  unitsDone: z.number().int(),
  unitsTotal: z.number().int(),
  summariesDone: z.number().int(),
  summariesTotal: z.number().int(),
});
export type Progress = z.infer<typeof ProgressSchema>;

/** One summary of an annotator's queue. Deliberately no global label. */
export const QueueItemSchema = z.object({
  key: z.number().int(),
  dataset: z.string(),
  summaryId: z.string(),
  docId: z.string(),
  units: z.number().int(),
  labeled: z.number().int(),
  documentMissing: z.boolean(),
});
export type QueueItem = z.infer<typeof QueueItemSchema>;

export const QueueSchema = z.object({
  annotator: z.string(),
  items: z.array(QueueItemSchema),
  progress: ProgressSchema,
  /** Index into items of the first summary with an unlabeled unit (null: all done). */
  resumeAt: z.number().int().nullable(),
});
export type Queue = z.infer<typeof QueueSchema>;

export const UnitLabelStateSchema = z
  .object({
    label: HumanLabelSchema.nullable(),
    errorType: ErrorTypeSchema.nullable(),
    note: z.string().nullable(),
  })
  .refine((s) => s.errorType === null || s.label === 'unfaithful', {
    message: 'An error type applies only to an Unfaithful sentence.',
    path: ['errorType'],
  });
export type UnitLabelState = z.infer<typeof UnitLabelStateSchema>;

/** A unit as the annotator sees it: text, offsets and the annotator's *own* current label. */
export const AnnotationUnitSchema = z.object({
  id: z.number().int(),
  index: z.number().int(),
  text: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  fragment: z.boolean(),
  state: UnitLabelStateSchema,
});
export type AnnotationUnit = z.infer<typeof AnnotationUnitSchema>;

export const AnnotationSummarySchema = z.object({
  key: z.number().int(),
  dataset: z.string(),
  summaryId: z.string(),
  docId: z.string(),
  summary: z.string(),
  /** null: the document is missing; its units cannot be labeled until one is attached. */
  document: z.string().nullable(),
  splitter: z.string(),
  units: z.array(AnnotationUnitSchema),
  /** This annotator revealed the summary's judge outputs or benchmark labels (issue 9): their labels on it are recorded blind: false. */
  revealed: z.boolean().optional(),
});
export type AnnotationSummary = z.infer<typeof AnnotationSummarySchema>;

export const RecordCauseSchema = z.enum(['label', 'error_type', 'note', 'undo', 'redo', 'clear']);

export const RecordInputSchema = z.object({
  unitId: z.number().int(),
  annotator: Name,
  /** The whole new state of the unit for this annotator; label null clears it. */
  state: UnitLabelStateSchema,
  timeSpentMs: boundedNumber(LIMITS.timeSpentMs).nullable(),
  cause: RecordCauseSchema,
});
export type RecordInput = z.infer<typeof RecordInputSchema>;

export const ExportInputSchema = z.object({
  format: z.enum(['jsonl', 'csv']),
  history: z.boolean().default(false),
  dataset: z.string().optional(),
  /** Judge predictions (one row per sentence and judge, current version) instead of labels. */
  predictions: z.boolean().optional(),
  /** Review results (one row per review-phase decision, issue 5) instead of labels. */
  review: z.boolean().optional(),
  /**
   * Claims and key facts (issue 11) instead of labels: Loupe's accuracy records (summaries, system
   * outputs, key-fact and claim sets with their provenance, people's labels, judge outputs), the
   * file `loupe import --as accuracy` reads back.
   */
  accuracy: z.boolean().optional(),
  /** Semantic Scaffolds (issue 12) instead of labels: one `scaffold` line per document (current version), JSON Lines only; import back with --as scaffold. */
  scaffold: z.boolean().optional(),
  /** The scaffold alignments (issue 12): one `scaffold-alignments` line per (summary, source) on the current version, JSON Lines only. */
  scaffoldAlignments: z.boolean().optional(),
  /**
   * The dataset card instead of rows: one JSON document (counts, annotators and adjudicators, dates,
   * Loupe version, splitters, judge configurations without keys or env values, the label rules).
   */
  card: z.boolean().optional(),
  /**
   * CSV only: write text cells exactly as stored. By default a cell starting with = + - @ TAB or CR
   * gets a leading ' so a spreadsheet cannot run it as a formula (CSV injection).
   */
  rawCsv: z.boolean().optional(),
});
export type ExportInput = z.infer<typeof ExportInputSchema>;

export const ExportOutputSchema = z.object({
  fileName: z.string(),
  mime: z.string(),
  content: z.string(),
  rows: z.number().int(),
});

export const HostInfoSchema = z.object({
  version: z.string(),
  host: z.enum(['electron', 'web']),
  /** Native open/save dialogs exist (desktop); the browser uploads and downloads instead. */
  fileDialogs: z.boolean(),
  /** The caller may name paths on this machine's disk (desktop, CLI); never `loupe serve`. */
  diskPaths: z.boolean(),
  /** The host may switch projects (desktop); `loupe serve` is bound to one project. */
  canSwitchProjects: z.boolean(),
  /** API keys can be kept in the OS keychain (desktop with safeStorage). */
  keychain: z.boolean(),
  project: ProjectInfoSchema.nullable(),
  /**
   * Who this connection is (issue 9): the lead (everything) or one annotator, whose link allows
   * only that annotator's annotation calls (ANNOTATOR_METHODS). The desktop app and the CLI are
   * the lead.
   */
  role: z.enum(['lead', 'annotator']),
  /** The annotator of an annotator link (fixed); for the lead, a preselected name or null. */
  annotator: z.string().nullable(),
});
export type HostInfo = z.infer<typeof HostInfoSchema>;

/** Who makes a call, as the host established it (token, desktop, CLI): checked in dispatch. */
export type Caller = { role: 'lead' } | { role: 'annotator'; annotator: string };
export const LEAD: Caller = { role: 'lead' };

// --- annotator links (issue 9; loupe serve) -----------------------------------------------------

export const AnnotatorLinkSchema = z.object({
  id: z.string(),
  annotator: z.string(),
  createdAt: z.string(),
  /** The link with its token: shown once, when created (null in listings). */
  url: z.string().nullable(),
});
export type AnnotatorLink = z.infer<typeof AnnotatorLinkSchema>;

// --- reveal gate (issue 9) ------------------------------------------------------------------------

/** Views that show judge outputs or benchmark labels. */
export const REVEALING_VIEWS = ['analysis', 'review', 'judges'] as const;
export const RevealStatusSchema = z.object({
  annotator: z.string(),
  /** Summaries of the annotator's sample with an unlabeled unit: what opening such a view would reveal. */
  unfinished: z.number().int(),
  /** Of those, already revealed earlier (labels on them are recorded with blind: false). */
  revealed: z.number().int(),
});
export type RevealStatus = z.infer<typeof RevealStatusSchema>;


// --- judges (issue 3) ---------------------------------------------------------------------------
// Never part of any annotation.* payload: predictions stay out of the blind annotation view.

export const JudgeKindSchema = z.enum(JUDGE_KINDS);

/**
 * Where a judge's API key comes from at run time. The key itself never crosses the API.
 * 'stored_other_origin': a key is in the keychain but was entered for another endpoint origin (the
 * base URL changed): it is not sent until typed again (runs use the environment variable, if any).
 */
export const KeySourceSchema = z.enum(['none', 'env', 'stored', 'stored_other_origin']);

export const JudgePredictionCountsSchema = z.object({
  /** Sentences with a hard label (current version). */
  ok: z.number().int(),
  /** Answers that were not {"faithful": 0|1}; stored with their raw text, never guessed. */
  parseErrors: z.number().int(),
  /** Calls that failed after their retries; retried by the next run. */
  failed: z.number().int(),
  /** Of `ok`, how many also have a soft label. */
  soft: z.number().int(),
});

export const JudgeInfoSchema = z.object({
  name: z.string(),
  kind: JudgeKindSchema,
  /** null for imported judges (predictions from a file). Never holds a key. */
  config: JudgeConfigSchema.nullable(),
  /** Hash of the fields that change answers (the judge version); "imported" when unknown. */
  configHash: z.string().nullable(),
  description: z.string(),
  keySource: KeySourceSchema,
  /** The environment variable the key is read from (its name only), if any. */
  apiKeyEnv: z.string().nullable(),
  versions: z.number().int(),
  predictions: JudgePredictionCountsSchema,
  /** A run that is running or paused, if any. */
  activeRunId: z.string().nullable(),
  updatedAt: z.string(),
});
export type JudgeInfo = z.infer<typeof JudgeInfoSchema>;

export const JUDGE_ERROR_KINDS = [
  'rate_limited',
  'server_error',
  'timeout',
  'connection',
  'auth',
  'client_error',
  'malformed_response',
  'parse_error',
] as const;
export const JudgeErrorKindSchema = z.enum(JUDGE_ERROR_KINDS);
export type JudgeErrorKind = z.infer<typeof JudgeErrorKindSchema>;

export const JudgeRunStateSchema = z.enum(['running', 'paused', 'done', 'cancelled', 'failed']);

/** One replica (base URL) of an endpoint judge during a run. */
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

/** What a start (or a batch export) of a judge over a selection would send, before it does. */
export const JudgePlanSchema = z.object({
  judge: z.string(),
  configHash: z.string(),
  dataset: z.string().nullable(),
  onlySampled: z.boolean(),
  /** false: the offline baseline (no request leaves the machine). */
  remote: z.boolean(),
  /** Sentences of the selection (with or without a document). */
  selection: z.number().int(),
  /** Answered before by this version. */
  done: z.number().int(),
  /** Answer found in the content cache (no request). */
  cached: z.number().int(),
  /** Requests a start sends: one per sentence content still unanswered (paid calls on a hosted API). */
  requests: z.number().int(),
  /** Sentences sharing a request with another of the same content. */
  shared: z.number().int(),
  /** Left out: their document is missing. */
  missing: z.number().int(),
});
export type JudgePlan = z.infer<typeof JudgePlanSchema>;

const BatchProblemSchema = z.object({ line: z.number().int(), customId: z.string().nullable(), message: z.string() });

/** A batch request file written (OpenAI Batch API JSONL): what it holds. */
export const JudgeBatchExportSchema = JudgePlanSchema.extend({
  /** The file written (path given), else null. */
  path: z.string().nullable(),
  /** A name for the file (the browser's download). */
  fileName: z.string(),
  /** The file's text when no path was given (`loupe serve`: the browser downloads it); else null. */
  content: z.string().nullable(),
});
export type JudgeBatchExport = z.infer<typeof JudgeBatchExportSchema>;

/** A batch engine's output file read back: what was stored, what was not and why. */
export const JudgeBatchImportSchema = z.object({
  judge: z.string(),
  configHash: z.string(),
  lines: z.number().int(),
  /** Stored with a label, exactly as a live call's answer. */
  answered: z.number().int(),
  /** Stored as unparseable (kept with their text). */
  parseErrors: z.number().int(),
  /** Stored as failed calls (status ≠ 200, error objects, bodies that are not completions): the next run or batch sends them again. */
  failed: z.number().int(),
  /** custom_ids that are not a sentence still to do of this judge version (another judge or version, answered before, or not Loupe's). */
  unknown: z.number().int(),
  duplicates: z.number().int(),
  /** Lines that are not JSON or not an output line. */
  invalid: z.number().int(),
  /** Sentences filled from the content cache after the import (same content as an answered one). */
  shared: z.number().int(),
  /** Sentences of the judge still without an answer (failed ones included): a later run or batch sends them. */
  stillToDo: z.number().int(),
  problems: z.object({ unknown: z.array(BatchProblemSchema), failed: z.array(BatchProblemSchema), invalid: z.array(BatchProblemSchema) }),
  notes: z.array(z.string()),
});
export type JudgeBatchImport = z.infer<typeof JudgeBatchImportSchema>;

export const JudgeRunStatusSchema = z.object({
  runId: z.string(),
  judge: z.string(),
  configHash: z.string(),
  dataset: z.string().nullable(),
  onlySampled: z.boolean(),
  state: JudgeRunStateSchema,
  /**
   * Why a paused run is paused: the user (or SIGINT), or the circuit: the endpoint is down
   * (connection failures, timeouts, 5xx in a row) or rejects every request (401/403/404 in a row).
   */
  pauseReason: z.enum(['user', 'endpoint_unreachable', 'endpoint_rejects']).nullable(),
  /** One line for people: "running", "paused: endpoint unreachable", "done: 3 sentences failed". */
  message: z.string(),
  /** Sentences finished in this run's selection (answered, cached, parse errors, failures). */
  done: z.number().int(),
  total: z.number().int(),
  /** Answered without a request: stored earlier or found in the content cache. */
  cached: z.number().int(),
  /** HTTP requests sent by this run, retries included. */
  requests: z.number().int(),
  ok: z.number().int(),
  parseErrors: z.number().int(),
  failed: z.number().int(),
  /** Sentences left out because their document is missing. */
  missingDocuments: z.number().int(),
  /** Sentences per second over the last half minute; null before the first answer. */
  ratePerSecond: z.number().nullable(),
  etaSeconds: z.number().nullable(),
  tokens: z.object({ prompt: z.number().int(), completion: z.number().int() }),
  /** Endpoint judges: each replica's health, adaptive concurrency limit and requests (absent: none). */
  replicas: z.array(ReplicaStatusSchema).optional(),
  /** Failed attempts grouped by kind (retries included); messages have keys redacted. */
  errors: z.array(z.object({ kind: JudgeErrorKindSchema, count: z.number().int(), lastMessage: z.string() })),
  /** Said once per run, e.g. "the endpoint returned no log-probabilities: hard labels only". */
  notes: z.array(z.string()),
  startedAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type JudgeRunStatus = z.infer<typeof JudgeRunStatusSchema>;

export const JudgePreviewSchema = z.object({
  configHash: z.string(),
  /** The sentence the preview was built for (null: the project has no sentence with a document). */
  unit: z
    .object({ unitId: z.number().int(), dataset: z.string(), summaryId: z.string(), sentenceIndex: z.number().int(), sentence: z.string() })
    .nullable(),
  /** Endpoint judges: the exact request. Baseline: null (no request is sent). */
  request: z
    .object({
      method: z.literal('POST'),
      url: z.string(),
      /** Authorization is shown as "Bearer <key from …>", never the key. */
      headers: z.record(z.string(), z.string()),
      body: JsonValueSchema,
    })
    .nullable(),
  /** Content-cache key of this (configuration, document, sentence). */
  cacheKey: z.string().nullable(),
});
export type JudgePreview = z.infer<typeof JudgePreviewSchema>;

// --- judge audit (issue 4) ----------------------------------------------------------------------
// Reveals judge predictions and global labels: never called by the annotation view.

/** What `analysis.start` takes; every field optional (defaults: 2,000 replicates, seed 0, cap 25, all datasets). */
export const AnalysisStartInputSchema = z.object({
  /** Bootstrap replicates (0 = no intervals). */
  bootstrap: boundedNumber(LIMITS.analysis.bootstrap).default(LIMITS.analysis.bootstrap.default!),
  /** Seed of every random stream: same project content and seed → the same numbers in every host. */
  seed: boundedNumber(LIMITS.analysis.seed).default(LIMITS.analysis.seed.default!),
  /** Review queue cap per dataset (suspicious summaries listed). */
  cap: boundedNumber(LIMITS.analysis.cap).default(LIMITS.analysis.cap.default!),
  /** One dataset; absent: every dataset of the project. */
  dataset: Name.optional(),
  /**
   * Whose labels are the human reference (issue 9): the project's own people, the imported label
   * sets (benchmark annotators), or both. Shown in the report with its n.
   */
  reference: z.enum(['people', 'imported', 'both']).default('both'),
  /**
   * How several annotators' labels of a unit resolve: `unanimous` = adjudicated, else the label
   * they all agree on (disagreements unresolved); `majority` = adjudicated, else the mode of the
   * usable labels (a tie is unresolved and counted), as FineSurE/FRANK/QAGS aggregate.
   */
  humanLabel: z.enum(['unanimous', 'majority']).default('unanimous'),
  /** Labels given after their summary's judge outputs were revealed (blind: false): left out unless true (counted either way). */
  includeRevealed: z.boolean().default(false),
});
export type AnalysisStartInput = z.input<typeof AnalysisStartInputSchema>;

export const AnalysisSettingsUsedSchema = z.object({
  bootstrap: z.number().int(),
  seed: z.number().int(),
  cap: z.number().int(),
  /** null: every dataset. */
  dataset: z.string().nullable(),
});

export const AnalysisStateSchema = z.enum(['running', 'done', 'failed', 'cancelled']);

export const AnalysisStatusSchema = z.object({
  jobId: z.string(),
  state: AnalysisStateSchema,
  settings: AnalysisSettingsUsedSchema,
  progress: z.object({
    /** "starting", "loading", "analysing <dataset>", "rendering", "done". */
    phase: z.string(),
    /** Steps done of total (loading, one per dataset, rendering); fraction = done / total. */
    done: z.number().int(),
    total: z.number().int(),
  }),
  /** The report once state is done (null before, and after a failure or cancel). */
  report: AnalysisReportSchema.nullable(),
  /** The same report as readable Markdown (null until done). */
  markdown: z.string().nullable(),
  error: z.object({ message: z.string() }).nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type AnalysisStatus = z.infer<typeof AnalysisStatusSchema>;
const AnalysisJobRef = z.object({ jobId: z.string().min(1) });

// --- review queues and adjudication (issue 5) ----------------------------------------------------
// review.queue and review.card are blind like annotation.*: no field for a judge label, another
// person's label or the global label. Those come only from review.reveal (and review.record's
// answer), and only for sentences the adjudicator has decided. review.table and
// review.corrections are audit views (like analysis.*): never called by the review card.

export const REVIEW_QUEUES = ['suspicious', 'human-judge', 'judges-split', 'human-human'] as const;
export const ReviewQueueKindSchema = z.enum(REVIEW_QUEUES);
export type ReviewQueueKind = z.infer<typeof ReviewQueueKindSchema>;

/** Default review cap per dataset (PROTOCOL: up to 25 suspicious summaries) and fast-decision threshold. */
export const REVIEW_DEFAULT_CAP = LIMITS.review.cap.default!;
export const REVIEW_DEFAULT_FAST_MS = LIMITS.review.fastMs.default!;

/**
 * Which judges define a queue (suspicious: "every judge"; human-judge: any of them disagrees with
 * the human label; judges-split: they do not all agree). Absent: every judge with a prediction in
 * the dataset. Ignored by human-human.
 */
const JudgePanel = z.array(Name).min(1).max(100).optional();
const ReviewCap = boundedNumber(LIMITS.review.cap).default(REVIEW_DEFAULT_CAP);
const FastMs = boundedNumber(LIMITS.review.fastMs).default(REVIEW_DEFAULT_FAST_MS);
/** Which card: the summary, the queue that marks its sentences and the judge panel of that queue. */
const ReviewCardRef = z.object({ key: z.number().int(), queue: ReviewQueueKindSchema, reviewer: Name, judges: JudgePanel });

export const ReviewQueueInputSchema = z.object({
  queue: ReviewQueueKindSchema,
  dataset: Name,
  judges: JudgePanel,
  /** Keep summaries with a marked sentence that carries this error type in a current human label (any annotator, or the decision). */
  errorType: ErrorTypeSchema.optional(),
  cap: ReviewCap,
  /** A decision whose blind time (first decision on the sentence) is below this is flagged as implausibly fast. */
  fastMs: FastMs,
  /** Whose decisions `decided` and `fast` refer to; absent: any adjudicator's. */
  reviewer: Name.optional(),
});
export type ReviewQueueInput = z.input<typeof ReviewQueueInputSchema>;

/** One summary of a review queue. Deliberately no label of any kind. */
export const ReviewQueueItemSchema = z.object({
  key: z.number().int(),
  summaryId: z.string(),
  docId: z.string(),
  sentences: z.number().int(),
  /** Sentence indexes to decide, ascending. */
  marked: z.array(z.number().int()),
  /** Of marked, those with a current decision (by `reviewer`, or by anyone). */
  decided: z.array(z.number().int()),
  /** Of decided, those whose blind decision took less than fastMs (time not recorded: not flagged). */
  fast: z.array(z.number().int()),
  documentMissing: z.boolean(),
});
export type ReviewQueueItem = z.infer<typeof ReviewQueueItemSchema>;

export const ReviewQueueSchema = z.object({
  queue: ReviewQueueKindSchema,
  dataset: z.string(),
  /** Judges in the panel (their names are not listed: reveal may anonymise them). */
  judgeCount: z.number().int(),
  /** suspicious: PROTOCOL's pool (before the fragment filter); other queues: summaries with a marked sentence. */
  pool: z.number().int(),
  /** Summaries left after every filter, before the cap. */
  matching: z.number().int(),
  cap: z.number().int(),
  fastMs: z.number().int(),
  /** Sorted by doc id, then summary id (code-unit order), then capped. */
  items: z.array(ReviewQueueItemSchema),
});
export type ReviewQueue = z.infer<typeof ReviewQueueSchema>;

export const ReviewProgressSchema = z.object({ marked: z.number().int(), decided: z.number().int() });

/** A sentence on the review card: text and the adjudicator's *own* review decision; never another label. */
export const ReviewUnitSchema = z.object({
  id: z.number().int(),
  index: z.number().int(),
  text: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  fragment: z.boolean(),
  /** To decide (true) or context (false). */
  marked: z.boolean(),
  decision: UnitLabelStateSchema,
});
export type ReviewUnit = z.infer<typeof ReviewUnitSchema>;

export const ReviewCardSchema = z.object({
  key: z.number().int(),
  dataset: z.string(),
  summaryId: z.string(),
  docId: z.string(),
  queue: ReviewQueueKindSchema,
  summary: z.string(),
  document: z.string().nullable(),
  splitter: z.string(),
  units: z.array(ReviewUnitSchema),
  progress: ReviewProgressSchema,
});
export type ReviewCard = z.infer<typeof ReviewCardSchema>;

const Anonymise = {
  /** Judges as "Judge A", "Judge B", … (stable per dataset: project judges in creation order). */
  anonymizeJudges: z.boolean().default(false),
  /** Annotators as "Annotator 1", "Annotator 2", … (stable per dataset: annotators in creation order). */
  anonymizeAnnotators: z.boolean().default(false),
};

export const RevealedSentenceSchema = z.object({
  unitId: z.number().int(),
  index: z.number().int(),
  decision: UnitLabelStateSchema,
  /** Current version of each judge in the panel that has a prediction for the sentence. */
  judges: z.array(z.object({ judge: z.string(), hard: z.union([z.literal(0), z.literal(1)]).nullable(), soft: z.number().nullable() })),
  /** Other people's current annotation-phase labels (the adjudicator's own left out). */
  annotators: z.array(z.object({ annotator: z.string(), label: HumanLabelSchema, errorType: ErrorTypeSchema.nullable() })),
});
export type RevealedSentence = z.infer<typeof RevealedSentenceSchema>;

export const ReviewRevealSchema = z.object({
  key: z.number().int(),
  dataset: z.string(),
  summaryId: z.string(),
  /** The benchmark label; null while hidden or when the benchmark has none. */
  globalLabel: GlobalLabelSchema.nullable(),
  /** The global label is summary-wide: it stays hidden until every marked sentence is decided. */
  globalLabelHidden: z.boolean(),
  sentences: z.array(RevealedSentenceSchema),
});
export type ReviewReveal = z.infer<typeof ReviewRevealSchema>;

export const ReviewRecordInputSchema = z.object({
  unitId: z.number().int(),
  queue: ReviewQueueKindSchema,
  reviewer: Name,
  judges: JudgePanel,
  /** The whole new decision for the sentence; label null clears it (reveal is refused again). */
  state: UnitLabelStateSchema,
  timeSpentMs: boundedNumber(LIMITS.timeSpentMs).nullable(),
  cause: RecordCauseSchema,
  ...Anonymise,
});
export type ReviewRecordInput = z.input<typeof ReviewRecordInputSchema>;

const ErrorTypeCounts = z.record(z.enum([...ERROR_TYPES, 'untyped']), z.number().int());

/** Table 4 for one dataset: the suspicious queue (all listed summaries) and its decisions. */
export const ReviewTableSchema = z.object({
  dataset: z.string(),
  judgeCount: z.number().int(),
  /** Suspicious summaries before the fragment filter. */
  pool: z.number().int(),
  afterFragmentFilter: z.number().int(),
  cap: z.number().int(),
  listed: z.number().int(),
  /** Listed summaries with ≥ 1 decided flagged sentence. */
  reviewed: z.number().int(),
  flaggedSentences: z.number().int(),
  unfaithful: z.number().int(),
  faithful: z.number().int(),
  unclear: z.number().int(),
  notReviewed: z.number().int(),
  /** U / (U + F); null when U + F = 0. */
  pctUnfaithful: z.number().nullable(),
  pctUnfaithfulN: z.number().int(),
  /** Error types of the unfaithful decisions. */
  errorTypes: ErrorTypeCounts,
  /** Decisions flagged as implausibly fast (blind time < fastMs). */
  fast: z.number().int(),
});
export type ReviewTable = z.infer<typeof ReviewTableSchema>;

export const CorrectionSchema = z.object({
  key: z.number().int(),
  summaryId: z.string(),
  docId: z.string(),
  benchmarkLabel: GlobalLabelSchema.nullable(),
  /** Conjunctive rule over adjudicated-or-resolved sentence labels; null: not determined. */
  correctedLabel: GlobalLabelSchema.nullable(),
  basis: z.enum(['unfaithful_sentence', 'all_sentences', 'undetermined']),
  sentences: z.number().int(),
  faithful: z.number().int(),
  unfaithful: z.number().int(),
  unclear: z.number().int(),
  /** Sentences with no usable label (none, or an unresolved disagreement). */
  unknown: z.number().int(),
  /** Sentences whose label is an adjudicator's decision. */
  adjudicated: z.number().int(),
  flipped: z.boolean(),
});
export type Correction = z.infer<typeof CorrectionSchema>;

export const DatasetCorrectionsSchema = z.object({
  dataset: z.string(),
  /** The rule, in words. */
  rule: z.string(),
  /** Summaries with ≥ 1 human label (annotation or review), by doc id then summary id. */
  summaries: z.array(CorrectionSchema),
  /** Of those, the ones whose corrected label differs from the benchmark's. */
  flips: z.array(CorrectionSchema),
});
export type DatasetCorrections = z.infer<typeof DatasetCorrectionsSchema>;

/** An API key typed in the desktop app; stored in the OS keychain, never in the project. */
const ApiKeyInput = z.string().min(LIMITS.judge.apiKeyChars.min).max(LIMITS.judge.apiKeyChars.max);
const RunRef = z.object({ runId: z.string().min(1) });

const RecentSchema = z.array(z.object({ path: z.string(), name: z.string(), openedAt: z.string() }));

/** Merging annotators' copies (issue 5): what happened to one file (all of it merged, or nothing: see problems). */
export const MergeFileResultSchema = z.object({
  path: z.string(),
  sourceProject: z.string().nullable(),
  merged: z.boolean(),
  eventsAdded: z.number().int(),
  eventsPresent: z.number().int(),
  /** Schema 9: of the events above, people's scaffold alignments; and people's scaffold versions added. */
  alignmentsAdded: z.number().int().optional(),
  alignmentsPresent: z.number().int().optional(),
  scaffoldsAdded: z.number().int().optional(),
  annotators: z.array(z.string()),
  annotatorsAdded: z.array(z.string()),
  summariesMatched: z.number().int(),
  summariesNotInProject: z.number().int(),
  problems: z.array(z.string()),
});
export type MergeFileResult = z.infer<typeof MergeFileResultSchema>;

/** Every method: its input and output schema. Keys are the channel names. */
export const API = {
  'app.info': { input: Empty, output: HostInfoSchema },
  'projects.recent': { input: Empty, output: RecentSchema },
  'projects.open': { input: z.object({ path: z.string().min(1) }), output: ProjectInfoSchema },
  'projects.create': { input: z.object({ path: z.string().min(1) }), output: ProjectInfoSchema },
  'projects.openDemo': { input: Empty, output: ProjectInfoSchema },
  'datasets.list': { input: Empty, output: z.array(DatasetStatsSchema) },
  'annotators.list': { input: Empty, output: z.array(AnnotatorSchema) },
  'annotators.ensure': { input: z.object({ name: Name }), output: AnnotatorSchema },
  'annotators.activity': {
    input: z.object({ fastMs: boundedNumber(LIMITS.annotators.fastMs).default(LIMITS.annotators.fastMs.default!) }),
    output: z.array(AnnotatorActivitySchema),
  },
  'imports.start': {
    input: z.object({
      source: ImportSourceSchema,
      as: ImportKindSchema.optional(),
      dataset: Name.optional(),
    }),
    output: z.object({ jobId: z.string() }),
  },
  'jobs.get': { input: z.object({ jobId: z.string() }), output: JobSchema },
  'jobs.cancel': { input: z.object({ jobId: z.string() }), output: JobSchema },
  'sampling.draw': {
    input: z
      .object({
        dataset: Name,
        n: boundedNumber(LIMITS.sampling.n),
        seed: boundedNumber(LIMITS.sampling.seed).default(LIMITS.sampling.seed.default!),
        annotator: Name.optional(),
        /** Split the batch among these annotators (assignments with overlap, shared/sampling.ts assignWithOverlap). */
        annotators: z.array(Name).min(LIMITS.sampling.annotators.min).max(LIMITS.sampling.annotators.max).optional(),
        /** Share of the batch's summaries that go to two annotators (needs `annotators`); default 0. */
        overlap: boundedNumber(LIMITS.sampling.overlap).optional(),
      })
      .superRefine((v, ctx) => {
        const refuse = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
        if (v.annotators !== undefined && v.annotator !== undefined) refuse('annotators', 'Give either one annotator for the whole batch or annotators to split it among, not both.');
        if ((v.overlap ?? 0) > 0 && v.annotators === undefined) refuse('overlap', 'An overlap needs annotators to split the batch among.');
        if (v.annotators !== undefined && new Set(v.annotators).size !== v.annotators.length) refuse('annotators', 'Annotator names repeat.');
        if (v.annotators !== undefined && v.annotators.length < 2 && (v.overlap ?? 0) > 0) refuse('overlap', 'An overlap needs at least two annotators.');
      }),
    output: SampleBatchSchema,
  },
  'sampling.list': { input: z.object({ dataset: z.string().optional() }), output: z.array(SampleBatchSchema) },
  'annotation.queue': {
    input: z.object({ annotator: Name, dataset: z.string().optional() }),
    output: QueueSchema,
  },
  'annotation.load': {
    input: z.object({ key: z.number().int(), annotator: Name }),
    output: AnnotationSummarySchema,
  },
  'annotation.record': {
    input: RecordInputSchema,
    output: z.object({ eventId: z.number().int(), unitId: z.number().int(), state: UnitLabelStateSchema, progress: ProgressSchema }),
  },
  /** How many of the annotator's unfinished summaries a revealing view would show (the gate asks first). */
  'annotation.revealStatus': { input: z.object({ annotator: Name }), output: RevealStatusSchema },
  /** The annotator chose to open a revealing view: records the reveal of each unfinished summary of their sample. */
  'annotation.reveal': {
    input: z.object({ annotator: Name, view: z.enum(REVEALING_VIEWS) }),
    output: z.object({ revealed: z.number().int(), status: RevealStatusSchema }),
  },
  'annotation.attachDocument': {
    input: z.object({ key: z.number().int(), text: z.string().min(1) }),
    output: z.object({ attached: z.number().int() }),
  },
  /** Judges (issue 3). Config defaults and the paper's prompt, for a new-judge form. */
  'judges.defaults': {
    input: Empty,
    output: z.object({ template: z.string(), endpoint: EndpointConfigSchema, baseline: BaselineConfigSchema, baselineName: z.string(), baselineDescription: z.string() }),
  },
  'judges.list': { input: Empty, output: z.array(JudgeInfoSchema) },
  /** apiKey: desktop only (OS keychain); the CLI and `loupe serve` use config.apiKeyEnv. */
  'judges.add': { input: z.object({ name: Name, config: JudgeConfigSchema, apiKey: ApiKeyInput.optional() }), output: JudgeInfoSchema },
  /** Replaces the configuration; a change of an answer-affecting field makes a new version. apiKey null forgets the stored key. */
  'judges.update': {
    input: z.object({ name: Name, config: JudgeConfigSchema, apiKey: ApiKeyInput.nullable().optional() }),
    output: z.object({ judge: JudgeInfoSchema, newVersion: z.boolean() }),
  },
  'judges.remove': { input: z.object({ name: Name }), output: z.object({ removed: z.boolean(), predictionsRemoved: z.number().int() }) },
  /** The exact request for one sentence (default: the first sentence with a document), for a saved judge (name) or an edited config. */
  'judges.preview': {
    input: z
      .object({ name: Name.optional(), config: JudgeConfigSchema.optional(), unitId: z.number().int().optional(), dataset: z.string().optional() })
      .refine((v) => (v.name === undefined) !== (v.config === undefined), { message: 'give either name or config' }),
    output: JudgePreviewSchema,
  },
  /** Starts a background run and returns at once; poll judges.status. */
  'judges.start': {
    input: z.object({ name: Name, dataset: z.string().optional(), onlySampled: z.boolean().default(false) }),
    output: JudgeRunStatusSchema,
  },
  'judges.pause': { input: RunRef, output: JudgeRunStatusSchema },
  'judges.resume': { input: RunRef, output: JudgeRunStatusSchema },
  'judges.cancel': { input: RunRef, output: JudgeRunStatusSchema },
  'judges.status': { input: RunRef, output: JudgeRunStatusSchema },
  /** Runs of this session, newest first (running and paused ones included). */
  'judges.runs': { input: Empty, output: z.array(JudgeRunStatusSchema) },
  /** How many requests judges.start would send for this selection (nothing is sent or stored). */
  'judges.plan': {
    input: z.object({ name: Name, dataset: z.string().optional(), onlySampled: z.boolean().default(false) }),
    output: JudgePlanSchema,
  },
  /**
   * A batch request file (OpenAI Batch API JSONL) of every sentence still to judge; cache hits are
   * stored on the way. `path` (desktop, CLI: diskPaths) writes the file there; without it the
   * answer carries the text (`loupe serve`: the browser downloads it; bounded by the memory of one
   * answer, fine for files up to a few hundred MB).
   */
  'judges.batchExport': {
    input: z.object({ name: Name, dataset: z.string().optional(), onlySampled: z.boolean().default(false), path: z.string().min(1).optional() }),
    output: JudgeBatchExportSchema,
  },
  /**
   * Stores a batch engine's output file (OpenAI Batch API JSONL) for the judge's current version:
   * a path on disk (desktop, CLI: diskPaths; read line by line) or the uploaded text (`loupe serve`;
   * within the 256 MB request limit).
   */
  'judges.batchImport': {
    input: z.object({
      name: Name,
      source: z.discriminatedUnion('type', [
        z.object({ type: z.literal('path'), path: z.string().min(1) }),
        z.object({ type: z.literal('upload'), name: z.string().min(1).max(500), text: z.string() }),
      ]),
    }),
    output: JudgeBatchImportSchema,
  },
  /**
   * Judge audit (issue 4): starts the analysis in a worker thread and returns at once; poll
   * analysis.status. One at a time per project: while one runs, start answers `conflict`.
   */
  'analysis.start': { input: AnalysisStartInputSchema, output: AnalysisStatusSchema },
  'analysis.status': { input: AnalysisJobRef, output: AnalysisStatusSchema },
  /** Stops a running analysis (state cancelled); a finished one is returned unchanged. */
  'analysis.cancel': { input: AnalysisJobRef, output: AnalysisStatusSchema },
  /** For a view that opens: the newest running analysis and the newest finished (done) one of this session, each null if none. */
  'analysis.latest': { input: Empty, output: z.object({ running: AnalysisStatusSchema.nullable(), done: AnalysisStatusSchema.nullable() }) },
  /** Review (issue 5): a queue of one dataset, blind (no label of any kind). */
  'review.queue': { input: ReviewQueueInputSchema, output: ReviewQueueSchema },
  /** The card: document, summary, every sentence (marked or context) and the adjudicator's own decisions. Blind. */
  'review.card': { input: ReviewCardRef, output: ReviewCardSchema },
  /** One decision on a marked sentence: a review-phase label event, committed before the answer; a revision is a new event. */
  'review.record': {
    input: ReviewRecordInputSchema,
    output: z.object({ eventId: z.number().int(), unitId: z.number().int(), state: UnitLabelStateSchema, progress: ReviewProgressSchema, reveal: ReviewRevealSchema.nullable() }),
  },
  /** Judge labels, other annotators' labels and the global label of decided sentences; refused (conflict) for undecided ones. */
  'review.reveal': {
    input: ReviewCardRef.extend({ unitIds: z.array(z.number().int()).min(1).max(10_000).optional(), ...Anonymise }),
    output: ReviewRevealSchema,
  },
  /** Table 4 per dataset (absent: every dataset). */
  'review.table': {
    input: z.object({ dataset: Name.optional(), judges: JudgePanel, cap: ReviewCap, fastMs: FastMs }),
    output: z.array(ReviewTableSchema),
  },
  /** Corrected global labels (conjunctive rule) beside the benchmark's, and the flips. */
  'review.corrections': { input: z.object({ dataset: Name.optional() }), output: z.array(DatasetCorrectionsSchema) },
  'export.build': { input: ExportInputSchema, output: ExportOutputSchema },
  /** Lead only, hosts with links (loupe serve): the annotator links handed out, without their tokens. */
  'links.list': { input: Empty, output: z.array(AnnotatorLinkSchema) },
  /** A new link for one annotator (a person, never an imported label set); its url carries the token, shown once. */
  'links.create': { input: z.object({ annotator: Name }), output: AnnotatorLinkSchema },
  /** Stops a link at once: its next call is refused. */
  'links.revoke': { input: z.object({ id: z.string().min(1) }), output: z.object({ revoked: z.boolean() }) },
  /** Merges the label histories of annotators' copies (paths on disk: desktop and CLI), one transaction per file. */
  'merge.projects': { input: z.object({ paths: z.array(z.string().min(1)).min(1).max(100) }), output: z.array(MergeFileResultSchema) },
  /** Desktop only: native dialogs. `loupe serve` answers these with an error. */
  'dialog.openProject': { input: Empty, output: z.object({ path: z.string().nullable() }) },
  /** Several project files at once (annotators' copies to merge); empty when cancelled. */
  'dialog.openProjects': { input: Empty, output: z.object({ paths: z.array(z.string()) }) },
  'dialog.createProject': { input: Empty, output: z.object({ path: z.string().nullable() }) },
  'dialog.importFile': { input: Empty, output: z.object({ path: z.string().nullable() }) },
  'dialog.saveExport': {
    input: z.object({ fileName: z.string(), content: z.string() }),
    output: z.object({ path: z.string().nullable() }),
  },
  /** Claims, key facts, systems under test and their LLM tasks (issue 11): shared/accuracy/contract.ts. */
  ...ACCURACY_API,
  /** People's Semantic Scaffold alignments and edits (issue 12): shared/scaffold/contract.ts. */
  ...SCAFFOLD_API,
} as const;

export type ApiMethod = keyof typeof API;
export type ApiInput<M extends ApiMethod> = z.input<(typeof API)[M]['input']>;
export type ApiParsedInput<M extends ApiMethod> = z.output<(typeof API)[M]['input']>;
export type ApiOutput<M extends ApiMethod> = z.output<(typeof API)[M]['output']>;
export const API_METHODS = Object.keys(API) as ApiMethod[];

/**
 * What an annotator link may call, and which input field must name that annotator (null: none).
 * Every other method is the lead's: a judge output, an analysis, a review, an export, an import,
 * a sample, a merge or someone's activity never reaches an annotator link.
 */
export const ANNOTATOR_METHODS = {
  'app.info': null,
  'datasets.list': null,
  'annotation.queue': 'annotator',
  'annotation.load': 'annotator',
  'annotation.record': 'annotator',
  'annotation.attachDocument': null,
  ...ACCURACY_ANNOTATOR_METHODS,
  ...SCAFFOLD_ANNOTATOR_METHODS,
} as const satisfies Partial<Record<ApiMethod, string | null>>;

/** The role check of one validated call; null when allowed, else the refusal (code forbidden). */
export function refusalFor(caller: Caller, method: ApiMethod, input: unknown): ApiErrorBody | null {
  if (caller.role === 'lead') return null;
  if (!Object.prototype.hasOwnProperty.call(ANNOTATOR_METHODS, method)) {
    return { code: 'forbidden', message: `${method} needs the lead's link: this link is annotator "${caller.annotator}"'s and allows only their annotation.` };
  }
  const field = ANNOTATOR_METHODS[method as keyof typeof ANNOTATOR_METHODS];
  if (field !== null) {
    const named = (input as Record<string, unknown> | null)?.[field];
    if (named !== caller.annotator) {
      return { code: 'forbidden', message: `This link is annotator "${caller.annotator}"'s: it cannot act as ${JSON.stringify(named)}.` };
    }
  }
  return null;
}

/** What a host implements: one async function per method, receiving validated input. */
/** The caller is the one dispatch checked (absent in direct calls: the lead); most handlers ignore it. */
export type ApiHandlers = { [M in ApiMethod]: (input: ApiParsedInput<M>, caller?: Caller) => Promise<ApiOutput<M>> };

/** What the renderer calls. */
export interface LoupeApi {
  call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>>;
}

/** Errors cross the boundary as plain values with a code the UI can act on. */
export const ApiErrorSchema = z.object({
  code: z.enum(API_ERROR_CODES),
  message: z.string(),
  problems: z.array(ProblemSchema).optional(),
}) satisfies z.ZodType<ApiErrorBody>;
export { ApiError, type ApiErrorBody };

/** Menu actions the desktop host sends to the renderer. */
export const MENU_ACTIONS = ['new-project', 'open-project', 'open-demo', 'import', 'export', 'project-opened'] as const;
export type MenuAction = (typeof MENU_ACTIONS)[number];

/** What the preload exposes as `window.loupe` (the browser client provides the same shape). */
export interface LoupeBridge extends LoupeApi {
  host: 'electron' | 'web';
  /** Desktop: subscribe to menu actions. Returns an unsubscribe function. */
  onMenu(listener: (action: MenuAction) => void): () => void;
  /** Desktop: the path of a dropped File (Electron's webUtils); null in the browser. */
  pathForFile(file: File): string | null;
}

/** How a result crosses IPC and HTTP: thrown errors lose their fields on the way. */
export type Envelope<T = unknown> = { ok: true; value: T } | { ok: false; error: ApiErrorBody };

/**
 * The contract's check of one call's input, with its one refusal text: every host (dispatch) and
 * the renderer's test double use this, so a refusal reads the same wherever it comes from.
 */
export function parseApiInput<M extends ApiMethod>(method: M, raw: unknown): { ok: true; value: ApiParsedInput<M> } | { ok: false; error: ApiErrorBody } {
  const parsed = API[method].input.safeParse(raw ?? {});
  if (parsed.success) return { ok: true, value: parsed.data as ApiParsedInput<M> };
  return { ok: false, error: { code: 'invalid_input', message: `Invalid input for ${method}: ${z.prettifyError(parsed.error)}` } };
}

export function isApiMethod(name: unknown): name is ApiMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(API, name);
}
