/**
 * The browser's LoupeBridge: the same contract as the desktop preload, spoken over HTTP to
 * `loupe serve` (POST /api/<method>, JSON in, Envelope out, authenticated by a token).
 */
import type { ApiErrorBody, ApiMethod, ApiInput, ApiOutput, Envelope, LoupeBridge } from '../../shared/api';
import { ApiError } from './errors';

const TOKEN_KEY = 'loupe.token';
const TOKEN_PARAM = 'token';

interface TokenPlace {
  location: Pick<Location, 'href'>;
  history: Pick<History, 'replaceState' | 'state'>;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
}

/**
 * `loupe serve` prints a URL with `?token=…`. Take the token from it once, keep it for this tab
 * in sessionStorage (survives reloads, not shared with other tabs), and remove it from the
 * address bar so it does not end up in bookmarks, history or screenshots.
 */
export function takeToken(place: TokenPlace): string | null {
  const url = new URL(place.location.href);
  const fromUrl = url.searchParams.get(TOKEN_PARAM);
  if (fromUrl) {
    place.storage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete(TOKEN_PARAM);
    place.history.replaceState(place.history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return place.storage.getItem(TOKEN_KEY);
}

function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  const ok = (value as { ok: unknown }).ok;
  if (ok === true) return 'value' in value;
  if (ok === false) {
    const error = (value as { error?: unknown }).error;
    return typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string';
  }
  return false;
}

export interface HttpBridgeOptions {
  token: string | null;
  /** Where `/api` lives; defaults to the page's own origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
}

export function createHttpBridge(options: HttpBridgeOptions): LoupeBridge {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseUrl ?? '';

  async function call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (options.token) headers['X-Loupe-Token'] = options.token;
    let response: Response;
    try {
      response = await fetchImpl(`${base}/api/${method}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(input ?? {}),
      });
    } catch (err) {
      throw new ApiError({ code: 'internal', message: `Cannot reach the Loupe server: ${String(err)}` });
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    if (!isEnvelope(body)) {
      const hint =
        response.status === 401 || response.status === 403
          ? ' — open the link printed by `loupe serve` (it carries the access token)'
          : '';
      throw new ApiError({ code: 'internal', message: `${method}: HTTP ${response.status}${hint}` });
    }
    if (!body.ok) {
      const error = body.error as ApiErrorBody;
      if (response.status === 401) error.message += ' — open the link printed by `loupe serve` (it carries the access token)';
      throw new ApiError(error);
    }
    return body.value as ApiOutput<M>;
  }

  return {
    host: 'web',
    call,
    // The browser has no application menu and no file paths: uploads carry the text instead.
    onMenu: () => () => {},
    pathForFile: () => null,
  };
}
