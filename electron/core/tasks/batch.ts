/**
 * Batch files for any task kind: the OpenAI Batch API's JSONL format, which OpenAI runs at half
 * price and vLLM runs offline (`vllm run-batch`).
 *
 * - Requests: one line per item still to do, `{custom_id, method: "POST", url:
 *   "/v1/chat/completions", body}`, the body exactly what a live call sends (the kind's
 *   buildRequest). Items the source has answered are not written; items whose answer is in the
 *   content cache are stored from it on the way (as a live run would), and items sharing a content
 *   key with an earlier line share its request.
 * - Answers: one line per request, `{custom_id, response: {status_code, body}, error}`. Each answer
 *   is stored exactly as a live call's (interpret.ts: the kind's parse, soft labels, redaction;
 *   the same content key and source). Failures (status ≠ 200, an error object, a body that is not
 *   a completion) are stored as failed calls, which the next run or batch sends again; unknown
 *   ids, duplicates and unreadable lines are counted and sampled, never stored.
 *
 * Both directions stream line by line (a file of any size is never held whole); writes wait for
 * the sink to drain.
 *
 * A custom_id is `loupe:<kind>:<config hash>:@<file id>:<item key>`: the kind and the
 * configuration version it was written for, the request file (an export recorded in the project
 * with its selection and the item keys of its requests), and the source's item key, so an answer
 * maps back to one item of one version of one file, or to none: a file for another judge or
 * version is refused line by line, and so is an answer for an item its file did not ask for,
 * whatever selection the import names. Files written before request files were recorded have no
 * `@<file id>:` part; their answers are checked against the import's selection only.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { z } from 'zod';
import { redact } from '../../../shared/judges/redact';
import { promptChars } from '../../../shared/judges/request';
import { LIMITS } from '../../../shared/limits';
import { findLoneSurrogate, fullPath, loneSurrogateWords } from '../../../shared/formats/surrogates';
import { formatBytes } from '../imports/files';
import { NOT_A_COMPLETION, completionFromBody } from './completion';
import { contentKey } from './hashing';
import { RunNotes, storedAnswer } from './interpret';
import type { TaskErrorKind, TaskKind, TaskResult, TaskSource } from './kind';

export const BATCH_METHOD = 'POST';
export const BATCH_URL = '/v1/chat/completions';
/** Results committed per transaction while a file is read or written. */
const SAVE_CHUNK = 500;
/** How many examples of each problem a report lists. */
const SAMPLES = 20;
const YIELD_EVERY_MS = 8;
const MAX_MESSAGE = 500;

export interface BatchSetup<C, Item, I, O> {
  kind: TaskKind<C, I, O>;
  config: C;
  configHash: string;
  /** The widest selection of the kind's items (an answer for any of them is stored). */
  source: TaskSource<Item, I, O>;
  secrets?: ReadonlyArray<string | null>;
  /** Where request files are recorded (absent: ids without a file part, answers checked against the source only). */
  requestFiles?: RequestFiles<Item, I, O>;
}

/** A request file as recorded (db/batchExportRepository.ts). */
export interface RequestFileRecord {
  id: string;
  kind: string;
  configHash: string;
  target: string;
  dataset: string | null;
  onlySampled: boolean;
  requests: number;
  createdAt: string;
}

/** The project's record of request files (the repository's batchExports). */
export interface RequestFileStore {
  begin(file: Omit<RequestFileRecord, 'requests' | 'createdAt'>): void;
  addItems(id: string, itemKeys: readonly string[]): void;
  finish(id: string, requests: number): void;
  discard(id: string): void;
  get(id: string): RequestFileRecord | null;
  includes(id: string, itemKey: string): boolean;
}

