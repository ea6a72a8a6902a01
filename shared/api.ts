/**
 * The one contract between the UI and the core, composed of one module per API namespace:
 * method `x.y` has its schemas in `shared/contract/x.ts` and its handler in `electron/core/x/`.
 * Every host (Electron IPC, `loupe serve`, the CLI) exposes exactly these methods and validates
 * inputs and outputs with these schemas in `dispatch`; nothing else reaches the renderer.
 *
 * This file composes the namespaces (API, ANNOTATOR_METHODS), defines what depends on the whole
 * (method types, the role check, the input check) and re-exports every contract module, so a
 * caller may import any contract name from here.
 */
import { z } from 'zod';
import { ApiError, type ApiErrorBody } from './errors';
import { findLoneSurrogateInValue, fullPath, loneSurrogateWords } from './formats/surrogates';
import { type Caller } from './contract/primitives';
import { APP_API, APP_ANNOTATOR_METHODS, type MenuAction } from './contract/app';
import { PROJECTS_API } from './contract/projects';
import { DATASETS_API, DATASETS_ANNOTATOR_METHODS } from './contract/datasets';
import { ANNOTATORS_API } from './contract/annotators';
import { IMPORTS_API } from './contract/imports';
import { JOBS_API } from './contract/jobs';
import { SAMPLING_API } from './contract/sampling';
import { ANNOTATION_API, ANNOTATION_ANNOTATOR_METHODS } from './contract/annotation';
import { JUDGES_API } from './contract/judges';
import { ANALYSIS_API } from './contract/analysis';
import { PLANNING_API } from './contract/planning';
import { REVIEW_API } from './contract/review';
import { EXPORT_API } from './contract/export';
import { LINKS_API } from './contract/links';
import { MERGE_API } from './contract/merge';
import { DIALOG_API } from './contract/dialog';
import { CLAIMS_API, CLAIMS_ANNOTATOR_METHODS } from './contract/claims';
import { KEYFACTS_API, KEYFACTS_ANNOTATOR_METHODS } from './contract/keyfacts';
import { SYSTEMS_API } from './contract/systems';
import { ACCURACY_API } from './contract/accuracy';
import { SCAFFOLD_API, SCAFFOLD_ANNOTATOR_METHODS } from './contract/scaffold';
import { PROPOSALS_API, PROPOSALS_ANNOTATOR_METHODS } from './contract/proposals';
import type { ChangeEvent } from './contract/events';

export * from './contract/primitives';
export * from './contract/tasks';
export * from './contract/app';
export * from './contract/projects';
export * from './contract/datasets';
export * from './contract/annotators';
export * from './contract/imports';
export * from './contract/jobs';
export * from './contract/sampling';
export * from './contract/annotation';
export * from './contract/judges';
export * from './contract/analysis';
export * from './contract/planning';
export * from './contract/review';
export * from './contract/export';
export * from './contract/links';
export * from './contract/merge';
export * from './contract/dialog';
export * from './contract/claims';
export * from './contract/keyfacts';
export * from './contract/systems';
export * from './contract/accuracy';
export * from './contract/scaffold';
export * from './contract/proposals';
export * from './contract/events';
export { ApiError, type ApiErrorBody };

/** Every method: its input and output schema. Keys are the channel names. */
export const API = {
  ...APP_API,
  ...PROJECTS_API,
  ...DATASETS_API,
  ...ANNOTATORS_API,
  ...IMPORTS_API,
  ...JOBS_API,
  ...SAMPLING_API,
  ...ANNOTATION_API,
  ...JUDGES_API,
  ...ANALYSIS_API,
  ...PLANNING_API,
  ...REVIEW_API,
  ...EXPORT_API,
  ...LINKS_API,
  ...MERGE_API,
  ...DIALOG_API,
  ...CLAIMS_API,
  ...KEYFACTS_API,
  ...SYSTEMS_API,
  ...ACCURACY_API,
  ...SCAFFOLD_API,
  ...PROPOSALS_API,
} as const;

export type ApiMethod = keyof typeof API;
export type ApiInput<M extends ApiMethod> = z.input<(typeof API)[M]['input']>;
export type ApiParsedInput<M extends ApiMethod> = z.output<(typeof API)[M]['input']>;
export type ApiOutput<M extends ApiMethod> = z.output<(typeof API)[M]['output']>;
export const API_METHODS = Object.keys(API) as ApiMethod[];

/**
 * What an annotator link may call, and which input field must name that annotator (null: none).
 * Every other method is the lead's: a judge output, an analysis, a review, an export, an import,
 * a sample, a merge or someone's activity never reaches an annotator link.
 */
