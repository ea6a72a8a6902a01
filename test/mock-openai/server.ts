/**
 * A mock OpenAI-compatible server that answers `/v1/chat/completions` the way vLLM does (message,
 * `logprobs.content[].top_logprobs`, `usage`), on 127.0.0.1 with node:http. Tests start and stop
 * it, script it per request (a function of the request, or a sequence of faults), and count the
 * requests it received.
 *
 * Replies: an answer (content built from a hard label, optional prose, code fence, think block,
 * log-probabilities with a given P("1") and a chosen tokenisation), an HTTP status (429 with
 * Retry-After / retry-after-ms, 500, 401 …), a hang (never answers: timeouts), a connection reset,
 * or a malformed JSON body; `echoKey` plays an endpoint that echoes the API key it was sent (the
 * bare token of the Authorization header, no "Bearer " before it) in its answer or its error body.
 *
 * Serving like a real server with limits: `slots` (the N+1th chat request in flight gets 429 at
 * once, with or without Retry-After), `rateLimitHeaders` (x-ratelimit-remaining/reset-requests on
 * every answer), and `setFailure` (every request fails: connection reset, a status, a hang) to
 * play a replica that is down and comes back.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface MockRequest {
  /** 1-based arrival order. */
  n: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> | null;
  /** Parsed from the default template's SOURCE DOCUMENT / SUMMARY SENTENCE blocks (null otherwise). */
  document: string | null;
  sentence: string | null;
  /** The whole user message. */
  prompt: string;
}

/** How the JSON answer is cut into tokens for log-probabilities. */
export type Tokenisation = 'fine' | 'coarse' | 'single' | 'spaced';

export type MockReply =
  | {
      type: 'answer';
      /** Default 1. */
      hard?: 0 | 1;
      /** The exact content (overrides hard/prose/fence/think). */
      content?: string;
      /** P("1") at the value position when log-probabilities are requested; null: send none. */
      soft?: number | null;
      prose?: boolean;
      fence?: boolean;
      think?: string;
      tokenisation?: Tokenisation;
      latencyMs?: number;
    }
  | { type: 'status'; status: number; headers?: Record<string, string>; body?: string; latencyMs?: number }
  | { type: 'hang' }
  | { type: 'reset'; latencyMs?: number }
  | { type: 'malformed'; latencyMs?: number }
  /** The key it was sent, bare, in a valid verdict answer (no status) or in the error body of `status`. */
  | { type: 'echoKey'; status?: number; latencyMs?: number };

export type Responder = (request: MockRequest) => MockReply | undefined;

export interface MockOptions {
  /** Added to every reply that does not set its own. */
  latencyMs?: number;
  respond?: Responder;
  port?: number;
  /** Chat requests served at once; one more in flight is answered 429 at once. Default: unlimited. */
  slots?: number;
  /** With slots: the 429's Retry-After in milliseconds (sent as retry-after-ms); null/absent: none. */
  slotRetryAfterMs?: number | null;
  /** Send x-ratelimit-remaining-requests (free slots) and x-ratelimit-reset-requests on answers. */
  rateLimitHeaders?: boolean;
}

/** How every chat request fails while set (a replica that is down). */
export type MockFailure = { type: 'reset' } | { type: 'status'; status: number } | { type: 'hang' };

export interface MockServer {
  /** Base URL for the openai client, ending in /v1. */
  url: string;
  port: number;
  requests: MockRequest[];
  /** Chat-completion requests received so far. */
  count(): number;
  /** The most chat-completion requests that were open at once. */
  maxInFlight(): number;
  /** Chat requests answered 429 because every slot was busy. */
  rejected(): number;
  /** Chat requests answered with a completion. */
  answered(): number;
  /** Every chat request fails this way until set to null. */
  setFailure(failure: MockFailure | null): void;
  setSlots(slots: number | null, retryAfterMs?: number | null): void;
  /** Replies used, in order, for the next requests (before the responder). */
  queue(...replies: MockReply[]): void;
  setResponder(respond: Responder | undefined): void;
  setLatency(ms: number): void;
  /** Forget counted requests and queued replies. */
  reset(): void;
  close(): Promise<void>;
}

const TEMPLATE_BLOCKS = /SOURCE DOCUMENT:\s*<<<\n?([\s\S]*?)\n?>>>\s*SUMMARY SENTENCE:\s*<<<\n?([\s\S]*?)\n?>>>/;

function answerTokens(hard: 0 | 1, tokenisation: Tokenisation): string[] {
  const d = String(hard);
  switch (tokenisation) {
    case 'coarse':
      return ['{"faithful":', ` ${d}`, '}'];
    case 'single':
      return [`{"faithful": ${d}}`];
    case 'spaced':
      return ['{', '"', 'faith', 'ful', '"', ':', ' ', d, '}'];
    default:
      return ['{"', 'faith', 'ful', '":', ' ', d, '}'];
  }
}

