/**
 * analysis.*: the judge audit, computed in a worker thread. It reveals judge predictions and
 * global labels: the annotation view never calls it.
 */
import { z } from 'zod';
import { AnalysisReportSchema } from '../analysis/schema';
import { boundedNumber } from '../bounded';
import { LIMITS } from '../limits';
import { Empty, Name } from './primitives';

export const AnalysisStartInputSchema = z.object({
  /** Bootstrap replicates (0 = no intervals). */
  bootstrap: boundedNumber(LIMITS.analysis.bootstrap).default(LIMITS.analysis.bootstrap.default!),
  /** Seed of every random stream: same project content and seed → the same numbers in every host. */
  seed: boundedNumber(LIMITS.analysis.seed).default(LIMITS.analysis.seed.default!),
  /** Review queue cap per dataset (suspicious summaries listed). */
  cap: boundedNumber(LIMITS.analysis.cap).default(LIMITS.analysis.cap.default!),
  /**
   * Threads the bootstrap may use; absent: the machine's cores (up to 8). The report is the same
   * for any number: each replicate draws from its own stream (seed, purpose, replicate index).
   */
  threads: boundedNumber(LIMITS.analysis.threads).optional(),
  /** One dataset; absent: every dataset of the project. */
  dataset: Name.optional(),
  /**
   * Whose labels are the human reference: the project's own people, the imported label
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
  /**
   * The source the accuracy and scaffold blocks compare systems by: "people" or a judge's name.
   * Absent: people when they pair ≥ 5 documents, else no comparison and the judge sources listed.
   */
  compareSource: Name.optional(),
});
export type AnalysisStartInput = z.input<typeof AnalysisStartInputSchema>;

export const AnalysisSettingsUsedSchema = z.object({
  bootstrap: z.number().int(),
  seed: z.number().int(),
  cap: z.number().int(),
  /** null: every dataset. */
  dataset: z.string().nullable(),
  /** As asked (analysis.start compareSource); null or absent: the default choice. */
  compareSource: z.string().nullable().optional(),
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

export const ANALYSIS_API = {
  /**
   * Judge audit: starts the analysis in a worker thread and returns at once; poll
   * analysis.status. One at a time per project: while one runs, start answers `conflict`.
   */
  'analysis.start': { input: AnalysisStartInputSchema, output: AnalysisStatusSchema },
  'analysis.status': { input: AnalysisJobRef, output: AnalysisStatusSchema },
  /** Stops a running analysis (state cancelled); a finished one is returned unchanged. */
  'analysis.cancel': { input: AnalysisJobRef, output: AnalysisStatusSchema },
  /** For a view that opens: the newest running analysis and the newest finished (done) one of this session, each null if none. */
  'analysis.latest': {
    input: Empty,
    output: z.object({ running: AnalysisStatusSchema.nullable(), done: AnalysisStatusSchema.nullable() }),
  },
} as const;
