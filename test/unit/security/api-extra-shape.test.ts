/**
 * `extra` request fields of judges.add and systems.add: nested more than the importers' 64 levels
 * or larger than the limit, they are refused by the contract (invalid_input, 400 over HTTP)
 * before anything recurses into them, never a 500 or a stack overflow, and nothing is stored.
 */
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../../electron/serve/server';
import { dispatch } from '../../../electron/core/dispatch';
import { MAX_JSON_DEPTH } from '../../../shared/formats/nesting';
import { LIMITS } from '../../../shared/limits';
import { useEmptyProject } from '../../helpers/empty-project';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir();
const project = useEmptyProject();
const { rows } = project;

/** `{"a": {"a": … 1}}` with `levels` objects in all, `extra` itself included. */
function nested(levels: number): Record<string, unknown> {
  let value: unknown = 1;
  for (let i = 1; i < levels; i += 1) value = { a: value };
  return { a: value };
}

const endpoint = (extra: unknown) => ({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', extra });
const adds = [
  {
    method: 'judges.add',
    input: (extra: unknown) => ({ name: 'j', config: { kind: 'endpoint', ...endpoint(extra) } }),
    table: 'judges',
  },
  { method: 'systems.add', input: (extra: unknown) => ({ name: 's', config: endpoint(extra) }), table: 'systems' },
] as const;

describe.each(adds)('$method extra', ({ method, input, table }) => {
  it.each([MAX_JSON_DEPTH + 1, 1_800, 2_000, 100_000])(
    'nested %i levels: refused at the contract with the limit, nothing stored',
    async (levels) => {
      const answer = await dispatch(project.core.handlers, method, input(nested(levels)));
      expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      if (answer.ok) return;
      expect(answer.error.message).toContain(`config.extra`);
      expect(answer.error.message).toContain(`JSON nested at most ${MAX_JSON_DEPTH} levels deep`);
      expect(answer.error.message).not.toMatch(/Maximum call stack/);
      expect(rows(table)).toBe(0);
    },
  );

  it('larger than the limit: refused with the limit and the size found, nothing stored', async () => {
    const extra = { note: 'x'.repeat(LIMITS.judge.extraChars.max) };
    const answer = await dispatch(project.core.handlers, method, input(extra));
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    if (answer.ok) return;
    expect(answer.error.message).toContain(
      `at most ${LIMITS.judge.extraChars.max.toLocaleString('en-US')} characters of JSON; found ${JSON.stringify(extra).length.toLocaleString('en-US')}`,
    );
    expect(rows(table)).toBe(0);
  });

  it('64 levels and a value within the size limit are accepted and stored as given', async () => {
    const extra = { ...nested(MAX_JSON_DEPTH), pad: 'y'.repeat(1000) };
    const answer = await dispatch(project.core.handlers, method, input(extra));
    expect(answer).toMatchObject({ ok: true, value: { config: { extra } } });
    expect(rows(table)).toBe(1);
    await dispatch(project.core.handlers, `${method.split('.')[0]}.remove`, {
      name: method === 'judges.add' ? 'j' : 's',
    });
    expect(rows(table)).toBe(0);
  });
});

describe('over HTTP (loupe serve)', () => {
  it('extra nested 2,000 levels is a 400 invalid_input, not a 500 with a stack overflow', async () => {
    const staticDir = join(dir, 'static');
    mkdirSync(staticDir, { recursive: true });
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
    const server = await startServer({ handlers: project.core.handlers, staticDir });
    try {
      const body = JSON.stringify({
        name: 'j',
        config: { kind: 'endpoint', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', extra: nested(2_000) },
      });
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: server.port,
            path: '/api/judges.add',
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-loupe-token': server.token },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({
        ok: false,
        error: {
          code: 'invalid_input',
          message: expect.stringContaining(`JSON nested at most ${MAX_JSON_DEPTH} levels deep`),
        },
      });
      expect(rows('judges')).toBe(0);
    } finally {
      await server.close();
    }
  });
});
