/**
 * End to end: the real `loupe serve` child process (CLI, core, SQLite file)
 * receives the requests that used to kill it — `GET /%` and the absolute-form `GET http://[` —
 * sent raw over a socket, answers each with 400, and is still alive and serving afterwards.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawGet, rawRequest } from '../helpers/raw-http';
import { apiCall, startServe, type ServeProcess } from '../helpers/serve';
import { tempDir } from '../helpers/tmp';

let serve: ServeProcess;
let port: number;

beforeAll(async () => {
  const dir = tempDir();
  serve = await startServe(['--project', join(dir, 'alive.loupe'), '--annotator', 'alive'], { LOUPE_STATE_DIR: dir });
  port = Number(new URL(serve.origin).port);
});

afterAll(async () => {
  await serve?.stop();
});

describe('loupe serve stays up on malformed requests', () => {
  it('answers GET /% and GET http://[ with 400, without the token, and keeps running', async () => {
    expect((await rawGet(port, '/%')).status).toBe(400);
    expect((await rawGet(port, 'http://[')).status).toBe(400);
    expect((await rawGet(port, '/%E0%A4%A')).status).toBe(400);
    expect((await rawRequest(port, 'GARBAGE\r\n\r\n')).status).toBe(400);

    expect(serve.child.exitCode, serve.stderr()).toBeNull();
    expect(serve.child.signalCode).toBeNull();
    // Alive and serving: the page and a token-carrying API call both answer.
    expect((await rawGet(port, '/')).status).toBe(200);
    expect(await apiCall(serve, 'datasets.list', {})).toEqual([]);
  });
});
