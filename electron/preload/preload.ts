/**
 * The sandboxed preload: exposes `window.loupe` (a LoupeBridge) and nothing else.
 *
 * Bundling note: the values imported from shared/api are the method and menu-action lists only.
 * `scripts/build-electron.mjs` replaces that module, for this bundle, by those two lists computed
 * from `API` at build time, so the preload neither drifts from the contract nor carries zod.
 *
 * Errors: contextBridge copies an Error as a bare message (its own fields are dropped), so a
 * failed call rejects with a plain `{ name: 'ApiError', message, code, problems? }` object, which
 * crosses the bridge intact (the renderer's `errorMessage` / `errorProblems` read it).
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import {
  API_METHODS,
  MENU_ACTIONS,
  type ApiErrorBody,
  type ApiInput,
  type ApiMethod,
  type ApiOutput,
  type ChangeEvent,
  type Envelope,
  type LoupeBridge,
  type MenuAction,
} from '../../shared/api';

// Same literals as electron/main/ipc.ts (importing it would pull the main-process code in).
const API_CHANNEL_PREFIX = 'loupe:';
const MENU_CHANNEL = 'loupe:menu';
const DROP_GRANT_CHANNEL = 'loupe:grant-dropped-file';
const CHANGE_CHANNEL = 'loupe:change';

const allowedMethods: ReadonlySet<string> = new Set<string>(API_METHODS);
const menuActions: ReadonlySet<string> = new Set<string>(MENU_ACTIONS);

/** What a failed call rejects with: cloneable across contextBridge, fields intact. */
export interface BridgeError extends ApiErrorBody {
  name: 'ApiError';
}

function bridgeError(body: ApiErrorBody): BridgeError {
  const error: BridgeError = { name: 'ApiError', code: body.code, message: body.message };
  if (body.problems) error.problems = body.problems;
  return error;
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

async function call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>> {
  if (typeof method !== 'string' || !allowedMethods.has(method)) {
    throw bridgeError({ code: 'not_found', message: `Unknown method ${JSON.stringify(method)}` });
  }
  const envelope: unknown = await ipcRenderer.invoke(API_CHANNEL_PREFIX + method, input ?? {});
  if (!isEnvelope(envelope)) {
    throw bridgeError({ code: 'internal', message: `${method}: malformed reply from the main process` });
  }
  if (!envelope.ok) throw bridgeError(envelope.error);
  return envelope.value as ApiOutput<M>;
}

function onMenu(listener: (action: MenuAction) => void): () => void {
  // Only the action string reaches the page: never the IPC event (it carries `sender`).
  const relay = (_event: IpcRendererEvent, action: unknown) => {
    if (typeof action === 'string' && menuActions.has(action)) listener(action as MenuAction);
  };
  ipcRenderer.on(MENU_CHANNEL, relay);
  return () => {
    ipcRenderer.removeListener(MENU_CHANNEL, relay);
  };
}

/** The fields of a change event, copied (never the IPC event itself, which carries `sender`). */
function changeEventOf(value: unknown): ChangeEvent | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const text = (x: unknown) => typeof x === 'string' || x === null;
  if (
    typeof v.seq !== 'number' ||
    typeof v.namespace !== 'string' ||
    typeof v.what !== 'string' ||
    !text(v.dataset) ||
    !text(v.by)
  )
    return null;
  return { seq: v.seq, namespace: v.namespace, what: v.what, dataset: v.dataset, by: v.by } as ChangeEvent;
}

function onChange(listener: (event: ChangeEvent) => void): () => void {
  const relay = (_event: IpcRendererEvent, value: unknown) => {
    const change = changeEventOf(value);
    if (change) listener(change);
  };
  ipcRenderer.on(CHANGE_CHANNEL, relay);
  return () => {
    ipcRenderer.removeListener(CHANGE_CHANNEL, relay);
  };
}

/**
 * The disk path of a File the user dropped, granted for import by the main process first (the
 * page may pass only granted paths to imports.start). webUtils names a path only for a real
 * dropped or picked file, never for one page script made. Null when there is no path or main
 * refused it: the page then uploads the file's text instead.
 */
function pathForFile(file: File): string | null {
  let filePath: string;
  try {
    filePath = webUtils.getPathForFile(file);
  } catch {
    return null;
  }
  if (!filePath) return null;
  // Synchronous, so the grant is in place before the page's imports.start can arrive.
  const granted: unknown = ipcRenderer.sendSync(DROP_GRANT_CHANNEL, filePath);
  return granted === true ? filePath : null;
}

export const bridge = { call, onMenu, onChange, pathForFile, host: 'electron' } satisfies LoupeBridge;

contextBridge.exposeInMainWorld('loupe', bridge);
