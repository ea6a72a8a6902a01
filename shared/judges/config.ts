/**
 * Judge configurations: what a judge is (an OpenAI-compatible endpoint, or the offline baseline
 * rule), the paper's default prompt (Table 16), and which fields make a new judge version.
 *
 * A configuration never holds an API key. The CLI names an environment variable (`apiKeyEnv`,
 * only the NAME is stored); the desktop app keeps the key in the OS keychain (safeStorage).
 * Pure: no I/O; hashing happens in the services.
 */
import { z } from 'zod';
import { LIMITS } from '../limits';
import { boundedNumber } from '../bounded';
import { describeNestingPath, findExcessNesting, nestingWords } from '../formats/nesting';

/**
 * The paper's prompt (Table 16, App. B.4), one user message. `{document}` and `{sentence}` are
 * the only placeholders; every other brace (the JSON example) is literal text.
 */
export const DEFAULT_TEMPLATE = `You are a strict faithfulness evaluator for text summarization.

You are given: (1) a source document, and (2) a single sentence taken from a candidate summary of that document.

Decide whether the single sentence is faithful to the source document. A sentence is faithful only if every factual claim it makes is directly supported by, or trivially entailed by, information in the source document. If the sentence introduces information not present in the source, contradicts the source, or makes unsupported inferences, it is not faithful.

Stylistic paraphrasing is acceptable; only factual content matters. If the sentence is purely a discourse connective with no factual content, e.g., "In summary," label it faithful with low confidence. Be conservative: when in doubt, label the sentence as not faithful.

SOURCE DOCUMENT:
<<<
{document}
>>>

SUMMARY SENTENCE:
<<<
{sentence}
>>>

Respond with strict JSON on a single line, with no Markdown or commentary: {"faithful": 0 or 1}`;

export const PLACEHOLDERS = ['{document}', '{sentence}'] as const;

/** The paper reads the top 20 log-probabilities at the value position (App. B.4). */
export const TOP_LOGPROBS = 20;

/** The name the offline baseline judge gets by default: always visibly a baseline. */
export const BASELINE_JUDGE_NAME = 'baseline (offline rule)';
export const BASELINE_RULE = 'loupe-baseline-1';

/** Request fields Loupe sets itself; `extra` may not override them. */
export const RESERVED_BODY_FIELDS = [
  'model',
  'messages',
  'stream',
  'n',
  'temperature',
  'top_p',
  'max_tokens',
  'logprobs',
  'top_logprobs',
] as const;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export const JsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number().refine(Number.isFinite, 'a finite number'),
    z.boolean(),
    z.null(),
    z.array(JsonValueSchema),
    z.record(z.string(), JsonValueSchema),
  ]),
);

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const BaseUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'a URL such as http://127.0.0.1:8000/v1' });
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      ctx.addIssue({ code: 'custom', message: 'an http:// or https:// URL' });
    // Credentials in a URL would land in the project file: keys go in the keychain or an env var.
    if (url.username || url.password)
      ctx.addIssue({
        code: 'custom',
        message: 'a URL without user:password (give the key with --api-key-env or the key field)',
      });
  })
  .transform((value) => value.replace(/\/+$/, ''));

export const TemplateSchema = z
  .string()
  .min(LIMITS.judge.templateChars.min)
  .max(LIMITS.judge.templateChars.max)
  .refine((t) => PLACEHOLDERS.every((p) => t.includes(p)), {
    message: 'a template containing both {document} and {sentence}',
  });

/**
 * Size and nesting of `extra`, checked on its JSON text before its fields are read: reading them
 * recurses once per level, so a value nested thousands of levels deep would overflow the stack.
 * The depth limit is the importers' (MAX_JSON_DEPTH).
 */
function checkExtraShape(value: unknown, ctx: z.RefinementCtx): void {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: `${nestingWords().expected}; found a value too deeply nested (or referring to itself) to be written as JSON`,
    });
    return;
  }
  if (text === undefined) return;
  const max = LIMITS.judge.extraChars.max;
  if (text.length > max) {
    ctx.addIssue({
      code: 'custom',
      message: `at most ${max.toLocaleString('en-US')} characters of JSON; found ${text.length.toLocaleString('en-US')}`,
    });
    return;
  }
  const tooDeep = findExcessNesting(text);
  if (tooDeep)
    ctx.addIssue({
      code: 'custom',
      message: `${nestingWords().expected}; found ${nestingWords().found} at ${describeNestingPath(tooDeep.path)}`,
    });
}

export const ExtraFieldsSchema = z
  .unknown()
  .superRefine(checkExtraShape)
  .pipe(
    z.record(z.string().min(1).max(200), JsonValueSchema).superRefine((extra, ctx) => {
      for (const key of Object.keys(extra)) {
        if ((RESERVED_BODY_FIELDS as readonly string[]).includes(key)) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `"${key}" is set by Loupe from its own field; remove it from the extra fields`,
          });
        }
      }
    }),
  );

/** The most replicas one endpoint configuration lists. */
export const MAX_REPLICAS = 64;

