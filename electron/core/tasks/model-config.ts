/**
 * The model configuration of a JSON-output task (claims, key facts, scaffolds, summaries of a
 * system under test …): an OpenAI-compatible endpoint and its decoding. Like a judge's, it never
 * holds an API key (only the NAME of an environment variable), and only the fields that change
 * answers go into the config hash; concurrency, timeout and retries do not.
 */
import { z } from 'zod';
import { BaseUrlSchema, ExtraFieldsSchema, canonicalJson, type JsonValue } from '../../../shared/judges/config';

export const ModelConfigSchema = z
  .object({
    baseUrl: BaseUrlSchema,
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
export type ModelConfig = z.output<typeof ModelConfigSchema>;
export type ModelConfigInput = z.input<typeof ModelConfigSchema>;

/** The fields that change answers, for the config hash. */
export function modelOutputFields(config: ModelConfig): Record<string, JsonValue> {
  return { baseUrl: config.baseUrl, model: config.model, temperature: config.temperature, topP: config.topP, maxTokens: config.maxTokens, extra: config.extra };
}

export function modelVersionText(config: ModelConfig): string {
  return canonicalJson(modelOutputFields(config));
}
