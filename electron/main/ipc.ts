/**
 * Binds the contract to Electron IPC: one `ipcMain.handle('loupe:<method>')` per method of
 * `API`, each going through the shared `dispatch` (input validation, output stripping, errors
 * as values). Calls are answered only for the app's own top-level page.
 */
import { ipcMain, type IpcMainInvokeEvent, type WebFrameMain } from 'electron';
import { API_METHODS, type ApiHandlers, type ApiMethod, type Envelope } from '../../shared/api';
import { dispatch } from '../core/index';
import { isAppUrl, type AppPage } from './window';

/** Channel prefix of the API; the preload uses the same literal. */
export const API_CHANNEL_PREFIX = 'loupe:';
/** Main → renderer: menu actions (a MENU_ACTIONS value). */
export const MENU_CHANNEL = 'loupe:menu';

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
 * tests) can check them and `unbindIpc` can remove them.
 */
export function bindIpc(handlers: ApiHandlers, page: AppPage): string[] {
  const channels: string[] = [];
  for (const method of API_METHODS) {
    const channel = channelFor(method);
    ipcMain.handle(channel, (event: IpcMainInvokeEvent, input: unknown): Promise<Envelope> => {
      if (!isTrustedFrame(event.senderFrame, page)) return Promise.resolve(refusedEnvelope(method));
      return dispatch(handlers, method, input);
    });
    channels.push(channel);
  }
  return channels;
}

export function unbindIpc(channels: readonly string[]): void {
  for (const channel of channels) ipcMain.removeHandler(channel);
}
