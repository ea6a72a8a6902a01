/**
 * Judges through the core and the dispatcher (what IPC and `loupe serve` call): the desktop key
 * store (electron/main/secrets.ts with a stand-in safeStorage), background runs that return at once,
 * blind annotation payloads, the demo's baseline judge, and closing a project mid-run.
 */
import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JudgeInfo, JudgeRunStatus } from '../../../shared/api';
import { BASELINE_JUDGE_NAME } from '../../../shared/judges/config';
import { dispatch } from '../../../electron/core/dispatch';
import { startMockOpenAI, type MockServer } from '../../mock-openai/server';
import { until } from '../../mock-openai/project';
import { call, desktopCore as createDesktopCore, importSummaryRows } from '../../helpers/desktop-core';
import { tempDir } from '../../helpers/tmp';

const fake = vi.hoisted(() => ({ backend: 'gnome_libsecret', available: true }));

vi.mock('electron', async () => (await import('../../helpers/desktop-core')).fakeElectron(fake));

const { createKeychainSecretStore, KEY_FILE } = await import('../../../electron/main/secrets');

const KEY = 'sk-desktop-key-9f8e7d6c5b4a3210';
const dir = tempDir('loupe-judge-core-');
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockOpenAI();
});
afterAll(async () => {
  await mock.close();
});

const desktopCore = (userData: string) => createDesktopCore(userData, createKeychainSecretStore(userData));

const config = () => ({ kind: 'endpoint', baseUrl: mock.url, model: 'm', concurrency: 2 });

