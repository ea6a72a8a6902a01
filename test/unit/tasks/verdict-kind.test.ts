/**
 * Sentence verdicts as a task kind keep their cache: the content key is still
 * sha256(JSON ["loupe-judge-cache-1", version hash, sha256(document), sentence]), so a prediction
 * stored by an earlier Loupe (before the task engine) is found by its stored key and reused
 * without a request by a judge with the same configuration.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EndpointConfigSchema } from '../../../shared/judges/config';
import { buildRequestBody } from '../../../shared/judges/request';
import { cacheKey, configHash } from '../../../electron/core/judges/hashing';
import { sentenceVerdictKind } from '../../../electron/core/judges/sentence-verdict';
import { contentKey } from '../../../electron/core/tasks/hashing';
import { startMockOpenAI, type MockServer } from '../../mock-openai/server';
import { judgeProject, until } from '../../mock-openai/project';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-verdict-kind-');
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockOpenAI();
});
afterAll(async () => {
  await mock.close();
});

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
/** The formula as the judge runner wrote it before the task engine existed. */
const legacyKey = (version: string, document: string, sentence: string) =>
  sha(JSON.stringify(['loupe-judge-cache-1', version, sha(document), sentence]));

describe('the sentence-verdict kind', () => {
  it('keeps the verdict content-key formula', () => {
    expect(cacheKey('v', sha('doc'), 'A sentence.')).toBe(legacyKey('v', 'doc', 'A sentence.'));
    const input = { document: 'doc', documentHash: sha('doc'), sentence: 'A sentence.' };
    expect(contentKey(sentenceVerdictKind.cacheTag, 'v', sentenceVerdictKind.keyMaterial(input))).toBe(
      legacyKey('v', 'doc', 'A sentence.'),
    );
  });

  it('builds the same request body as the preview', () => {
    const config = EndpointConfigSchema.parse({
      kind: 'endpoint',
      baseUrl: 'http://127.0.0.1:1/v1',
      model: 'm',
      soft: true,
      extra: { seed: 1 },
    });
    const input = { document: 'The doc.', documentHash: sha('The doc.'), sentence: 'A sentence.' };
    expect(sentenceVerdictKind.buildRequest(config, input)).toEqual(
      buildRequestBody(config, 'The doc.', 'A sentence.'),
    );
    expect(sentenceVerdictKind.configHash(config)).toBe(configHash(config));
  });

  it('finds predictions an earlier Loupe stored, by their stored key, and sends no request for them', async () => {
    const p = await judgeProject(dir, 'legacy', 2);
    const config = EndpointConfigSchema.parse({ kind: 'endpoint', baseUrl: mock.url, model: 'm', concurrency: 2 });
    const version = configHash(config);
    // An older project file: a judge of the same configuration answered every sentence "0".
    const units = p.db
      .prepare(
        'SELECT u.id, u.text, d.text AS document FROM units u JOIN summaries s ON s.id = u.summary_id JOIN documents d ON d.id = s.document_id ORDER BY u.id',
      )
      .all() as Array<{ id: number; text: string; document: string }>;
    p.db.exec(
      `INSERT INTO judges (id, name, kind, config, created_at, updated_at) VALUES (90, 'old', 'endpoint', '{}', 'x', 'x')`,
    );
    p.db
      .prepare(
        `INSERT INTO judge_versions (id, judge_id, config_hash, config, created_at) VALUES (90, 90, ?, '{}', 'x')`,
      )
      .run(version);
    const insert = p.db.prepare(
      `INSERT INTO judge_predictions (unit_id, judge_version_id, hard, soft, raw, cache_key, source, created_at) VALUES (?, 90, 0, NULL, '{"faithful": 0}', ?, 'run', 'x')`,
    );
    for (const u of units) insert.run(u.id, legacyKey(version, u.document, u.text));

    await p.service.handlers['judges.add']({ name: 'new', config });
    const run = p.service.startRun('new', {});
    await until(() => run.status().state !== 'running', 10_000, 'the run');
    expect(run.status()).toMatchObject({ state: 'done', total: 6, cached: 6, requests: 0 });
    expect(mock.count()).toBe(0);
    const rows = p.repo.judges.predictionsForDataset('news').filter((r) => r.judge === 'new');
    expect(rows.map((r) => r.hard)).toEqual([0, 0, 0, 0, 0, 0]);
    p.close();
  });
});
