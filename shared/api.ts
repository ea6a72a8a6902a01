/**
 * The one contract between the UI and the core. Every host (Electron IPC, the `loupe serve`
 * HTTP harness) exposes exactly these methods, validates inputs and outputs with these schemas,
 * and nothing else reaches the renderer.
 *
 * Blindness (ARCHITECTURE.md rule 1): no output schema of the `annotation.*` methods has a
 * field for judge predictions or global labels; the hosts strip unknown keys by parsing outputs.
 */
import { z } from 'zod';
import { ErrorTypeSchema, HumanLabelSchema } from './domain';
import { IMPORT_KINDS } from './formats/types';

const Name = z.string().trim().min(1).max(200);
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

export const AnnotatorSchema = z.object({ id: z.number().int(), name: z.string() });
export type Annotator = z.infer<typeof AnnotatorSchema>;

export const ImportKindSchema = z.enum(IMPORT_KINDS);

export const ImportSourceSchema = z.discriminatedUnion('type', [
  /** A file or folder on the host's disk (desktop app, CLI). */
  z.object({ type: z.literal('path'), path: z.string().min(1) }),
  /** File content sent by the browser (drag and drop in `loupe serve`). */
  z.object({ type: z.literal('upload'), name: z.string().min(1).max(500), text: z.string() }),
]);
export type ImportSource = z.infer<typeof ImportSourceSchema>;

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
  notes: z.array(z.string()),
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

export const UnitLabelStateSchema = z.object({
  label: HumanLabelSchema.nullable(),
  errorType: ErrorTypeSchema.nullable(),
  note: z.string().nullable(),
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
});
export type AnnotationSummary = z.infer<typeof AnnotationSummarySchema>;

export const RecordCauseSchema = z.enum(['label', 'error_type', 'note', 'undo', 'redo', 'clear']);

export const RecordInputSchema = z.object({
  unitId: z.number().int(),
  annotator: Name,
  /** The whole new state of the unit for this annotator; label null clears it. */
  state: UnitLabelStateSchema,
  timeSpentMs: z.number().int().min(0).max(86_400_000).nullable(),
  cause: RecordCauseSchema,
});
export type RecordInput = z.infer<typeof RecordInputSchema>;

export const ExportInputSchema = z.object({
  format: z.enum(['jsonl', 'csv']),
  history: z.boolean().default(false),
  dataset: z.string().optional(),
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
  /** The host may switch projects (desktop); `loupe serve` is bound to one project. */
  canSwitchProjects: z.boolean(),
  project: ProjectInfoSchema.nullable(),
  /** `loupe serve --annotator NAME` preselects the annotator. */
  annotator: z.string().nullable(),
});
export type HostInfo = z.infer<typeof HostInfoSchema>;

const RecentSchema = z.array(z.object({ path: z.string(), name: z.string(), openedAt: z.string() }));

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
    input: z.object({
      dataset: Name,
      n: z.number().int().min(1).max(1_000_000),
      seed: z.number().int().min(0).max(2 ** 31 - 1).default(0),
      annotator: Name.optional(),
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
  'annotation.attachDocument': {
    input: z.object({ key: z.number().int(), text: z.string().min(1) }),
    output: z.object({ attached: z.number().int() }),
  },
  'export.build': { input: ExportInputSchema, output: ExportOutputSchema },
  /** Desktop only: native dialogs. `loupe serve` answers these with an error. */
  'dialog.openProject': { input: Empty, output: z.object({ path: z.string().nullable() }) },
  'dialog.createProject': { input: Empty, output: z.object({ path: z.string().nullable() }) },
  'dialog.importFile': { input: Empty, output: z.object({ path: z.string().nullable() }) },
  'dialog.saveExport': {
    input: z.object({ fileName: z.string(), content: z.string() }),
    output: z.object({ path: z.string().nullable() }),
  },
} as const;

export type ApiMethod = keyof typeof API;
export type ApiInput<M extends ApiMethod> = z.input<(typeof API)[M]['input']>;
export type ApiParsedInput<M extends ApiMethod> = z.output<(typeof API)[M]['input']>;
export type ApiOutput<M extends ApiMethod> = z.output<(typeof API)[M]['output']>;
export const API_METHODS = Object.keys(API) as ApiMethod[];

/** What a host implements: one async function per method, receiving validated input. */
export type ApiHandlers = { [M in ApiMethod]: (input: ApiParsedInput<M>) => Promise<ApiOutput<M>> };

/** What the renderer calls. */
export interface LoupeApi {
  call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>>;
}

/** Errors cross the boundary as plain values with a code the UI can act on. */
export const ApiErrorSchema = z.object({
  code: z.enum(['invalid_input', 'not_found', 'no_project', 'conflict', 'unsupported', 'import_failed', 'internal']),
  message: z.string(),
  problems: z.array(ProblemSchema).optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorSchema>;

export class ApiError extends Error {
  readonly code: ApiErrorBody['code'];
  readonly problems: ApiErrorBody['problems'];
  constructor(body: ApiErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.code = body.code;
    this.problems = body.problems;
  }
  toBody(): ApiErrorBody {
    return { code: this.code, message: this.message, ...(this.problems ? { problems: this.problems } : {}) };
  }
}

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

export function isApiMethod(name: unknown): name is ApiMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(API, name);
}