export interface RequestFiles<Item = unknown, I = unknown, O = unknown> {
  store: RequestFileStore;
  /** What a file is written for, in words: the judge, or the task and model. */
  target: string;
  /** The selection of the setup's source (recorded with a file written from it). */
  dataset: string | null;
  onlySampled: boolean;
  /** The same task's source over another selection (an answer file's request file's), to count what is still to do in it. */
  sourceFor?(selection: Selection): TaskSource<Item, I, O> | null;
}

interface Selection {
  dataset: string | null;
  onlySampled: boolean;
}

const isWholeProject = (s: Selection) => s.dataset === null && !s.onlySampled;

/** A selection in words: "the whole project", "dataset \"news\"", "the sampled summaries of dataset \"news\"". */
export function selectionWords(selection: Selection): string {
  const dataset = selection.dataset === null ? null : `dataset "${selection.dataset}"`;
  if (selection.onlySampled) return `the sampled summaries${dataset ? ` of ${dataset}` : ''}`;
  return dataset ?? 'the whole project';
}

// --- custom ids ---------------------------------------------------------------------------------

/** `fileId` null: the id form of files written before request files were recorded. */
export function customIdFor(
  kindName: string,
  configHash: string,
  itemKey: string,
  fileId: string | null = null,
): string {
  return `loupe:${kindName}:${configHash}:${fileId === null ? '' : `@${fileId}:`}${itemKey}`;
}

const FILE_PART = /^@([0-9a-f]{16}):(.+)$/;

/** A custom_id written by Loupe: its kind, configuration version, request file (null: an older file's id) and item key. */
export const CustomIdSchema = z
  .string()
  .max(2000)
  .regex(/^loupe:[a-z0-9][a-z0-9._-]*:[0-9a-f]{64}:.+$/, 'a Loupe request id (loupe:<kind>:<version>:<item>)')
  .transform((id) => {
    const [, kind, configHash] = id.split(':') as [string, string, string];
    const rest = id.slice('loupe:'.length + kind.length + 1 + configHash.length + 1);
    const file = FILE_PART.exec(rest);
    return { kind, configHash, fileId: file ? file[1]! : null, itemKey: file ? file[2]! : rest };
  });

// --- file lines ---------------------------------------------------------------------------------

export interface BatchRequestLine {
  custom_id: string;
  method: typeof BATCH_METHOD;
  url: typeof BATCH_URL;
  body: Record<string, unknown>;
}

/** One line of a batch engine's output (OpenAI Batch API; `vllm run-batch` writes the same). */
export const BatchOutputLineSchema = z.object({
  id: z.string().nullish(),
  custom_id: z.string(),
  response: z
    .object({
      status_code: z.number().int(),
      request_id: z.string().nullish(),
      body: z.unknown(),
    })
    .nullish(),
  error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).passthrough().nullish(),
});

// --- walking the work ---------------------------------------------------------------------------

export interface WorkCounts {
  /** Items of the selection. */
  selection: number;
  /** Answered before by this configuration. */
  done: number;
  /** Found in the content cache (stored now, unless a dry run). */
  cached: number;
  /** Requests: one per distinct content key still to answer. */
  requests: number;
  /** Items sharing a request with an earlier item (same content): answered from its answer. */
  shared: number;
  /** Left out: their input is missing. */
  missing: number;
  /** Characters of the prompts the requests carry (their messages), for the plan's token estimate. */
  promptChars: number;
}

interface WalkOptions<Item> {
  /** true: count only (judges.plan); false: store cache hits as a run would. */
  dryRun: boolean;
  /** Build each request to count its prompt's characters (a plan); batch files count theirs anyway. */
  countPrompts?: boolean;
  onRequest?(item: Item, key: string, body: Record<string, unknown>, itemKey: string): Promise<void> | void;
}

const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * What a start (or a batch export) would send: the source's plan, the content cache and in-walk
 * dedupe, item by item, as the engine does it.
 */
