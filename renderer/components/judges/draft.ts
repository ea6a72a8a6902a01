/**
 * The judge form's model: what the inputs hold (text, as typed) and the check that turns it into
 * a judge configuration of the contract, with one message per field the user can act on.
 *
 * The core validates again (shared/judges/config.ts); this check mirrors its rules so mistakes
 * show beside the field as they are typed, before anything is sent.
 */
import type { BaselineConfig, EndpointConfig, JsonValue, JudgeConfig } from '../../../shared/judges/config';
import { LIMITS, readBound } from '../../../shared/limits';
import { plural } from '../../format';

/*
 * Copies of shared/judges/config.ts's PLACEHOLDERS and RESERVED_BODY_FIELDS (a test keeps them
 * equal): importing a value from that module drags its zod schemas, and zod, into the bundle.
 */
export const PLACEHOLDERS = ['{document}', '{sentence}'] as const;
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

export interface EndpointDraft {
  kind: 'endpoint';
  name: string;
  baseUrl: string;
  /** More base URLs of the same model (replicas), one per line; '' for none. */
  replicas: string;
  model: string;
  /** Desktop: a key to put in the OS keychain; '' keeps the stored one (if any). Never in a config. */
  apiKey: string;
  /** Desktop, editing a judge whose key is stored: forget it. */
  forgetKey: boolean;
  /** The NAME of an environment variable of the host process (`loupe serve`, CLI); '' for none. */
  apiKeyEnv: string;
  template: string;
  temperature: string;
  topP: string;
  maxTokens: string;
  soft: boolean;
  concurrency: string;
  timeoutS: string;
  retries: string;
  /** More request fields, as JSON object text. */
  extra: string;
}

export interface BaselineDraft {
  kind: 'baseline';
  name: string;
  /** Kept as is: the form does not offer to change the rule. */
  rule: BaselineConfig['rule'];
  coverageThreshold: string;
  passageSentences: string;
}

export type JudgeDraft = EndpointDraft | BaselineDraft;
export type DraftField = Exclude<keyof EndpointDraft | keyof BaselineDraft, 'kind' | 'rule'>;
export type DraftErrors = Partial<Record<DraftField, string>>;