describe('judges in the desktop core', () => {
  it('keeps a typed key in the keychain file (encrypted), per project, never in the project', async () => {
    const userData = join(dir, 'user-data');
    const core = desktopCore(userData);
    const project = join(dir, 'keys.loupe');
    await call(core, 'projects.create', { path: project });
    await importSummaryRows(core, 2);
    const added = await call<JudgeInfo>(core, 'judges.add', { name: 'gpt', config: config(), apiKey: KEY });
    expect(added.keySource).toBe('stored');
    expect(JSON.stringify(added)).not.toContain(KEY);
    const keyFile = readFileSync(join(userData, KEY_FILE), 'utf8');
    expect(keyFile).not.toContain(KEY);
    expect(JSON.parse(keyFile).version).toBe(1);
    mock.reset();
    const started = await call<JudgeRunStatus>(core, 'judges.start', { name: 'gpt' });
    await until(() => mock.count() >= 6, 5000, 'the run');
    await until(() => (core.repository().judges.listJudges()[0]?.ok ?? 0) === 6, 5000, 'stored answers');
    expect(mock.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect((await call<JudgeRunStatus>(core, 'judges.status', { runId: started.runId })).state).toBe('done');

    // Another project: the same judge name has no key there.
    await call(core, 'projects.create', { path: join(dir, 'other.loupe') });
    await importSummaryRows(core, 1);
    expect((await call<JudgeInfo>(core, 'judges.add', { name: 'gpt', config: config() })).keySource).toBe('none');
    // Back in the first: still there; removing the judge forgets the key.
    await call(core, 'projects.open', { path: project });
    expect((await call<JudgeInfo[]>(core, 'judges.list', {}))[0]!.keySource).toBe('stored');
    await call(core, 'judges.remove', { name: 'gpt' });
    expect(JSON.parse(readFileSync(join(userData, KEY_FILE), 'utf8')).keys).toEqual({});
    core.close();
    for (const file of [project, `${project}-wal`])
      if (existsSync(file)) expect(readFileSync(file).includes(Buffer.from(KEY))).toBe(false);
  });

  it('refuses to store a key without a real keychain (Linux basic_text) and says what to do', async () => {
    fake.backend = 'basic_text';
    const core = desktopCore(join(dir, 'user-data-2'));
    await call(core, 'projects.create', { path: join(dir, 'basic.loupe') });
    const envelope = await dispatch(core.handlers, 'judges.add', { name: 'gpt', config: config(), apiKey: KEY });
    expect(envelope).toMatchObject({
      ok: false,
      error: { code: 'unsupported', message: expect.stringMatching(/environment variable/) },
    });
    expect(JSON.stringify(envelope)).not.toContain(KEY);
    core.close();
    fake.backend = 'gnome_libsecret';
  });

  it('judges.start returns at once; annotation payloads never carry predictions', async () => {
    const core = desktopCore(join(dir, 'user-data-3'));
    await call(core, 'projects.create', { path: join(dir, 'blind.loupe') });
    await importSummaryRows(core, 3);
    await call(core, 'sampling.draw', { dataset: 'news', n: 3, seed: 0 });
    await call(core, 'judges.add', { name: 'slow', config: { ...config(), concurrency: 1 } });
    // The endpoint never answers: judges.start can only come back if it does not wait for the run.
    mock.reset();
    mock.setFailure({ type: 'hang' });
    const started = await call<JudgeRunStatus>(core, 'judges.start', { name: 'slow', onlySampled: true });
    expect(started).toMatchObject({ state: 'running', total: 9, done: 0 });
    expect(mock.answered()).toBe(0);
    const runs = await call<JudgeRunStatus[]>(core, 'judges.runs', {});
    expect(runs[0]!.runId).toBe(started.runId);
    await call(core, 'judges.cancel', { runId: started.runId });
    mock.setFailure(null);
    await call(core, 'judges.update', { name: 'slow', config: { ...config(), concurrency: 4 } });
    const again = await call<JudgeRunStatus>(core, 'judges.start', { name: 'slow', onlySampled: true });
    await until(() => core.repository().judges.listJudges()[0]!.ok === 9, 5000, 'the run');
    expect((await call<JudgeRunStatus>(core, 'judges.status', { runId: again.runId })).state).toBe('done');

    const queue = await call<{ items: Array<{ key: number }> }>(core, 'annotation.queue', { annotator: 'ann' });
    const payloads = [JSON.stringify(queue)];
    for (const item of queue.items)
      payloads.push(JSON.stringify(await call(core, 'annotation.load', { key: item.key, annotator: 'ann' })));
    for (const text of payloads) expect(text).not.toMatch(/"(hard|soft|judge|prediction|predictions|faithful)"/);
    core.close();
  });

  it('closing the project mid-run stops the run and keeps what arrived', async () => {
    const core = desktopCore(join(dir, 'user-data-4'));
    const project = join(dir, 'close.loupe');
    await call(core, 'projects.create', { path: project });
    await importSummaryRows(core, 10);
    await call(core, 'judges.add', { name: 'c', config: config() });
    mock.setLatency(20);
    await call(core, 'judges.start', { name: 'c' });
    await until(() => core.repository().judges.listJudges()[0]!.ok >= 4, 5000, 'some answers');
    core.close();
    mock.setLatency(0);
    await new Promise((r) => setTimeout(r, 100)); // late answers must not touch the closed database
    const db = new Database(project, { readonly: true });
    const n = (db.prepare('SELECT count(*) AS n FROM judge_predictions').get() as { n: number }).n;
    db.close();
    expect(n).toBeGreaterThanOrEqual(4);
    expect(n).toBeLessThan(30);
  });

  it('the demo project comes with the offline baseline judge run over its sample', async () => {
    const core = desktopCore(join(dir, 'user-data-5'));
    await call(core, 'projects.openDemo', {});
    const judges = await call<JudgeInfo[]>(core, 'judges.list', {});
    const baseline = judges.find((j) => j.name === BASELINE_JUDGE_NAME)!;
    expect(baseline).toMatchObject({ kind: 'baseline', keySource: 'none' });
    expect(baseline.description).toMatch(/^Offline baseline/);
    const sampledUnits = (await call<Array<{ name: string; sampled: number }>>(core, 'datasets.list', {}))[0]!;
    expect(sampledUnits.sampled).toBe(25);
    expect(baseline.predictions.ok).toBeGreaterThan(25);
    expect(judges.map((j) => j.kind)).toContain('imported'); // FRANK's FineSurE predictions
    const preview = await call<{ request: unknown; cacheKey: string }>(core, 'judges.preview', {
      name: BASELINE_JUDGE_NAME,
    });
    expect(preview.request).toBeNull();
    expect(preview.cacheKey).toMatch(/^[0-9a-f]{64}$/);
    core.close();
  });
});