/** Words and the spaces before them, as a tokenizer would cut prose. */
function proseTokens(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

const bytesOf = (t: string) => [...Buffer.from(t, 'utf8')];

interface BuiltAnswer {
  content: string;
  tokens: string[];
  /** Index of the token holding the value digit (-1: none) and the digit's offset in it. */
  valueToken: number;
  valueAt: number;
}

function buildAnswer(reply: Extract<MockReply, { type: 'answer' }>): BuiltAnswer {
  if (reply.content !== undefined) {
    const tokens = proseTokens(reply.content);
    return { content: reply.content, tokens, valueToken: -1, valueAt: 0 };
  }
  const hard = reply.hard ?? 1;
  const before: string[] = [];
  const after: string[] = [];
  if (reply.think !== undefined) before.push('<think>', ...proseTokens(reply.think), '</think>', '\n\n');
  if (reply.prose) before.push(...proseTokens('After reading the document carefully, my verdict is: '));
  if (reply.fence) before.push('```', 'json', '\n');
  if (reply.fence) after.push('\n', '```');
  if (reply.prose) after.push(...proseTokens(' That is my answer.'));
  const json = answerTokens(hard, reply.tokenisation ?? 'fine');
  const valueOffset = json.join('').search(/\d/);
  let at = 0;
  let valueInJson = -1;
  let valueAt = 0;
  json.forEach((t, i) => {
    if (valueInJson === -1 && valueOffset >= at && valueOffset < at + t.length) {
      valueInJson = i;
      valueAt = valueOffset - at;
    }
    at += t.length;
  });
  const tokens = [...before, ...json, ...after];
  return { content: tokens.join(''), tokens, valueToken: before.length + valueInJson, valueAt };
}

function logprobsFor(built: BuiltAnswer, hard: 0 | 1, soft: number, top: number) {
  return built.tokens.map((token, i) => {
    if (i !== built.valueToken) {
      return {
        token,
        logprob: -0.001,
        bytes: bytesOf(token),
        top_logprobs: [
          { token, logprob: -0.001, bytes: bytesOf(token) },
          { token: ' the', logprob: -9, bytes: bytesOf(' the') },
        ].slice(0, top),
      };
    }
    const prefix = token.slice(0, built.valueAt);
    const suffix = token.slice(built.valueAt + 1);
    const mass = 0.99;
    const p1 = Math.max(soft * mass, 1e-12);
    const p0 = Math.max((1 - soft) * mass, 1e-12);
    const alternatives = [
      { token: `${prefix}1${suffix}`, logprob: Math.log(p1) },
      { token: `${prefix}0${suffix}`, logprob: Math.log(p0) },
      { token: `${prefix}2${suffix}`, logprob: Math.log(0.004) },
      { token: `${prefix}10${suffix}`, logprob: Math.log(0.003) },
      { token: '\n', logprob: Math.log(0.003) },
    ]
      .sort((a, b) => b.logprob - a.logprob)
      .slice(0, top)
      .map((a) => ({ ...a, bytes: bytesOf(a.token) }));
    return { token, logprob: Math.log(hard === 1 ? p1 : p0), bytes: bytesOf(token), top_logprobs: alternatives };
  });
}

/** An endpoint that echoes the key it was sent: the bare token in the answer, or in an OpenAI-shaped error body. */
function echoReply(
  reply: Extract<MockReply, { type: 'echoKey' }>,
  headers: IncomingHttpHeaders,
): Exclude<MockReply, { type: 'echoKey' }> {
  const key = String(headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  const latency = reply.latencyMs !== undefined ? { latencyMs: reply.latencyMs } : {};
  if (reply.status !== undefined) {
    return {
      type: 'status',
      status: reply.status,
      body: JSON.stringify({
        error: {
          message: `Incorrect API key provided: ${key}.`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      }),
      ...latency,
    };
  }
  return { type: 'answer', content: `{"faithful": 1} (answered for the key ${key})`, ...latency };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function startMockOpenAI(options: MockOptions = {}): Promise<MockServer> {
  let latencyMs = options.latencyMs ?? 0;
  let respond = options.respond;
  const queued: MockReply[] = [];
  const requests: MockRequest[] = [];
  const sockets = new Set<Socket>();
  let arrivals = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let slots = options.slots ?? null;
  let slotRetryAfterMs = options.slotRetryAfterMs ?? null;
  let busy = 0;
  let rejected = 0;
  let answered = 0;
  let failure: MockFailure | null = null;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    const text = await readBody(req);
    if (req.method === 'GET' && path === '/v1/models') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data: [{ id: 'mock-model', object: 'model' }] }));
      return;
    }
    if (req.method === 'GET' && path === '/__stats') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ requests: requests.length, answered, rejected }));
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'error', message: `no route ${req.method} ${path}`, code: 404 }));
      return;
    }
    let body: Record<string, unknown> | null;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = null;
    }
    const messages = Array.isArray(body?.messages) ? (body!.messages as Array<{ content?: unknown }>) : [];
    const prompt = messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
    const blocks = TEMPLATE_BLOCKS.exec(prompt);
    arrivals += 1;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let open = true;
    const closed = () => {
      if (open) inFlight -= 1;
      open = false;
    };
    res.on('close', closed);
    const request: MockRequest = {
      n: arrivals,
      path,
      headers: req.headers,
      body,
      document: blocks?.[1] ?? null,
      sentence: blocks?.[2] ?? null,
      prompt,
    };
    requests.push(request);
    if (failure) {
      if (failure.type === 'hang') return;
      if (failure.type === 'reset') {
        req.socket.destroy();
        return;
      }
      res
        .writeHead(failure.status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'error', message: `mock down (${failure.status})`, code: failure.status }));
      return;
    }
    if (slots !== null && busy >= slots) {
      rejected += 1;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (slotRetryAfterMs !== null) headers['retry-after-ms'] = String(slotRetryAfterMs);
      res
        .writeHead(429, headers)
        .end(JSON.stringify({ object: 'error', message: 'all slots are busy', type: 'RateLimitError', code: 429 }));
      return;
    }
    busy += 1;
    let holding = true;
    const free = () => {
      if (holding) busy -= 1;
      holding = false;
    };
    res.on('close', free);
    res.on('finish', free);
    const chosen: MockReply = queued.shift() ?? respond?.(request) ?? { type: 'answer' };
    const reply = chosen.type === 'echoKey' ? echoReply(chosen, req.headers) : chosen;

    if (reply.type === 'hang') return; // never answers; closed with the server
    const wait = reply.latencyMs ?? latencyMs;
    if (wait > 0) await sleep(wait);
    if (reply.type === 'reset') {
      req.socket.destroy();
      return;
    }
    if (reply.type === 'malformed') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"id": "chatcmpl-broken", "choices": [{"index": 0, "message": {"content": "{\\"faith');
      return;
    }
    if (reply.type === 'status') {
      const payload =
        reply.body ??
        JSON.stringify({
          object: 'error',
          message: `mock status ${reply.status}`,
          type: 'MockError',
          code: reply.status,
        });
      res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) }).end(payload);
      return;
    }
    const built = buildAnswer(reply);
    const wantLogprobs = body?.logprobs === true;
    const top = typeof body?.top_logprobs === 'number' ? body.top_logprobs : 0;
    const hard = reply.hard ?? 1;
    const soft = reply.soft === undefined ? (hard === 1 ? 0.9 : 0.1) : reply.soft;
    const logprobs =
      wantLogprobs && soft !== null ? { content: logprobsFor(built, hard, soft, Math.max(1, top)) } : null;
    const promptTokens = Math.ceil(prompt.length / 4);
    const completion = {
      id: `chatcmpl-mock-${request.n}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: typeof body?.model === 'string' ? body.model : 'mock-model',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: built.content, reasoning_content: null, tool_calls: [] },
          logprobs,
          finish_reason: 'stop',
          stop_reason: null,
        },
      ],
      usage: {
        prompt_tokens: promptTokens,
        total_tokens: promptTokens + built.tokens.length,
        completion_tokens: built.tokens.length,
        prompt_tokens_details: null,
      },
      prompt_logprobs: null,
    };
    answered += 1;
    free();
    const limitHeaders: Record<string, string> =
      options.rateLimitHeaders && slots !== null
        ? {
            'x-ratelimit-limit-requests': String(slots),
            'x-ratelimit-remaining-requests': String(Math.max(0, slots - busy)),
            'x-ratelimit-reset-requests': `${Math.max(1, latencyMs)}ms`,
          }
        : {};
    res.writeHead(200, { 'content-type': 'application/json', ...limitHeaders }).end(JSON.stringify(completion));
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    count: () => requests.length,
    maxInFlight: () => maxInFlight,
    rejected: () => rejected,
    answered: () => answered,
    setFailure: (f) => {
      failure = f;
    },
    setSlots: (n, retryAfter) => {
      slots = n;
      if (retryAfter !== undefined) slotRetryAfterMs = retryAfter;
    },
    queue: (...replies) => queued.push(...replies),
    setResponder: (r) => {
      respond = r;
    },
    setLatency: (ms) => {
      latencyMs = ms;
    },
    reset: () => {
      requests.length = 0;
      queued.length = 0;
      maxInFlight = inFlight;
      rejected = 0;
      answered = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
