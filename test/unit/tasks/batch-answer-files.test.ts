/**
 * Batch answer files (`--batch-in`) read strictly: each line decoded with the importer's decoder
 * (invalid UTF-8 refused with its line, not turned into U+FFFD), lone surrogates refused, a line
 * over the per-line limit refused with its line as it streams by (never held whole, no
 * RangeError), an answer for a sentence outside the request file's selection refused, and an
 * answer over the size limit stored as a failed item without its text.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runImport } from '../../../electron/core/imports/run';
import { customIdFor } from '../../../electron/core/tasks/batch';
import { decodedLines } from '../../../electron/core/tasks/batch-files';
import { EndpointConfigSchema } from '../../../shared/judges/config';
import { LIMITS } from '../../../shared/limits';
import { judgeProject, summaryRows, type JudgeProject } from '../../mock-openai/project';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-batch-strict-');
let n = 0;

const completion = (content: string) => ({
  id: 'c',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});
const answerLine = (customId: string, content = '{"faithful": 1}') =>
  JSON.stringify({
    id: 'b',
    custom_id: customId,
    response: { status_code: 200, body: completion(content) },
    error: null,
  });

async function project(): Promise<{ p: JudgeProject; ids: string[]; configHash: string }> {
  const p = await judgeProject(dir, `s${n++}`, 2, { diskPaths: true });
  await p.service.handlers['judges.add']({
    name: 'j',
    config: EndpointConfigSchema.parse({ kind: 'endpoint', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }),
  });
  const exported = await p.service.handlers['judges.batchExport']({ name: 'j', onlySampled: false });
  const ids = exported
    .content!.split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { custom_id: string }).custom_id);
  return { p, ids, configHash: exported.configHash };
}

const stored = (p: JudgeProject) =>
  p.db
    .prepare(
      'SELECT p.hard, p.raw, p.error_kind AS errorKind, p.error_message AS errorMessage FROM judge_predictions p ORDER BY p.id',
    )
    .all() as Array<{ hard: number | null; raw: string | null; errorKind: string | null; errorMessage: string | null }>;

describe('a batch answer file on disk', () => {
  it('a line that is not UTF-8 is refused with its line; the other lines are stored, nothing holds U+FFFD', async () => {
    const { p, ids } = await project();
    const bad = Buffer.from(answerLine(ids[1]!, '{"faithful": 1, "why": "caf\u00e9"}'), 'utf8');
    const at = bad.indexOf(Buffer.from('\u00e9', 'utf8'));
    const latin1 = Buffer.concat([bad.subarray(0, at), Buffer.from([0xe9]), bad.subarray(at + 2)]);
    const path = join(dir, `latin1-${n}.jsonl`);
    writeFileSync(path, Buffer.concat([Buffer.from(`${answerLine(ids[0]!)}\n`), latin1, Buffer.from('\n')]));
    const result = await p.service.handlers['judges.batchImport']({
      name: 'j',
      source: { type: 'path', path },
      onlySampled: false,
    });
    expect(result).toMatchObject({ lines: 2, answered: 1, invalid: 1 });
    expect(result.problems.invalid).toEqual([
      { line: 2, customId: null, message: expect.stringMatching(/^not UTF-8 text: bytes that are not valid UTF-8/) },
    ]);
    expect(stored(p)).toHaveLength(1);
    expect(JSON.stringify(stored(p))).not.toContain('\uFFFD');
    p.close();
  });

  it('a lone surrogate escape in an answer is refused with its line and field', async () => {
    const { p, ids } = await project();
    const path = join(dir, `lone-${n}.jsonl`);
    // A real lone surrogate in the answer: JSON.stringify writes it as the escape \ud800.
    writeFileSync(path, `${answerLine(ids[0]!, '{"faithful": 1, "why": "\uD800"}')}\n${answerLine(ids[1]!)}\n`);
    const result = await p.service.handlers['judges.batchImport']({
      name: 'j',
      source: { type: 'path', path },
      onlySampled: false,
    });
    expect(result).toMatchObject({ lines: 2, answered: 1, invalid: 1 });
    expect(result.problems.invalid).toEqual([
      {
        line: 1,
        customId: null,
        message: expect.stringMatching(
          /^not text without lone UTF-16 surrogates.*"\\uD800" on its own.* at response\.body\.choices\[0\]\.message\.content$/,
        ),
      },
    ]);
    expect(stored(p)).toHaveLength(1);
    p.close();
  });

  it('an answer over the size limit is a failed item, stored without its text', async () => {
    const { p, ids } = await project();
    const path = join(dir, `big-${n}.jsonl`);
    const huge = `{"faithful": 1, "why": "${'x'.repeat(LIMITS.batch.answerBytes.max)}"}`;
    writeFileSync(path, `${answerLine(ids[0]!, huge)}\n`);
    const result = await p.service.handlers['judges.batchImport']({
      name: 'j',
      source: { type: 'path', path },
      onlySampled: false,
    });
    expect(result).toMatchObject({ lines: 1, answered: 0, failed: 1 });
    expect(result.problems.failed[0]!.message).toBe(
      'an answer of 1.0 MB, over the 1.0 MB one answer may have (not stored)',
    );
    expect(stored(p)).toEqual([
      {
        hard: null,
        raw: null,
        errorKind: 'malformed_response',
        errorMessage: expect.stringContaining('over the 1.0 MB'),
      },
    ]);
    p.close();
  });

  it('an answer for a sentence outside the selection of the request file is refused', async () => {
    const p = await judgeProject(dir, `s${n++}`, 2, { diskPaths: true });
    await runImport(p.repo, {
      source: {
        type: 'upload',
        name: 'sport.jsonl',
        text: summaryRows(1, 'sport')
          .map((r) => JSON.stringify(r))
          .join('\n'),
      },
    });
    await p.service.handlers['judges.add']({
      name: 'j',
      config: EndpointConfigSchema.parse({ kind: 'endpoint', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }),
    });
    const exported = await p.service.handlers['judges.batchExport']({ name: 'j', dataset: 'news', onlySampled: false });
    const newsIds = exported
      .content!.split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { custom_id: string }).custom_id);
    const sportUnit = (
      p.db
        .prepare(
          "SELECT u.id FROM units u JOIN summaries s ON s.id = u.summary_id JOIN datasets d ON d.id = s.dataset_id WHERE d.name = 'sport' LIMIT 1",
        )
        .get() as { id: number }
    ).id;
    const forged = customIdFor('sentence-verdict', exported.configHash, `unit:${sportUnit}`);
    expect(newsIds).not.toContain(forged);
    const text = [answerLine(newsIds[0]!), answerLine(forged)].join('\n');
    const result = await p.service.handlers['judges.batchImport']({
      name: 'j',
      source: { type: 'upload', name: 'out.jsonl', text },
      dataset: 'news',
      onlySampled: false,
    });
    expect(result).toMatchObject({ lines: 2, answered: 1, unknown: 1 });
    expect(result.problems.unknown).toEqual([
      { line: 2, customId: forged, message: expect.stringContaining('no such item still to do in this selection') },
    ]);
    expect(stored(p)).toHaveLength(1);
    p.close();
  });
});

describe('the line reader', () => {
  /** `lines` as a byte stream cut into `size`-byte chunks (lines cross chunk boundaries). */
  async function* chunks(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  }
  const read = async (source: AsyncIterable<Buffer>, max?: number) => {
    const out: unknown[] = [];
    for await (const line of decodedLines(source, 'out.jsonl', max)) out.push(line);
    return out;
  };

  it('a line just over the limit is refused in its place; the lines around it are read', async () => {
    const text = `short\r\n${'a'.repeat(101)}\n${'b'.repeat(100)}\nlast`;
    expect(await read(chunks(Buffer.from(text), 7), 100)).toEqual([
      'short',
      { refused: 'a line of 101 bytes, longer than the 100 bytes a batch answer line may have (skipped unread)' },
      'b'.repeat(100),
      'last',
    ]);
  });

  it('a line larger than the default limit streams by without being held (no RangeError)', async () => {
    const block = Buffer.alloc(1_000_000, 0x61);
    async function* huge(): AsyncGenerator<Buffer> {
      yield Buffer.from('first\n');
      for (let i = 0; i < 17; i += 1) yield block;
      yield Buffer.from('\nafter\n');
    }
    expect(await read(huge())).toEqual([
      'first',
      {
        refused: `a line of 17.0 MB, longer than the ${(LIMITS.batch.lineBytes.max / 1e6).toFixed(1)} MB a batch answer line may have (skipped unread)`,
      },
      'after',
    ]);
  });
});
