/**
 * judges.*: LLM judge configurations (never a key), request previews, runs and batch files.
 * Never part of an annotation.* payload: predictions stay out of the blind annotation view.
 */
import { z } from 'zod';
import { BatchImportCountsSchema, BatchSourceSchema, ReplicaStatusSchema, RunStatusSchema } from './tasks';
import {
  BaselineConfigSchema,
  EndpointConfigSchema,
  JUDGE_KINDS,
  JsonValueSchema,
  JudgeConfigSchema,
} from '../judges/config';
import { ApiKeyInput, Empty, Name, RunRef } from './primitives';

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
  /** Prompt tokens of those requests, estimated from their real prompts as characters / 4 (no tokenizer). */
  promptTokens: z.number().int(),
  /** Where they go: every replica's base URL (empty for the offline baseline). */
  baseUrls: z.array(z.string()),
  /** Sentences sharing a request with another of the same content. */
  shared: z.number().int(),
  /** Left out: their document is missing. */
  missing: z.number().int(),
});
export type JudgePlan = z.infer<typeof JudgePlanSchema>;

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

/** A batch engine's output file read back for the judge's current version. */
export const JudgeBatchImportSchema = BatchImportCountsSchema.extend({
  judge: z.string(),
  configHash: z.string(),
});
export type JudgeBatchImport = z.infer<typeof JudgeBatchImportSchema>;

/** A judge run: the run status of every task, for one judge version over a selection of sentences. */
export const JudgeRunStatusSchema = RunStatusSchema.extend({
  judge: z.string(),
  onlySampled: z.boolean(),
  /** Endpoint judges: each replica's health, adaptive concurrency limit and requests (absent: none). */
  replicas: z.array(ReplicaStatusSchema).optional(),
});
export type JudgeRunStatus = z.infer<typeof JudgeRunStatusSchema>;

export const JudgePreviewSchema = z.object({
  configHash: z.string(),
  /** The sentence the preview was built for (null: the project has no sentence with a document). */
  unit: z
    .object({
      unitId: z.number().int(),
      dataset: z.string(),
      summaryId: z.string(),
      sentenceIndex: z.number().int(),
      sentence: z.string(),
    })
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

export const JUDGES_API = {
  /** Judges. Config defaults and the paper's prompt, for a new-judge form. */
  'judges.defaults': {
    input: Empty,
    output: z.object({
      template: z.string(),
      endpoint: EndpointConfigSchema,
      baseline: BaselineConfigSchema,
      baselineName: z.string(),
      baselineDescription: z.string(),
    }),
  },
  'judges.list': { input: Empty, output: z.array(JudgeInfoSchema) },
  /** apiKey: desktop only (OS keychain); the CLI and `loupe serve` use config.apiKeyEnv. */
  'judges.add': {
    input: z.object({ name: Name, config: JudgeConfigSchema, apiKey: ApiKeyInput.optional() }),
    output: JudgeInfoSchema,
  },
  /** Replaces the configuration; a change of an answer-affecting field makes a new version. apiKey null forgets the stored key. */
  'judges.update': {
    input: z.object({ name: Name, config: JudgeConfigSchema, apiKey: ApiKeyInput.nullable().optional() }),
    output: z.object({ judge: JudgeInfoSchema, newVersion: z.boolean() }),
  },
  'judges.remove': {
    input: z.object({ name: Name }),
    output: z.object({ removed: z.boolean(), predictionsRemoved: z.number().int() }),
  },
  /** The exact request for one sentence (default: the first sentence with a document), for a saved judge (name) or an edited config. */
  'judges.preview': {
    input: z
      .object({
        name: Name.optional(),
        config: JudgeConfigSchema.optional(),
        unitId: z.number().int().optional(),
        dataset: z.string().optional(),
      })
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
   * answer, fine for files up to a few hundred MB). The file is recorded in the project with its
   * selection and requests; its custom_ids name it.
   */
  'judges.batchExport': {
    input: z.object({
      name: Name,
      dataset: z.string().optional(),
      onlySampled: z.boolean().default(false),
      path: z.string().min(1).optional(),
    }),
    output: JudgeBatchExportSchema,
  },
  /**
   * Stores a batch engine's output file (OpenAI Batch API JSONL) for the judge's current version:
   * a path on disk (desktop, CLI: diskPaths; read line by line) or the uploaded text (`loupe serve`;
   * within the 256 MB request limit). An answer for a sentence its request file did not ask for
   * (the file its custom_id names), or naming a file the project did not write, is refused.
   * `dataset` / `onlySampled`: the selection answers must also be in (the only check for ids of
   * files written before request files were recorded), and where "still to do" is counted (when
   * they name the whole project and every answer is of one request file: in that file's selection).
   */
  'judges.batchImport': {
    input: z.object({
      name: Name,
      source: BatchSourceSchema,
      dataset: z.string().optional(),
      onlySampled: z.boolean().default(false),
    }),
    output: JudgeBatchImportSchema,
  },
} as const;