export interface DraftCheck {
  name: string;
  /** null while a field of the configuration has an error (the name is not part of it). */
  config: JudgeConfig | null;
  errors: DraftErrors;
  /** Every field is fine: the judge can be saved. */
  ok: boolean;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_NAME = LIMITS.nameChars.max;
const MAX_TEMPLATE = LIMITS.judge.templateChars.max;
const MAX_KEY = LIMITS.judge.apiKeyChars.max;

export function draftFor(name: string, config: JudgeConfig): JudgeDraft {
  if (config.kind === 'baseline') {
    return {
      kind: 'baseline',
      name,
      rule: config.rule,
      coverageThreshold: String(config.coverageThreshold),
      passageSentences: String(config.passageSentences),
    };
  }
  return endpointDraft(name, config);
}

export function endpointDraft(name: string, config: EndpointConfig): EndpointDraft {
  return {
    kind: 'endpoint',
    name,
    baseUrl: config.baseUrl,
    replicas: config.baseUrls.slice(1).join('\n'),
    model: config.model,
    apiKey: '',
    forgetKey: false,
    apiKeyEnv: config.apiKeyEnv ?? '',
    template: config.template,
    temperature: String(config.temperature),
    topP: String(config.topP),
    maxTokens: String(config.maxTokens),
    soft: config.soft,
    concurrency: String(config.concurrency),
    timeoutS: String(config.timeoutS),
    retries: String(config.retries),
    extra: JSON.stringify(config.extra, null, 2),
  };
}

/** The names of the placeholders a template lacks (the prompt needs both). */
export function missingPlaceholders(template: string): string[] {
  return PLACEHOLDERS.filter((p) => !template.includes(p));
}

/** `{}` text → the extra request fields, or the message to show under the textarea. */
export function parseExtra(text: string): { value: Record<string, JsonValue> } | { error: string } {
  if (text.trim() === '') return { value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { error: `Not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { error: 'Must be a JSON object, e.g. {"chat_template_kwargs": {"enable_thinking": false}}' };
  }
  const record = parsed as Record<string, JsonValue>;
  const reserved = Object.keys(record).filter((key) => (RESERVED_BODY_FIELDS as readonly string[]).includes(key));
  if (reserved.length > 0) {
    const names = reserved.map((key) => `"${key}"`).join(', ');
    return {
      error: `${names} ${reserved.length === 1 ? 'is' : 'are'} set by Loupe from the fields above; remove ${reserved.length === 1 ? 'it' : 'them'} here`,
    };
  }
  if (Object.keys(record).some((key) => key.length > 200))
    return { error: 'Field names longer than 200 characters are refused' };
  return { value: record };
}

function checkBaseUrl(text: string): { value: string } | { error: string } {
  const trimmed = text.trim();
  if (!trimmed) return { error: 'Required: the OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1' };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { error: 'Not a URL: give one such as http://127.0.0.1:8000/v1' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: 'Must start with http:// or https://' };
  // Credentials in the URL would be saved in the project file.
  if (url.username || url.password) return { error: 'Remove user:password from the URL; the key has its own field' };
  return { value: trimmed.replace(/\/+$/, '') };
}

/**
 * Checks every field; `takenNames` (when adding) refuses a name in use. `config` is the exact
 * configuration to send, null while anything is wrong.
 */
export function checkDraft(draft: JudgeDraft, options: { takenNames?: readonly string[] } = {}): DraftCheck {
  const name = draft.name.trim();
  let nameError: string | undefined;
  if (!name) nameError = 'Required: a name for this judge';
  else if (name.length > MAX_NAME) nameError = `At most ${MAX_NAME} characters`;
  else if (options.takenNames?.includes(name)) nameError = `A judge named "${name}" exists already`;
  const { config, errors } = checkConfig(draft);
  if (nameError) errors.name = nameError;
  return { name, config, errors, ok: config !== null && !nameError };
}

function checkConfig(draft: JudgeDraft): { config: JudgeConfig | null; errors: DraftErrors } {
  const errors: DraftErrors = {};

  if (draft.kind === 'baseline') {
    const coverageThreshold = readBound(draft.coverageThreshold, LIMITS.baseline.coverageThreshold);
    const passageSentences = readBound(draft.passageSentences, LIMITS.baseline.passageSentences);
    if (typeof coverageThreshold === 'string') errors.coverageThreshold = coverageThreshold;
    if (typeof passageSentences === 'string') errors.passageSentences = passageSentences;
    const ok =
      Object.keys(errors).length === 0 && typeof coverageThreshold === 'number' && typeof passageSentences === 'number';
    return { errors, config: ok ? { kind: 'baseline', rule: draft.rule, coverageThreshold, passageSentences } : null };
  }

  const baseUrl = checkBaseUrl(draft.baseUrl);
  if ('error' in baseUrl) errors.baseUrl = baseUrl.error;
  const replicaLines = (draft.replicas ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const replicas: string[] = [];
  for (const line of replicaLines) {
    const checked = checkBaseUrl(line);
    if ('error' in checked) {
      errors.replicas = `${line}: ${checked.error}`;
      break;
    }
    replicas.push(checked.value);
  }
  if (replicaLines.length + 1 > 64) errors.replicas = 'At most 63 replicas besides the base URL';
  const model = draft.model.trim();
  if (!model) errors.model = 'Required: the model name the endpoint serves, e.g. Qwen/Qwen3-8B';
  else if (model.length > 500) errors.model = 'At most 500 characters';

  const apiKeyEnv = draft.apiKeyEnv.trim();
  if (apiKeyEnv && !ENV_NAME.test(apiKeyEnv))
    errors.apiKeyEnv = 'An environment variable name such as OPENAI_API_KEY (letters, digits, _)';
  if (draft.apiKey.trim().length > MAX_KEY) errors.apiKey = `At most ${MAX_KEY} characters`;

  const missing = missingPlaceholders(draft.template);
  if (missing.length > 0) {
    errors.template = `The template must contain ${missing.join(' and ')}: ${missing.length === 1 ? 'it is' : 'they are'} replaced by the ${missing
      .map((p) => p.slice(1, -1))
      .join(' and the ')} of each request`;
  } else if (draft.template.length > MAX_TEMPLATE) {
    errors.template = `At most ${plural(MAX_TEMPLATE, 'character')}`;
  }

  const temperature = readBound(draft.temperature, LIMITS.judge.temperature);
  const topP = readBound(draft.topP, LIMITS.judge.topP);
  const maxTokens = readBound(draft.maxTokens, LIMITS.judge.maxTokens);
  const concurrency = readBound(draft.concurrency, LIMITS.judge.concurrency);
  const timeoutS = readBound(draft.timeoutS, LIMITS.judge.timeoutS);
  const retries = readBound(draft.retries, LIMITS.judge.retries);
  const numbers = { temperature, topP, maxTokens, concurrency, timeoutS, retries };
  for (const [field, value] of Object.entries(numbers)) {
    if (typeof value === 'string') errors[field as DraftField] = value;
  }

  const extra = parseExtra(draft.extra);
  if ('error' in extra) errors.extra = extra.error;

  if (Object.keys(errors).length > 0 || 'error' in baseUrl || 'error' in extra) return { errors, config: null };
  const n = numbers as Record<keyof typeof numbers, number>;
  return {
    errors,
    config: {
      kind: 'endpoint',
      baseUrl: baseUrl.value,
      baseUrls: [...new Set([baseUrl.value, ...replicas])],
      model,
      apiKeyEnv: apiKeyEnv || null,
      template: draft.template,
      temperature: n.temperature,
      topP: n.topP,
      maxTokens: n.maxTokens,
      soft: draft.soft,
      concurrency: n.concurrency,
      timeoutS: n.timeoutS,
      retries: n.retries,
      extra: extra.value,
    },
  };
}

/**
 * What happens to the stored key on save (desktop only; the browser never sends a key):
 * a typed key replaces it, "forget" removes it (null), otherwise it is left alone (undefined).
 */
export function keyChange(draft: JudgeDraft, keychain: boolean): string | null | undefined {
  if (!keychain || draft.kind !== 'endpoint') return undefined;
  const typed = draft.apiKey.trim();
  if (typed) return typed;
  return draft.forgetKey ? null : undefined;
}
