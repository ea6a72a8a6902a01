/**
 * systems.*: the systems under test, OpenAI-compatible models that write summaries
 * (accuracy.start with summary_generation), or the model named by an imported file.
 */
import { z } from 'zod';
import { SystemFailureSchema } from '../accuracy/domain';
import { BaseUrlSchema, ExtraFieldsSchema, MAX_REPLICAS } from '../judges/config';
import { LIMITS } from '../limits';
import { Empty, Id, Name } from './primitives';

/** The card: each document as one user message asking for a summary, no system message. */
export const DEFAULT_SUMMARY_PROMPT = 'Summarize the following document.\n\n{document}';

/** An OpenAI-compatible model that writes summaries. Never holds a key (only the NAME of an environment variable; a typed key goes to the OS keychain, systems.add apiKey). */
export const SystemConfigSchema = z
  .object({
    baseUrl: BaseUrlSchema.optional(),
    baseUrls: z.array(BaseUrlSchema).min(1).max(MAX_REPLICAS).optional(),
    model: z.string().trim().min(1).max(500),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name such as OPENAI_API_KEY')
      .nullable()
      .default(null),
    /** The user message; `{document}` is replaced by the document. */
    prompt: z
      .string()
      .min(1)
      .max(20_000)
      .refine((t) => t.includes('{document}'), { message: 'a prompt containing {document}' })
      .default(DEFAULT_SUMMARY_PROMPT),
    temperature: z.number().min(0).max(2).default(0),
    topP: z.number().gt(0).max(1).default(1),
    maxTokens: z.number().int().min(1).max(1_000_000).default(1024),
    extra: ExtraFieldsSchema.default({}),
    concurrency: z.number().int().min(1).max(256).default(4),
    timeoutS: z.number().positive().max(3600).default(120),
    retries: z.number().int().min(0).max(20).default(4),
  })
  .strict()
  .refine((v) => v.baseUrl !== undefined || v.baseUrls !== undefined, {
    message: 'a URL such as http://127.0.0.1:8000/v1',
    path: ['baseUrl'],
  });
export type SystemConfig = z.output<typeof SystemConfigSchema>;

/** The base URLs a run sends to (every URL once, the first naming the version). */
export function systemUrls(config: SystemConfig): string[] {
  return [...new Set([...(config.baseUrl !== undefined ? [config.baseUrl] : []), ...(config.baseUrls ?? [])])];
}

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

export const SYSTEMS_API = {
  'systems.list': { input: Empty, output: z.array(SystemInfoSchema) },
  /**
   * Adds or replaces a system. apiKey (desktop only: the OS keychain, bound to the origins of the
   * config's base URLs): a string stores it, null removes a stored one, absent keeps it. The CLI
   * and `loupe serve` read config.apiKeyEnv under the host's --allow-key-env policy.
   */
  'systems.add': {
    input: z.object({
      name: Name,
      config: SystemConfigSchema,
      apiKey: z.string().min(LIMITS.judge.apiKeyChars.min).max(LIMITS.judge.apiKeyChars.max).nullable().optional(),
    }),
    output: SystemInfoSchema,
  },
  'systems.remove': { input: z.object({ name: Name }), output: z.object({ removed: z.boolean() }) },
} as const;
