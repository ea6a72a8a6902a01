/**
 * Raw HTTP over node:net for hostile-input tests: fetch and node:http normalise or refuse the
 * very targets and headers an attacker sends (`/%`, `http://[`, duplicate headers, bad bytes),
 * so these bytes go to the socket exactly as written. 127.0.0.1 only.
 */
import { connect } from 'node:net';

export interface RawAnswer {
  /** The final (non-1xx) status. */
  status: number;
  statusLine: string;
  /** Header names lower-cased; a repeated header keeps its last value. */
  headers: Record<string, string>;
  /** The body when `withBody` was asked and the answer said its Content-Length; otherwise ''. */
  body: string;
}

const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})(?: [^\r\n]*)?$/;

/** Splits the answer off the received bytes once a final head (and, if asked, its body) is complete. */
function parseAnswer(received: Buffer, withBody: boolean): RawAnswer | 'incomplete' | 'malformed' {
  let offset = 0;
  for (;;) {
    const end = received.indexOf('\r\n\r\n', offset);
    if (end < 0) return 'incomplete';
    const lines = received.subarray(offset, end).toString('latin1').split('\r\n');
    const statusLine = lines[0] ?? '';
    const match = STATUS_LINE.exec(statusLine);
    if (!match) return 'malformed';
    const status = Number(match[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) return 'malformed';
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const bodyStart = end + 4;
    // 100 Continue and friends come before the real answer.
    if (status >= 100 && status < 200) {
      offset = bodyStart;
      continue;
    }
    if (!withBody || headers['content-length'] === undefined) return { status, statusLine, headers, body: '' };
    const length = Number(headers['content-length']);
    if (received.length - bodyStart < length) return 'incomplete';
    return { status, statusLine, headers, body: received.subarray(bodyStart, bodyStart + length).toString('utf8') };
  }
}

/**
 * Writes `request` to a fresh connection and resolves with the first final answer. Rejects when the
 * server closes without one, answers something that is not HTTP, or says nothing within `limitMs`
 * (a bound so a hung server fails the test rather than the run, not a timing assertion).
 */
export function rawRequest(
  port: number,
  request: string | Buffer,
  options: { withBody?: boolean; limitMs?: number } = {},
): Promise<RawAnswer> {
  const withBody = options.withBody ?? false;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      outcome();
    };
    const shown = () =>
      JSON.stringify((typeof request === 'string' ? request : request.toString('latin1')).slice(0, 200));
    const timer = setTimeout(
      () => settle(() => reject(new Error(`no answer within ${options.limitMs ?? 10_000} ms to ${shown()}`))),
      options.limitMs ?? 10_000,
    );
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const answer = parseAnswer(received, withBody);
      if (answer === 'malformed')
        settle(() =>
          reject(
            new Error(`not an HTTP answer to ${shown()}: ${JSON.stringify(received.toString('latin1').slice(0, 200))}`),
          ),
        );
      else if (answer !== 'incomplete') settle(() => resolve(answer));
    });
    // A reset after the answer (the server closing on an unread body) comes after settle: ignored.
    socket.on('error', (err) =>
      settle(() => reject(new Error(`connection error (${err.message}) before an answer to ${shown()}`))),
    );
    socket.on('close', () => settle(() => reject(new Error(`connection closed without an answer to ${shown()}`))));
  });
}

/** A GET (or any method) with the given target and extra header lines, closing after the answer. */
export function rawGet(
  port: number,
  target: string,
  options: { method?: string; headers?: string[]; host?: string } = {},
): Promise<RawAnswer> {
  const lines = [
    `${options.method ?? 'GET'} ${target} HTTP/1.1`,
    `Host: ${options.host ?? `127.0.0.1:${port}`}`,
    ...(options.headers ?? []),
    'Connection: close',
  ];
  return rawRequest(port, `${lines.join('\r\n')}\r\n\r\n`);
}