export const ANNOTATOR_METHODS = {
  ...APP_ANNOTATOR_METHODS,
  ...DATASETS_ANNOTATOR_METHODS,
  ...ANNOTATION_ANNOTATOR_METHODS,
  ...CLAIMS_ANNOTATOR_METHODS,
  ...KEYFACTS_ANNOTATOR_METHODS,
  ...SCAFFOLD_ANNOTATOR_METHODS,
  ...PROPOSALS_ANNOTATOR_METHODS,
} as const satisfies Partial<Record<ApiMethod, string | null>>;

/**
 * The methods that write (each is followed by a change event of its namespace once it returned):
 * every other method only reads, or starts background work that tells its own changes (an
 * import job, a judge or task run).
 */
export const CHANGING_METHODS: ReadonlySet<ApiMethod> = new Set<ApiMethod>([
  'projects.open',
  'projects.create',
  'projects.openDemo',
  'annotators.ensure',
  'annotation.record',
  'annotation.attachDocument',
  'sampling.draw',
  'judges.add',
  'judges.update',
  'judges.remove',
  'judges.batchImport',
  'review.record',
  'links.create',
  'links.revoke',
  'merge.projects',
  'claims.record',
  'claims.edit',
  'keyfacts.record',
  'keyfacts.edit',
  'scaffold.record',
  'scaffold.edit',
  'systems.add',
  'systems.remove',
  'accuracy.batchImport',
  'proposals.accept',
  'proposals.decline',
]);

/** The role check of one validated call; null when allowed, else the refusal (code forbidden). */
export function refusalFor(caller: Caller, method: ApiMethod, input: unknown): ApiErrorBody | null {
  if (caller.role === 'lead') return null;
  if (!Object.prototype.hasOwnProperty.call(ANNOTATOR_METHODS, method)) {
    return {
      code: 'forbidden',
      message: `${method} needs the lead's link: this link is annotator "${caller.annotator}"'s and allows only their annotation.`,
    };
  }
  const field = ANNOTATOR_METHODS[method as keyof typeof ANNOTATOR_METHODS];
  if (field !== null) {
    const named = (input as Record<string, unknown> | null)?.[field];
    if (named !== caller.annotator) {
      return {
        code: 'forbidden',
        message: `This link is annotator "${caller.annotator}"'s: it cannot act as ${JSON.stringify(named)}.`,
      };
    }
  }
  return null;
}

/**
 * What a host implements: one async function per method, receiving validated input. The caller is
 * the one dispatch checked (absent in direct calls: the lead); most handlers ignore it.
 */
export type ApiHandlers = { [M in ApiMethod]: (input: ApiParsedInput<M>, caller?: Caller) => Promise<ApiOutput<M>> };

/** What the renderer calls. */
export interface LoupeApi {
  call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>>;
}

/** What the preload exposes as `window.loupe` (the browser client provides the same shape). */
export interface LoupeBridge extends LoupeApi {
  host: 'electron' | 'web';
  /** Desktop: subscribe to menu actions. Returns an unsubscribe function. */
  onMenu(listener: (action: MenuAction) => void): () => void;
  /** Desktop: the path of a dropped File (Electron's webUtils); null in the browser. */
  pathForFile(file: File): string | null;
  /**
   * Change events of the core, as this connection's role may see them (IPC on the desktop,
   * server-sent events from `loupe serve`, which resyncs after a drop). Returns an unsubscribe.
   */
  onChange(listener: (event: ChangeEvent) => void): () => void;
}

/** How a result crosses IPC and HTTP: thrown errors lose their fields on the way. */
export type Envelope<T = unknown> = { ok: true; value: T } | { ok: false; error: ApiErrorBody };

/**
 * The contract's check of one call's input, with its one refusal text: every host (dispatch) and
 * the renderer's test double use this, so a refusal reads the same wherever it comes from.
 */
export function parseApiInput<M extends ApiMethod>(
  method: M,
  raw: unknown,
): { ok: true; value: ApiParsedInput<M> } | { ok: false; error: ApiErrorBody } {
  const parsed = API[method].input.safeParse(raw ?? {});
  if (!parsed.success)
    return {
      ok: false,
      error: { code: 'invalid_input', message: `Invalid input for ${method}: ${z.prettifyError(parsed.error)}` },
    };
  // Every string of every call, as imports do: a lone surrogate has no UTF-8 form, so SQLite
  // would store different text (U+FFFD) from what was sent.
  const lone = findLoneSurrogateInValue(parsed.data);
  if (lone) {
    const words = loneSurrogateWords(lone.unit, lone.inKey);
    const place = lone.path.length > 0 ? `${fullPath(lone.path)}${lone.line > 1 ? ` (line ${lone.line})` : ''}: ` : '';
    return {
      ok: false,
      error: {
        code: 'invalid_input',
        message: `Invalid input for ${method}: ${place}expected ${words.expected}; found ${words.found}.`,
      },
    };
  }
  return { ok: true, value: parsed.data as ApiParsedInput<M> };
}

export function isApiMethod(name: unknown): name is ApiMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(API, name);
}