export async function walkWork<C, Item, I, O>(
  setup: BatchSetup<C, Item, I, O>,
  options: WalkOptions<Item>,
): Promise<WorkCounts> {
  const { kind, config, configHash, source } = setup;
  const plan = source.plan();
  const counts: WorkCounts = {
    selection: plan.work.length + plan.done + plan.missing,
    done: plan.done,
    cached: 0,
    requests: 0,
    shared: 0,
    missing: plan.missing,
    promptChars: 0,
  };
  const seen = new Set<string>();
  const pending: Array<TaskResult<Item, O>> = [];
  let lastYield = Date.now();
  for (const item of plan.work) {
    if (Date.now() - lastYield >= YIELD_EVERY_MS) {
      await yieldNow();
      lastYield = Date.now();
    }
    const input = source.resolve(item);
    if (input === null) {
      counts.missing += 1;
      continue;
    }
    const key = contentKey(kind.cacheTag, configHash, kind.keyMaterial(input));
    if (seen.has(key)) {
      counts.shared += 1;
      continue;
    }
    seen.add(key);
    const hit = source.cached(key);
    if (hit) {
      counts.cached += 1;
      if (!options.dryRun) {
        pending.push({
          ...hit,
          item,
          errorKind: null,
          errorMessage: null,
          latencyMs: null,
          cacheKey: key,
          source: 'cache',
        });
        if (pending.length >= SAVE_CHUNK) source.save(pending.splice(0));
      }
      continue;
    }
    counts.requests += 1;
    if (!options.onRequest && !options.countPrompts) continue;
    const body = kind.buildRequest(config, input);
    counts.promptChars += promptChars(body);
    if (options.onRequest) await options.onRequest(item, key, body, requireItemKey(source)(item));
  }
  if (pending.length > 0) source.save(pending);
  return counts;
}

function requireItemKey<Item, I, O>(source: TaskSource<Item, I, O>): (item: Item) => string {
  if (!source.itemKey) throw new Error('This task source has no item keys; it cannot write batch files.');
  return source.itemKey.bind(source);
}

// --- writing requests ---------------------------------------------------------------------------

/**
 * Writes one request line per item still to do; resolves when every line is handed to the sink.
 * With `requestFiles`, the file is recorded with the item keys of its requests (and removed from
 * the record if writing fails).
 */
export async function writeBatchRequests<C, Item, I, O>(
  setup: BatchSetup<C, Item, I, O>,
  sink: Writable,
): Promise<WorkCounts> {
  requireItemKey(setup.source);
  const files = setup.requestFiles;
  const fileId = files ? randomBytes(8).toString('hex') : null;
  const itemKeys: string[] = [];
  if (files && fileId !== null)
    files.store.begin({
      id: fileId,
      kind: setup.kind.name,
      configHash: setup.configHash,
      target: files.target,
      dataset: files.dataset,
      onlySampled: files.onlySampled,
    });
  try {
    const counts = await walkWork(setup, {
      dryRun: false,
      async onRequest(_item, _key, body, itemKey) {
        if (files && fileId !== null) {
          itemKeys.push(itemKey);
          if (itemKeys.length >= SAVE_CHUNK) files.store.addItems(fileId, itemKeys.splice(0));
        }
        const line: BatchRequestLine = {
          custom_id: customIdFor(setup.kind.name, setup.configHash, itemKey, fileId),
          method: BATCH_METHOD,
          url: BATCH_URL,
          body,
        };
        if (!sink.write(`${JSON.stringify(line)}\n`)) await once(sink, 'drain');
      },
    });
    if (files && fileId !== null) {
      files.store.addItems(fileId, itemKeys.splice(0));
      files.store.finish(fileId, counts.requests);
    }
    return counts;
  } catch (err) {
    if (files && fileId !== null) files.store.discard(fileId);
    throw err;
  }
}

// --- reading answers ----------------------------------------------------------------------------

/** One line of an answer file as read: its text, or why it was not read (not UTF-8, too long). */
export type BatchLine = string | { refused: string };

export interface BatchProblem {
  line: number;
  customId: string | null;
  message: string;
}

