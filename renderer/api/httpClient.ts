/**
 * The browser's LoupeBridge: the same contract as the desktop preload, spoken over HTTP to
 * `loupe serve` (POST /api/<method>, JSON in, Envelope out, authenticated by a token), and its
 * change events read from `GET /api/events` (server-sent events, the token in a header as for a
 * call, so fetch reads the stream rather than EventSource, which cannot send one).
 */
import {
  ChangeEventSchema,
  resyncEvent,
  type ApiErrorBody,
  type ApiMethod,
  type ApiInput,
  type ApiOutput,
  type ChangeEvent,
  type Envelope,
  type LoupeBridge,
} from '../../shared/api';
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
  /** How long to wait before reconnecting a dropped event stream (default: what the server said, else 1 s). */
  retryMs?: number;
}

/** The `data` of each `change` event in a server-sent event stream's text, block by block. */
export function parseEventBlocks(text: string): { events: unknown[]; retryMs: number | null } {
  const events: unknown[] = [];
  let retryMs: number | null = null;
  for (const block of text.split('\n\n')) {
    let name = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) name = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      else if (line.startsWith('retry:') && Number.isFinite(Number(line.slice(6)))) retryMs = Number(line.slice(6));
    }
    if (name !== 'change' || data.length === 0) continue;
    try {
      events.push(JSON.parse(data.join('\n')));
    } catch {
      // A line that is not JSON says nothing: skipped.
    }
  }
  return { events, retryMs };
}

/**
 * One event stream shared by every listener of this page: opened with the first, closed with the
 * last. A stream that ends or fails is opened again after a pause; once it is back, listeners hear
 * a resync event (what changed meanwhile is unknown: refetch). A refused token (401, 403) stops it.
 */
function createEventStream(fetchImpl: typeof fetch, url: string, token: string | null, retryMs: number | undefined) {
  const listeners = new Set<(event: ChangeEvent) => void>();
  let controller: AbortController | null = null;
  const emit = (event: ChangeEvent) => {
    for (const listener of [...listeners]) listener(event);
  };

  async function run(signal: AbortSignal): Promise<void> {
    let wait = retryMs ?? 1000;
    let dropped = false;
    while (!signal.aborted) {
      try {
        const headers: Record<string, string> = { Accept: 'text/event-stream' };
        if (token) headers['X-Loupe-Token'] = token;
        const response = await fetchImpl(url, { headers, signal });
        if (response.status === 401 || response.status === 403) return;
        if (response.ok && response.body) {
          if (dropped) emit(resyncEvent());
          const reader = response.body.getReader();
          const decoder = new TextDecoder();
          let buffered = '';
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            buffered += decoder.decode(value, { stream: true });
            const end = buffered.lastIndexOf('\n\n');
            if (end === -1) continue;
            const parsed = parseEventBlocks(buffered.slice(0, end));
            buffered = buffered.slice(end + 2);
            if (parsed.retryMs !== null && retryMs === undefined) wait = parsed.retryMs;
            for (const raw of parsed.events) {
              const event = ChangeEventSchema.safeParse(raw);
              if (event.success) emit(event.data);
            }
          }
        }
      } catch {
        // A dropped connection or a server that is gone: try again below.
      }
      if (signal.aborted) return;
      dropped = true;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
  }

  return (listener: (event: ChangeEvent) => void): (() => void) => {
    listeners.add(listener);
    if (!controller) {
      controller = new AbortController();
      void run(controller.signal);
    }
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && controller) {
        controller.abort();
        controller = null;
      }
    };
  };
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
      if (response.status === 401)
        error.message += ' — open the link printed by `loupe serve` (it carries the access token)';
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
    onChange: createEventStream(fetchImpl, `${base}/api/events`, options.token, options.retryMs),
  };
}
