/**
 * Binds the contract to Electron IPC: one `ipcMain.handle('loupe:<method>')` per method of
 * `API`, each going through the shared `dispatch` (input validation, output stripping, errors
 * as values). Calls are answered only for the app's own top-level page, and a call that names a
 * disk path only if the user chose that path through the main process (electron/main/grants.ts).
 *
 * One more channel, outside the contract: the preload asks main to grant the path of a file the
 * user dropped on the window (see bindDropGrants).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { ipcMain, type IpcMainEvent, type IpcMainInvokeEvent, type WebFrameMain } from 'electron';
import { API_METHODS, type ApiHandlers, type ApiMethod, type Envelope } from '../../shared/api';
import { dispatch } from '../core/index';
import type { PathGrants, PathGuard } from './grants';
import { isAppUrl, type AppPage } from './window';

/** Channel prefix of the API; the preload uses the same literal. */
export const API_CHANNEL_PREFIX = 'loupe:';
/** Main → renderer: menu actions (a MENU_ACTIONS value). */
export const MENU_CHANNEL = 'loupe:menu';
/** Main → renderer: the core's change events (the desktop's page is the lead's); the preload uses the same literal. */
export const CHANGE_CHANNEL = 'loupe:change';
/** Preload → main (sendSync): grant the path of a dropped File for import; the preload uses the same literal. */
export const DROP_GRANT_CHANNEL = 'loupe:grant-dropped-file';

export function channelFor(method: ApiMethod): string {
  return API_CHANNEL_PREFIX + method;
}

/** The app's own page, in the top-level frame; anything else (iframes, other pages) is refused. */
export function isTrustedFrame(frame: WebFrameMain | null | undefined, page: AppPage): boolean {
  if (!frame) return false;
  if (frame.parent !== null) return false;
  return isAppUrl(frame.url, page);
}

export function refusedEnvelope(method: string): Envelope {
  return {
    ok: false,
    error: { code: 'unsupported', message: `Refused ${method}: the call did not come from Loupe's own page` },
  };
}

/**
 * Registers every method of the contract. Returns the channels registered, so the host (and the
 * tests) can check them and `unbindIpc` can remove them. `guardPaths` answers the calls that name
 * a disk path (projects.open/create, merge.projects, imports.start with a path) before they reach
 * the core.
 */
export function bindIpc(handlers: ApiHandlers, page: AppPage, guardPaths: PathGuard): string[] {
  const channels: string[] = [];
  for (const method of API_METHODS) {
    const channel = channelFor(method);
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, input: unknown): Promise<Envelope> => {
      if (!isTrustedFrame(event.senderFrame, page)) return refusedEnvelope(method);
      const refusal = await guardPaths(method, input);
      if (refusal) return { ok: false, error: refusal };
      return dispatch(handlers, method, input);
    });
    channels.push(channel);
  }
  return channels;
}

/**
 * A file dropped on the window: the preload resolves the path of the dropped File with
 * webUtils.getPathForFile (which names a disk file only for a File the user dropped or picked;
 * page script cannot make one) and asks main, synchronously, to grant it before handing it to the
 * page. Main grants it for import only (never to open, create or merge a project), only for the
 * app's own page and only for an absolute path that exists. Answers true when granted.
 */
export function bindDropGrants(grants: PathGrants, page: AppPage): () => void {
  const listener = (event: IpcMainEvent, filePath: unknown) => {
    event.returnValue = isTrustedFrame(event.senderFrame, page) && grantDropped(grants, filePath);
  };
  ipcMain.on(DROP_GRANT_CHANNEL, listener);
  return () => {
    ipcMain.removeListener(DROP_GRANT_CHANNEL, listener);
  };
}

function grantDropped(grants: PathGrants, filePath: unknown): boolean {
  if (typeof filePath !== 'string' || filePath.length === 0 || filePath.length > 4096 || !path.isAbsolute(filePath))
    return false;
  try {
    const stat = statSync(filePath);
    if (!stat.isFile() && !stat.isDirectory()) return false;
  } catch {
    return false;
  }
  grants.grant('import', filePath);
  return true;
}

export function unbindIpc(channels: readonly string[]): void {
  for (const channel of channels) ipcMain.removeHandler(channel);
}