export interface BatchImportCounts {
  /** Non-empty lines read. */
  lines: number;
  /** Answers stored with an output. */
  answered: number;
  /** Answers stored as unparseable (kept with their text). */
  parseErrors: number;
  /** Failed requests stored as failed calls (sent again by the next run or batch). */
  failed: number;
  /** Lines whose custom_id is not a pending item of this kind and version. */
  unknown: number;
  /** Second and later lines for the same item (ignored). */
  duplicates: number;
  /** Lines that are not JSON or not an output line. */
  invalid: number;
  /** Items filled from an imported answer to the same content (no request). */
  shared: number;
  /** Items of the selection still without an answer (failed, or never answered by the file). */
  stillToDo: number;
  /** Examples of each problem (first ones), with line numbers. */
  problems: { unknown: BatchProblem[]; failed: BatchProblem[]; invalid: BatchProblem[] };
  notes: string[];
}

function failureKind(status: number | null): TaskErrorKind {
  if (status === null) return 'server_error';
  if (status === 429) return 'rate_limited';
  if (status === 408) return 'timeout';
  if (status === 401 || status === 403) return 'auth';
  if (status >= 500) return 'server_error';
  return 'client_error';
}

function errorText(value: unknown): string {
  if (value && typeof value === 'object') {
    const o = value as { message?: unknown; error?: { message?: unknown } };
    if (typeof o.message === 'string') return o.message;
    if (o.error && typeof o.error.message === 'string') return o.error.message;
  }
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

const bounded = (text: string) => (text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text);

/**
 * Stores the answers of a batch output file, line by line. `lines` is any async source of lines
 * (readline over a file stream, or the lines of an uploaded text).
 */
export async function importBatchOutput<C, Item, I, O>(
  setup: BatchSetup<C, Item, I, O>,
  lines: AsyncIterable<BatchLine>,
): Promise<BatchImportCounts> {
  const { kind, config, configHash, source } = setup;
  const secrets = setup.secrets ?? [];
  const itemKey = requireItemKey(source);
  const notes = new RunNotes();
  const requestFiles = requestFileCheck(setup.requestFiles);
  /** Answers whose id names no request file (checked against the source's selection only). */
  let unmarked = 0;
  const pendingByKey = new Map<string, Item>();
  for (const item of source.plan().work) pendingByKey.set(itemKey(item), item);
  const answeredKeys = new Set<string>();
  const counts: BatchImportCounts = {
    lines: 0,
    answered: 0,
    parseErrors: 0,
    failed: 0,
    unknown: 0,
    duplicates: 0,
    invalid: 0,
    shared: 0,
    stillToDo: 0,
    problems: { unknown: [], failed: [], invalid: [] },
    notes: [],
  };
  const sample = (list: BatchProblem[], problem: BatchProblem) => {
    if (list.length < SAMPLES)
      list.push({
        ...problem,
        message: bounded(redact(problem.message, secrets)),
        customId: problem.customId === null ? null : bounded(problem.customId),
      });
  };
  const toSave: Array<TaskResult<Item, O>> = [];
  const flush = () => {
    if (toSave.length > 0) source.save(toSave.splice(0));
  };
  let lineNo = 0;
  let lastYield = Date.now();
  for await (const text of lines) {
    lineNo += 1;
    if (typeof text !== 'string') {
      counts.lines += 1;
      counts.invalid += 1;
      sample(counts.problems.invalid, { line: lineNo, customId: null, message: text.refused });
      continue;
    }
    if (text.trim() === '') continue;
    counts.lines += 1;
    if (Date.now() - lastYield >= YIELD_EVERY_MS) {
      await yieldNow();
      lastYield = Date.now();
    }
    // As imports do: a lone surrogate has no UTF-8 form, so the stored text would differ.
    const lone = findLoneSurrogate(text);
    if (lone) {
      counts.invalid += 1;
      const words = loneSurrogateWords(lone.unit, lone.inKey);
      sample(counts.problems.invalid, {
        line: lineNo,
        customId: null,
        message: `not ${words.expected}: ${words.found}${lone.path.length > 0 ? ` at ${fullPath(lone.path)}` : ''}`,
      });
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      counts.invalid += 1;
      sample(counts.problems.invalid, { line: lineNo, customId: null, message: 'not JSON' });
      continue;
    }
    const parsedLine = BatchOutputLineSchema.safeParse(json);
    if (!parsedLine.success) {
      counts.invalid += 1;
      sample(counts.problems.invalid, {
        line: lineNo,
        customId: null,
        message: `not a batch output line: ${z.prettifyError(parsedLine.error).replace(/\s*\n\s*/g, '; ')}`,
      });
      continue;
    }
    const line = parsedLine.data;
    const id = CustomIdSchema.safeParse(line.custom_id);
    let unknownWhy: string | null;
    if (!id.success) unknownWhy = 'not a Loupe request id';
    else if (id.data.kind !== kind.name) unknownWhy = `a request of another task kind (${id.data.kind})`;
    else if (id.data.configHash !== configHash)
      unknownWhy = `a request of another configuration version (${id.data.configHash.slice(0, 12)})`;
    else unknownWhy = requestFiles.refusal(id.data);
    if (unknownWhy === null && id.success) {
      if (answeredKeys.has(id.data.itemKey)) {
        counts.duplicates += 1;
        continue;
      }
      if (id.data.fileId === null) unmarked += 1;
      if (!pendingByKey.has(id.data.itemKey))
        unknownWhy =
          'no such item still to do in this selection (answered before, outside the dataset or sample the import names, or not in this project)';
    }
    if (unknownWhy !== null || !id.success) {
      counts.unknown += 1;
      sample(counts.problems.unknown, { line: lineNo, customId: line.custom_id, message: unknownWhy ?? 'unknown' });
      continue;
    }
    const key = id.data.itemKey;
    const item = pendingByKey.get(key)!;
    answeredKeys.add(key);
    pendingByKey.delete(key);
    const input = source.resolve(item);
    if (input === null) continue; // its input went missing since the export: counted by the next run
    const cacheKey = contentKey(kind.cacheTag, configHash, kind.keyMaterial(input));
    const status = line.response?.status_code ?? null;
    const failure = (errorKind: TaskErrorKind, message: string) => {
      counts.failed += 1;
      const clean = bounded(redact(message, secrets));
      sample(counts.problems.failed, { line: lineNo, customId: line.custom_id, message: clean });
      toSave.push({
        item,
        output: null,
        raw: null,
        parseError: null,
        tokensIn: null,
        tokensOut: null,
        errorKind,
        errorMessage: `batch: ${clean}`,
        latencyMs: null,
        cacheKey,
        source: 'run',
      });
    };
    if (line.error)
      failure(failureKind(status), `${line.error.code ? `${line.error.code}: ` : ''}${line.error.message ?? 'error'}`);
    else if (!line.response) failure('server_error', 'no response');
    else if (status !== 200) failure(failureKind(status), `HTTP ${status}: ${errorText(line.response.body)}`);
    else {
      const completion = completionFromBody(line.response.body);
      const answerBytes = completion?.content ? Buffer.byteLength(completion.content, 'utf8') : 0;
      if (!completion) failure('malformed_response', NOT_A_COMPLETION);
      else if (answerBytes > LIMITS.batch.answerBytes.max) {
        failure(
          'malformed_response',
          `an answer of ${formatBytes(answerBytes)}, over the ${formatBytes(LIMITS.batch.answerBytes.max)} one answer may have (not stored)`,
        );
      } else {
        const stored = storedAnswer(kind, config, { type: 'completion', ...completion }, secrets, notes, { input });
        if (stored.output !== null) counts.answered += 1;
        else counts.parseErrors += 1;
        toSave.push({ ...stored, item, errorKind: null, errorMessage: null, latencyMs: null, cacheKey, source: 'run' });
      }
    }
    if (toSave.length >= SAVE_CHUNK) flush();
  }
  flush();
  // Items of the selection that share content with an answered one take its answer from the cache now.
  const rest = await walkWork(setup, { dryRun: false });
  counts.shared = rest.cached;
  counts.stillToDo = rest.requests + rest.shared;
  const fileNotes: string[] = [];
  // An import that names no selection, of answers all of one narrower request file: what is still to do is counted in the file's.
  const file = requestFiles.onlyFile();
  const files = setup.requestFiles;
  if (file && unmarked === 0 && files?.sourceFor && isWholeProject(files) && !isWholeProject(file)) {
    const fileSource = files.sourceFor(file);
    if (fileSource) {
      const inFile = await walkWork({ ...setup, source: fileSource }, { dryRun: true });
      counts.stillToDo = inFile.requests + inFile.shared;
      fileNotes.push(`still to do: counted in the selection of request file ${file.id} (${selectionWords(file)})`);
    }
  }
  counts.notes = [...notes.lines(kind), ...requestFiles.notes(unmarked, files ?? null), ...fileNotes];
  return counts;
}

/** How many request files a report describes by name. */
const FILES_NAMED = 5;

/**
 * The check of each answer against the request file its id names (an id without one, from a file
 * written before request files were recorded, passes), and the report's words on the files.
 */
function requestFileCheck<Item, I, O>(files: RequestFiles<Item, I, O> | undefined) {
  const named = new Map<string, RequestFileRecord | null>();
  const fileOf = (fileId: string): RequestFileRecord | null => {
    if (!named.has(fileId)) named.set(fileId, files?.store.get(fileId) ?? null);
    return named.get(fileId)!;
  };
  return {
    /** The one request file every marked answer named, if they named exactly one the project wrote. */
    onlyFile(): RequestFileRecord | null {
      const [only, ...others] = named.values();
      return only && others.length === 0 ? only : null;
    },
    /** Why an answer with this (kind- and version-checked) id is refused by its request file; null: it is not. */
    refusal(id: { kind: string; configHash: string; fileId: string | null; itemKey: string }): string | null {
      if (id.fileId === null) return null;
      const file = fileOf(id.fileId);
      if (!file)
        return `names request file ${id.fileId}, which this project did not write (another project's file, or one whose writing did not complete)`;
      if (file.kind !== id.kind || file.configHash !== id.configHash)
        return `names request file ${id.fileId}, written for another task or version (${file.target})`;
      if (!files!.store.includes(id.fileId, id.itemKey))
        return `not a request of file ${id.fileId} (${file.target}, ${selectionWords(file)}): outside the selection it was written for`;
      return null;
    },
    notes(unmarked: number, importSelection: Selection | null): string[] {
      const out: string[] = [];
      const found = [...named.values()].filter((f): f is RequestFileRecord => f !== null);
      for (const f of found.slice(0, FILES_NAMED)) {
        out.push(
          `answers to request file ${f.id} (${f.target}, ${selectionWords(f)}, ${f.requests} requests, written ${f.createdAt}): checked against its requests`,
        );
      }
      if (found.length > FILES_NAMED) out.push(`and ${found.length - FILES_NAMED} more request files`);
      if (unmarked > 0) {
        const scope = importSelection ? selectionWords(importSelection) : 'the selection this import names';
        out.push(
          `${unmarked} answer${unmarked === 1 ? '' : 's'} without a request-file id (a file written before request files were recorded): checked against ${scope} only`,
        );
      }
      return out;
    },
  };
}

/** The lines of a text held in memory, one at a time (an uploaded file). */
export async function* linesOf(text: string): AsyncGenerator<string> {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    yield text.slice(start, end).replace(/\r$/, '');
    start = end + 1;
  }
}
