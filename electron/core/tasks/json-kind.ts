/**
 * JSON-output task kinds, declared as data: a prompt template, a typed input, a zod output
 * schema. Everything else comes from the engine (cache, retries, circuit, resume, redaction) and
 * from one generic source (`task_results`, db/taskRepository.ts), so claim decomposition, key-fact
 * extraction and alignment, scaffolds and summary generation need no engine or storage code of
 * their own: a `defineJsonKind(...)`, a list of items, and `createJsonTaskRun(...)`.
 *
 * Answers that do not match the schema are stored as failed calls (`parse_error`, with the raw
 * text) and sent again by the next run: these kinds may sample (temperature > 0), so a second
 * attempt can succeed.
 */
import type { z } from 'zod';
import type { JsonValue } from '../../../shared/judges/config';
import type { KindRef, KindResults, TaskRepository } from '../../../db/taskRepository';
import { DEFAULT_TUNING, TaskRun, type RunTuning } from './engine';
import { sha256Hex } from './hashing';
import { parseJsonAnswer } from './json-answer';
import type { ChatRequestBody, TaskBackend, TaskKind, TaskSource } from './kind';
import { modelVersionText, type ModelConfig } from './model-config';
import { chatBackend, replicaBackend, type ChatTransport } from './transport';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface JsonKindSpec<I, O> {
  name: string;
  version: number;
  itemNoun: string;
  /** The prompt. `{name}` placeholders are filled from `fields(input)` in one pass; other braces stay. */
  template: string;
  /**
   * A kind of several prompts (one request per part of an item): the template of one input. Then
   * `template` lists every part's template, as shown and hashed into the config.
   */
  templateOf?(input: I): string;
  /** Request fields every call of the kind sends (e.g. a `response_format`), after the judge's own extra fields. */
  request?: { [key: string]: JsonValue };
  /** The typed input, checked before a request is built. */
  input: z.ZodType<I>;
  /** The answer's shape: an answer that does not match is a parse error. */
  output: z.ZodType<O>;
  /** The placeholder values of one input. */
  fields(input: I): Record<string, string>;
  /** The messages; default: the filled template as the one user message (no system message). */
  messages?(prompt: string, input: I): ChatMessage[];
  /** What of the input decides the answer; default: the sha256 of each placeholder value, by name. */
  keyMaterial?(input: I): JsonValue[];
  /** Checks an answer against its input beyond the schema (e.g. one entry per listed item); a message = a parse error. */
  checkOutput?(output: O, input: I): string | null;
}

export interface JsonTaskKind<I, O> extends TaskKind<ModelConfig, I, O> {
  readonly spec: JsonKindSpec<I, O>;
  /** For the generic source: name, version and the schema outputs are validated by. */
  readonly ref: KindRef<O>;
  /** The filled template of one input (what the user message says). */
  prompt(input: I): string;
}

/** The closing instruction of Loupe's own JSON prompts (claims, key facts). */
export const STRICT_JSON = 'Respond with strict JSON on a single line, with no Markdown or commentary:';

/** Numbered lines, 1-based, as FineSurE shows summary sentences and key facts. */
export const numbered = (lines: readonly string[]): string => lines.map((l, i) => `${i + 1}. ${l}`).join('\n');

/** Fills `{name}` placeholders in one pass: a value that contains "{other}" stays as it is. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (match, name: string) =>
    Object.hasOwn(values, name) ? values[name]! : match,
  );
}

export function defineJsonKind<I, O>(spec: JsonKindSpec<I, O>): JsonTaskKind<I, O> {
  const prompt = (input: I) => {
    const parsed = spec.input.parse(input);
    return fillTemplate(spec.templateOf?.(parsed) ?? spec.template, spec.fields(parsed));
  };
  return {
    name: spec.name,
    version: spec.version,
    cacheTag: `loupe-task:${spec.name}:${spec.version}`,
    itemNoun: spec.itemNoun,
    parseErrors: 'retry',
    spec,
    ref: { name: spec.name, version: spec.version, schema: spec.output },
    prompt,
    // The kind, its version and template, and the answer-affecting model fields.
    configHash: (config) =>
      sha256Hex(
        JSON.stringify([
          'loupe-task-config-1',
          spec.name,
          spec.version,
          spec.template,
          modelVersionText(config),
          ...(spec.request ? [spec.request] : []),
        ]),
      ),
    buildRequest(config, input): ChatRequestBody {
      const text = prompt(input);
      const messages = spec.messages?.(text, input) ?? [{ role: 'user', content: text }];
      return {
        model: config.model,
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
        temperature: config.temperature,
        top_p: config.topP,
        max_tokens: config.maxTokens,
        ...config.extra,
        ...spec.request,
      };
    },
    keyMaterial(input) {
      if (spec.keyMaterial) return spec.keyMaterial(input);
      const values = spec.fields(input);
      return Object.keys(values)
        .sort()
        .map((name) => [name, sha256Hex(values[name]!)]);
    },
    interpret(completion) {
      const read = parseJsonAnswer(completion.content, spec.output);
      return read.ok ? { ok: true, output: read.value } : { ok: false, error: read.error };
    },
    ...(spec.checkOutput ? { checkOutput: spec.checkOutput } : {}),
  };
}

export interface JsonSourceOptions<Item, I> {
  configHash: string;
  items: readonly Item[];
  /** The item's key in `task_results` (e.g. `unit:12`, `document:7`). */
  itemKey(item: Item): string;
  /** The item's input when its turn comes; null: it is missing (counted, not sent). */
  resolve(item: Item): I | null;
  missingNote?(count: number): string;
}

