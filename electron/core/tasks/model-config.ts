/**
 * The model configuration of a JSON-output task (claims, key facts, scaffolds, summaries of a
 * system under test …): an OpenAI-compatible endpoint and its decoding. Like a judge's, it never
 * holds an API key (only the NAME of an environment variable), and only the fields that change
 * answers go into the config hash; concurrency, timeout and retries do not.
 */
import { z } from 'zod';
import {
  BaseUrlSchema,
  ExtraFieldsSchema,
  MAX_REPLICAS,
  canonicalJson,
  type JsonValue,
} from '../../../shared/judges/config';

const ModelFieldsSchema = z
  .object({
    /** The endpoint; with replicas, the first of `baseUrls` (the one in the config hash). */
    baseUrl: BaseUrlSchema.optional(),
    /** Replicas of the same model; requests go to the least-loaded healthy one (not hashed beyond the first). */
    baseUrls: z.array(BaseUrlSchema).min(1).max(MAX_REPLICAS).optional(),
    model: z.string().trim().min(1).max(500),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name such as OPENAI_API_KEY')
      .nullable()
      .default(null),
    temperature: z.number().min(0).max(2).default(0),
    topP: z.number().gt(0).max(1).default(1),
    maxTokens: z.number().int().min(1).max(1_000_000).default(8192),
    extra: ExtraFieldsSchema.default({}),
    concurrency: z.number().int().min(1).max(256).default(8),
    timeoutS: z.number().positive().max(3600).default(120),
    retries: z.number().int().min(0).max(20).default(4),
  })
  .strict();

/** `baseUrl` and/or `baseUrls` in; both out (`baseUrl` = the first, every URL once). */
export const ModelConfigSchema = ModelFieldsSchema.superRefine((v, ctx) => {
  if (v.baseUrl === undefined && v.baseUrls === undefined)
    ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: 'a URL such as http://127.0.0.1:8000/v1' });
}).transform(({ baseUrl, baseUrls, ...rest }) => {
  const urls = [...new Set([...(baseUrl !== undefined ? [baseUrl] : []), ...(baseUrls ?? [])])];
  return { ...rest, baseUrl: urls[0]!, baseUrls: urls };
});
export type ModelConfig = z.output<typeof ModelConfigSchema>;
export type ModelConfigInput = z.input<typeof ModelConfigSchema>;

/** The fields that change answers, for the config hash. */
export function modelOutputFields(config: ModelConfig): Record<string, JsonValue> {
  return {
    baseUrl: config.baseUrl,
    model: config.model,
    temperature: config.temperature,
    topP: config.topP,
    maxTokens: config.maxTokens,
    extra: config.extra,
  };
}

export function modelVersionText(config: ModelConfig): string {
  return canonicalJson(modelOutputFields(config));
}
