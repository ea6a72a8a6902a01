/**
 * A stand-in for a batch engine (`vllm run-batch`, the OpenAI Batch API) in tests: reads a
 * request JSONL file line by line, POSTs each body to `<baseUrl without /v1><url>` with a few
 * requests in flight, and writes one output line per request in the OpenAI Batch format
 * (`{id, custom_id, response: {status_code, request_id, body}, error}`), in completion order as
 * real engines do. Lines it cannot send get an `error` object instead of a response.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';

export interface BatchRunResult {
  lines: number;
  ok: number;
  failed: number;
}

export async function runBatchFile(
  requestsPath: string,
  outputPath: string,
  baseUrl: string,
  concurrency = 4,
): Promise<BatchRunResult> {
  const origin = baseUrl.replace(/\/v1\/?$/, '');
  const out = createWriteStream(outputPath, { encoding: 'utf8' });
  const result: BatchRunResult = { lines: 0, ok: 0, failed: 0 };
  const running = new Set<Promise<void>>();
  const write = async (line: unknown) => {
    if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain');
  };
  const send = async (n: number, request: { custom_id: string; method: string; url: string; body: unknown }) => {
    try {
      const response = await fetch(`${origin}${request.url}`, {
        method: request.method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request.body),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text, as engines pass through what the server said
      }
      if (response.status === 200) result.ok += 1;
      else result.failed += 1;
      await write({
        id: `batch_req_${n}`,
        custom_id: request.custom_id,
        response: { status_code: response.status, request_id: `req_${n}`, body },
        error: null,
      });
    } catch (err) {
      result.failed += 1;
      await write({
        id: `batch_req_${n}`,
        custom_id: request.custom_id,
        response: null,
        error: { code: 'connection_error', message: err instanceof Error ? err.message : String(err) },
      });
    }
  };
  const lines = createInterface({
    input: createReadStream(requestsPath, { encoding: 'utf8' }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    result.lines += 1;
    const request = JSON.parse(line) as { custom_id: string; method: string; url: string; body: unknown };
    const task = send(result.lines, request).finally(() => running.delete(task));
    running.add(task);
    if (running.size >= concurrency) await Promise.race(running);
  }
  await Promise.all(running);
  out.end();
  await finished(out);
  return result;
}