const EndpointFieldsSchema = z
  .object({
    kind: z.literal('endpoint'),
    /**
     * OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1 (vLLM), http://127.0.0.1:11434/v1
     * (Ollama). With replicas: the first of `baseUrls` (the one that names the judge version).
     */
    baseUrl: BaseUrlSchema.optional(),
    /**
     * Replicas of the same model behind separate base URLs (vLLM replicas, llama.cpp servers); a
     * run sends each request to the least-loaded healthy one. Only the first is part of the
     * version hash: which replica answered never changes the cache key.
     */
    baseUrls: z.array(BaseUrlSchema).min(1).max(MAX_REPLICAS).optional(),
    model: z.string().trim().min(1).max(500),
    /** CLI: the NAME of the environment variable holding the key (never the key). */
    apiKeyEnv: z
      .string()
      .regex(ENV_NAME, 'an environment variable name such as OPENAI_API_KEY')
      .nullable()
      .default(null),
    template: TemplateSchema.default(DEFAULT_TEMPLATE),
    temperature: boundedNumber(LIMITS.judge.temperature).default(LIMITS.judge.temperature.default!),
    topP: boundedNumber(LIMITS.judge.topP).default(LIMITS.judge.topP.default!),
    maxTokens: boundedNumber(LIMITS.judge.maxTokens).default(LIMITS.judge.maxTokens.default!),
    /** Soft labels: request log-probabilities (top 20) and read P("1") / (P("0") + P("1")). */
    soft: z.boolean().default(false),
    /** Requests in flight at once. Does not change the output: not part of the version hash. */
    concurrency: boundedNumber(LIMITS.judge.concurrency).default(LIMITS.judge.concurrency.default!),
    /** Per-request timeout in seconds. Not part of the version hash. */
    timeoutS: boundedNumber(LIMITS.judge.timeoutS).default(LIMITS.judge.timeoutS.default!),
    /** Retries per sentence on 429, 5xx, timeouts and resets. Not part of the version hash. */
    retries: boundedNumber(LIMITS.judge.retries).default(LIMITS.judge.retries.default!),
    /** More request fields, e.g. {"chat_template_kwargs": {"enable_thinking": false}} for Qwen3. */
    extra: ExtraFieldsSchema.default({}),
  })
  .strict();

/**
 * Old configurations have `baseUrl` only, new ones `baseUrls` (and may repeat the first as
 * `baseUrl`): both parse to `baseUrl` = the first URL and `baseUrls` = every URL once, first
 * first. Parsing the output again gives the same value.
 */
export const EndpointConfigSchema = EndpointFieldsSchema.superRefine((v, ctx) => {
  if (v.baseUrl === undefined && v.baseUrls === undefined)
    ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: 'a URL such as http://127.0.0.1:8000/v1' });
}).transform(({ baseUrl, baseUrls, ...rest }) => {
  const urls = [...new Set([...(baseUrl !== undefined ? [baseUrl] : []), ...(baseUrls ?? [])])];
  return { ...rest, baseUrl: urls[0]!, baseUrls: urls };
});
export type EndpointConfig = z.output<typeof EndpointConfigSchema>;

export const BaselineConfigSchema = z
  .object({
    kind: z.literal('baseline'),
    rule: z.literal(BASELINE_RULE).default(BASELINE_RULE),
    /** Below this share of content words found in the best passage, a sentence is unfaithful. */
    coverageThreshold: boundedNumber(LIMITS.baseline.coverageThreshold).default(
      LIMITS.baseline.coverageThreshold.default!,
    ),
    /** A passage is this many consecutive document sentences. */
    passageSentences: boundedNumber(LIMITS.baseline.passageSentences).default(
      LIMITS.baseline.passageSentences.default!,
    ),
  })
  .strict();
export type BaselineConfig = z.output<typeof BaselineConfigSchema>;

export const JudgeConfigSchema = z.discriminatedUnion('kind', [EndpointConfigSchema, BaselineConfigSchema]);
export type JudgeConfig = z.output<typeof JudgeConfigSchema>;
export type JudgeConfigInput = z.input<typeof JudgeConfigSchema>;

export const JUDGE_KINDS = ['endpoint', 'baseline', 'imported'] as const;

/**
 * The fields that can change a judge's answers, in a fixed order: their hash is the judge
 * version. Concurrency, timeout, retries, the key's source and the replicas after the first do
 * not change an answer (replicas serve the same model).
 */
export function outputFields(config: JudgeConfig): Record<string, JsonValue> {
  if (config.kind === 'baseline') {
    return {
      kind: 'baseline',
      rule: config.rule,
      coverageThreshold: config.coverageThreshold,
      passageSentences: config.passageSentences,
    };
  }
  return {
    kind: 'endpoint',
    baseUrl: config.baseUrl,
    model: config.model,
    template: config.template,
    temperature: config.temperature,
    topP: config.topP,
    maxTokens: config.maxTokens,
    soft: config.soft,
    extra: config.extra,
  };
}

/** JSON with object keys sorted at every level: equal values give equal text (for hashing). */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`).join(',')}}`;
}

/** The text hashed into a judge version (config hash). */
export function versionText(config: JudgeConfig): string {
  return canonicalJson({ v: 1, ...outputFields(config) });
}

/** Placeholders replaced in one pass: a document that contains "{sentence}" stays as it is. */
export function renderTemplate(template: string, document: string, sentence: string): string {
  return template.replace(/\{(document|sentence)\}/g, (_m, name: string) =>
    name === 'document' ? document : sentence,
  );
}

/** One line that says what a judge is, for lists. */
export function describeConfig(config: JudgeConfig): string {
  if (config.kind === 'baseline') {
    return `Baseline (offline rule ${config.rule}): unfaithful when the sentence has a number, date word or capitalised name the document lacks, or when under ${Math.round(config.coverageThreshold * 100)}% of its content words occur in the best-matching ${config.passageSentences}-sentence passage.`;
  }
  const replicas =
    config.baseUrls.length > 1
      ? ` (+${config.baseUrls.length - 1} replica${config.baseUrls.length > 2 ? 's' : ''})`
      : '';
  return `${config.model} at ${config.baseUrl}${replicas}; temperature ${config.temperature}, top_p ${config.topP}, max ${config.maxTokens} tokens${config.soft ? ', soft labels (top 20 log-probabilities)' : ', hard labels'}`;
}
