/**
 * imports.*: bringing a benchmark or a file of Loupe records into the project (a background job).
 */
import { z } from 'zod';
import { IMPORT_KINDS } from '../formats/types';
import { Name } from './primitives';

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
    base64: z.base64({ error: "the file's bytes in base64" }).max(UPLOAD_BASE64_MAX_CHARS, {
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
  /** Why, when the counts alone do not say it (e.g. the judge's copy of the summary differs). */
  reason: z.string().optional(),
});
export type SkippedPredictions = z.infer<typeof SkippedPredictionsSchema>;

/** People's annotations left out of an import because they do not fit their record (the rest is imported). */
export const SkippedLabelsSchema = z.object({
  file: z.string(),
  line: z.number().int().optional(),
  record: z.number().int().optional(),
  summaryId: z.string(),
  field: z.string(),
  reason: z.string(),
});
export type SkippedLabels = z.infer<typeof SkippedLabelsSchema>;

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
  /** People's annotations that did not fit their record (e.g. a span with no category): left out, the record imported. */
  labelsSkipped: z.array(SkippedLabelsSchema).optional(),
  notes: z.array(z.string()),
  /** Claims and key facts written (realsumm, accuracy); their labels and judge outputs are also in labelsAdded / predictionsKept. */
  accuracy: z
    .object({
      claimSets: z.number().int(),
      keyFactSets: z.number().int(),
      labels: z.number().int(),
      predictions: z.number().int(),
      systemOutputs: z.number().int(),
    })
    .optional(),
  /** Semantic Scaffold versions and alignments written (scaffold, scaffold-alignments). */
  scaffold: z.object({ scaffolds: z.number().int(), alignments: z.number().int() }).optional(),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;

export const IMPORTS_API = {
  'imports.start': {
    input: z.object({
      source: ImportSourceSchema,
      as: ImportKindSchema.optional(),
      dataset: Name.optional(),
    }),
    output: z.object({ jobId: z.string() }),
  },
} as const;
