/**
 * Which LoupeBridge this page talks to: the preload's `window.loupe` in the desktop app, else
 * the HTTP client for `loupe serve`. Nothing else in the renderer knows which host it runs in.
 */
import type { LoupeBridge } from '../../shared/api';
import { createHttpBridge, takeToken } from './httpClient';

declare global {
  interface Window {
    loupe?: LoupeBridge;
  }
}

export function pickBridge(win: Window = window): LoupeBridge {
  if (win.loupe) return win.loupe;
  const token = takeToken({ location: win.location, history: win.history, storage: win.sessionStorage });
  return createHttpBridge({ token });
}

export { ApiError, errorMessage, errorProblems } from './errors';
