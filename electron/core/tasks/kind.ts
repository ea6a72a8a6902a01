/**
 * What the task engine needs to know about one kind of LLM work (a sentence verdict, a claim
 * decomposition, a key-fact extraction, …), and nothing more. The engine owns everything else:
 * queue, content cache, in-flight dedupe, retries, the circuit, pause/resume, progress, write
 * batching, transport errors and key redaction.
 *
 * - A `TaskKind` is the pure part: how to build the chat request from (config, input), how to
 *   read a completion into a typed output (or a parse error), and the cache-key material of an
 *   input. Building a request is separate from sending it, so a batch-file writer can reuse it.
 * - A `TaskSource` is where one run's items come from and its results go: the plan (what to do,
 *   what is done), each item's input (read when its turn comes), cached answers by content key,
 *   and saving results (one transaction per call).
 * - A `TaskBackend` answers one input: a chat endpoint through a transport, or a local rule.
 */
import type { ReplicaStatus, TaskErrorKind } from '../../../shared/contract/tasks';
import type { JsonValue } from '../../../shared/judges/config';
import type { LogprobToken } from '../../../shared/judges/soft';

export type { TaskErrorKind };

/** A chat-completions request body: plain JSON, sent as built (or written to a batch file). */
export type ChatRequestBody = { [key: string]: JsonValue };

/** What Loupe reads from a chat completion (validated, never trusted). */
export interface Completion {
  content: string | null;
  finishReason: string | null;
  /** null: the endpoint sent no log-probabilities. */
  logprobs: LogprobToken[] | null;
  tokensIn: number | null;
  tokensOut: number | null;
}

/** One backend answer: a completion for the kind to interpret, or an output computed locally. */
export type Answer<O> = ({ type: 'completion' } & Completion) | { type: 'output'; output: O; raw: string };

/** A backend over replicas (tasks/replicas.ts): the engine asks it about health and capacity. */
export interface BackendPool {
  /** The most requests in flight at once (every replica at its ceiling). */
  readonly capacity: number;
  /** Every replica is out: the run's circuit opens. */
  allOut(): boolean;
  /** The run (re)starts: every replica gets a fresh chance. */
  reset(): void;
  status(): ReplicaStatus[];
}

export interface TaskBackend<I, O> {
  /** True when the backend sends requests to an endpoint (plans count requests; a local rule sends none). */
  readonly remote: boolean;
  /** Answers one input; a remote backend calls `sent` when its request leaves (after waiting for a slot). */
  call(input: I, signal: AbortSignal, sent: () => void): Promise<Answer<O>>;
  /** Present when the backend chooses among replicas and limits each one itself. */
  readonly pool?: BackendPool;
}

export type Interpretation<O> = { ok: true; output: O } | { ok: false; error: string };

/** Run-level remarks a kind may make while interpreting (shown in the run's notes). */
export interface InterpretContext {
  /** Said once per run, however often it is called. */
  noteOnce(text: string): void;
  /** Counted per call; the notes show each problem with its count (`TaskKind.tallyNote`). */
  tally(problem: string): void;
}

export interface TaskKind<C, I, O> {
  /** Stable name, stored with every generic result (e.g. 'sentence-verdict', 'claims'). */
  readonly name: string;
  /** Bumped when the template, the parse or the output's meaning changes. */
  readonly version: number;
  /** The first element of every content key of this kind. */
  readonly cacheTag: string;
  /** What one item is called in messages ("sentence", "document"). */
  readonly itemNoun: string;
  /** What answers, in messages ("judge"; default "configuration"): "fix the judge, then resume". */
  readonly answererNoun?: string;
  /**
   * 'final': an answer that does not parse is kept and not sent again (a deterministic judge
   * would say the same). 'retry': it is stored as a failed call and the next run sends it again.
   */
  readonly parseErrors: 'final' | 'retry';
  /** The hash of everything that changes answers (model configuration, decoding, template). */
  configHash(config: C): string;
  /** The request body for one input (the same function serves previews and batch files). */
  buildRequest(config: C, input: I): ChatRequestBody;
  /** What of the input, besides the config hash, determines the answer. */
  keyMaterial(input: I): JsonValue[];
  /** Reads a completion into a typed output, or says why it cannot. */
  interpret(completion: Completion, config: C, context: InterpretContext): Interpretation<O>;
  /**
   * Optional: checks an output against the input it answers (e.g. one entry per key fact listed
   * in the prompt); a message makes the answer a parse error, like a schema mismatch.
   */
  checkOutput?(output: O, input: I): string | null;
  /** The note for a tallied problem; default "<problem> (n items)". */
  tallyNote?(problem: string, count: number): string;
}

/** A stored answer with its content key: reused for another item without a request. */
export interface StoredAnswer<O> {
  output: O | null;
  raw: string | null;
  parseError: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
}

/** What one call (or the cache) produced for one item. Exactly one of output / parseError / errorKind is set. */
export interface TaskResult<Item, O> extends StoredAnswer<O> {
  item: Item;
  errorKind: TaskErrorKind | null;
  errorMessage: string | null;
  latencyMs: number | null;
  cacheKey: string;
  source: 'run' | 'cache';
}

export interface TaskPlan<Item> {
  /** Items to send (or find in the cache), in order. */
  work: Item[];
  /** Items of the selection already answered by this configuration (counted as cached). */
  done: number;
  /** Items left out because their input is missing. */
  missing: number;
}

export interface TaskSource<Item, I, O> {
  plan(): TaskPlan<Item>;
  /**
   * The item's stable key within its kind and configuration (`unit:12`, `document:7`): what a
   * batch file's custom_id carries back. Needed for batch files only.
   */
  itemKey?(item: Item): string;
  /** The item's input when its turn comes; null: it went missing (counted, not sent). */
  resolve(item: Item): I | null;
  /** A completed answer with this content key (any item, any configuration with the same hash). */
  cached(cacheKey: string): StoredAnswer<O> | null;
  /** Commits results in one transaction. */
  save(results: ReadonlyArray<TaskResult<Item, O>>): void;
  /** The note for items left out (default: "n item(s) left out: their input is missing"). */
  missingNote?(count: number): string;
}