/** The generic source of a JSON kind: the selection's items in, `task_results` rows out. */
export function jsonResultSource<Item, I, O>(
  results: KindResults<O>,
  options: JsonSourceOptions<Item, I>,
): TaskSource<Item, I, O> {
  return {
    itemKey: (item) => options.itemKey(item),
    plan() {
      const completed = results.completedItems(options.configHash);
      const seen = new Set<string>();
      const work: Item[] = [];
      let done = 0;
      for (const item of options.items) {
        const key = options.itemKey(item);
        if (seen.has(key)) continue;
        seen.add(key);
        if (completed.has(key)) done += 1;
        else work.push(item);
      }
      return { work, done, missing: 0 };
    },
    resolve: (item) => options.resolve(item),
    cached(cacheKey) {
      const hit = results.cachedOutput(cacheKey);
      return hit
        ? { output: hit.output, raw: hit.raw, parseError: null, tokensIn: hit.tokensIn, tokensOut: hit.tokensOut }
        : null;
    },
    save(batch) {
      results.save(
        batch.map((r) => ({
          configHash: options.configHash,
          item: options.itemKey(r.item),
          output: r.output,
          raw: r.raw,
          // A schema failure is a failed call here: retried by the next run.
          errorKind: r.errorKind ?? (r.output === null ? 'parse_error' : null),
          errorMessage: r.errorMessage ?? r.parseError,
          tokensIn: r.tokensIn,
          tokensOut: r.tokensOut,
          latencyMs: r.latencyMs,
          cacheKey: r.cacheKey,
          source: r.source,
        })),
      );
    },
    ...(options.missingNote ? { missingNote: options.missingNote } : {}),
  };
}

export interface JsonTaskRunOptions<Item, I, O> extends Omit<JsonSourceOptions<Item, I>, 'configHash'> {
  kind: JsonTaskKind<I, O>;
  config: ModelConfig;
  tasks: TaskRepository;
  apiKey: string | null;
  /** The session's known secrets (CoreContext.keys.known, live; it holds apiKey once KeyAccess resolved it), redacted instead of [apiKey]. */
  knownSecrets?: ReadonlyArray<string>;
  /** Tests: faster backoff, a smaller circuit threshold. */
  tuning?: Partial<Omit<RunTuning, 'concurrency' | 'retries'>>;
  /** Another transport (the default is the openai client) or a local backend. */
  transport?: ChatTransport;
  backend?: TaskBackend<I, O>;
}

/** A run of a JSON kind over items (not started: call `start()`). */
export function createJsonTaskRun<Item, I, O>(
  options: JsonTaskRunOptions<Item, I, O>,
): TaskRun<ModelConfig, Item, I, O> {
  const { kind, config } = options;
  const configHash = kind.configHash(config);
  const source = jsonResultSource(options.tasks.forKind(kind.ref), {
    configHash,
    items: options.items,
    itemKey: options.itemKey,
    resolve: options.resolve,
    ...(options.missingNote ? { missingNote: options.missingNote } : {}),
  });
  const tuning: RunTuning = {
    ...DEFAULT_TUNING,
    ...options.tuning,
    concurrency: config.concurrency,
    retries: config.retries,
  };
  const backend =
    options.backend ??
    (options.transport
      ? chatBackend(kind, config, options.transport)
      : replicaBackend(
          kind,
          config,
          { baseUrls: config.baseUrls, timeoutS: config.timeoutS, concurrency: config.concurrency },
          options.apiKey,
          { failThreshold: tuning.circuitThreshold },
        ));
  return new TaskRun({
    kind,
    config,
    configHash,
    source,
    backend,
    tuning,
    secrets: options.knownSecrets ?? [options.apiKey],
  });
}
