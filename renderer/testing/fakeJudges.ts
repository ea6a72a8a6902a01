/**
 * The `judges.*` methods for the renderer's tests, on top of a FakeCore: judges in memory, inputs
 * parsed by the contract's own schemas (so the UI must send what a host accepts), versions by the
 * contract's version text, the real request builder for previews, and runs whose `judges.status`
 * answers follow a script. Not imported by the app (not in the bundle).
 */
import { API, type ApiMethod, type JudgeInfo, type JudgeRunStatus } from '../../shared/api';
import { BASELINE_DESCRIPTION } from '../../shared/judges/baseline';
import {
  BASELINE_JUDGE_NAME,
  BaselineConfigSchema,
  DEFAULT_TEMPLATE,
  EndpointConfigSchema,
  describeConfig,
  versionText,
  type JudgeConfig,
} from '../../shared/judges/config';
import { buildRequestBody, completionsUrl } from '../../shared/judges/request';
import { ApiError } from '../api/errors';
import type { FakeCore } from './fakeCore';

/** A stand-in for the core's sha256 config hash (64 hex characters, stable per version text). */
export function fakeHash(text: string): string {
  let out = '';
  for (let seed = 0; out.length < 64; seed += 1) {
    let h = 0x811c9dc5 ^ seed;
    for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, 64);
}

export function judgeInfo(name: string, config: JudgeConfig | null, partial: Partial<JudgeInfo> = {}): JudgeInfo {
  const kind = partial.kind ?? config?.kind ?? 'imported';
  return {
    name,
    kind,
    config,
    configHash: config ? fakeHash(versionText(config)) : 'imported',
    description: config
      ? config.kind === 'baseline'
        ? BASELINE_DESCRIPTION
        : describeConfig(config)
      : 'Predictions imported from a file.',
    keySource: config?.kind === 'endpoint' && config.apiKeyEnv ? 'env' : 'none',
    apiKeyEnv: config?.kind === 'endpoint' ? config.apiKeyEnv : null,
    versions: 1,
    predictions: { ok: 0, parseErrors: 0, failed: 0, soft: 0 },
    activeRunId: null,
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...partial,
  };
}

export function endpointConfig(partial: Record<string, unknown> = {}): JudgeConfig {
  return EndpointConfigSchema.parse({
    kind: 'endpoint',
    baseUrl: 'http://127.0.0.1:8000/v1',
    model: 'Qwen/Qwen3-8B',
    ...partial,
  });
}

export function baselineConfig(): JudgeConfig {
  return BaselineConfigSchema.parse({ kind: 'baseline' });
}

export function runStatus(partial: Partial<JudgeRunStatus> = {}): JudgeRunStatus {
  return {
    runId: 'run-1',
    judge: 'qwen',
    configHash: 'c'.repeat(64),
    dataset: null,
    onlySampled: false,
    state: 'running',
    pauseReason: null,
    message: 'running',
    done: 0,
    total: 100,
    cached: 0,
    reusedParseErrors: 0,
    requests: 0,
    dropped: 0,
    ok: 0,
    parseErrors: 0,
    failed: 0,
    failuresInARow: 0,
    missing: 0,
    ratePerSecond: null,
    etaSeconds: null,
    tokens: { prompt: 0, completion: 0 },
    errors: [],
    notes: [],
    startedAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    finishedAt: null,
    ...partial,
  };
}

export interface FakeJudges {
  judges: JudgeInfo[];
  /** Every run started or given, newest first (what `judges.runs` answers). */
  runs: JudgeRunStatus[];
  /**
   * What each `judges.status` call changes in the run it asks about, in order; once used up the
   * run stays as it is.
   */
  statusScript: Array<Partial<JudgeRunStatus>>;
  /** The total a started run gets. */
  startTotal: number;
}

/** Installs the judges methods on `core` (each can still be overridden afterwards). */
export function installFakeJudges(
  core: FakeCore,
  options: { judges?: JudgeInfo[]; runs?: JudgeRunStatus[] } = {},
): FakeJudges {
  const fake: FakeJudges = {
    judges: options.judges ?? [],
    runs: options.runs ?? [],
    statusScript: [],
    startTotal: 100,
  };
  let nextRun = fake.runs.length + 1;

  const parse = <M extends ApiMethod>(method: M, input: unknown) => {
    const result = API[method].input.safeParse(input);
    if (!result.success) throw new ApiError({ code: 'invalid_input', message: `${method}: ${result.error.message}` });
    return result.data as never;
  };
  const find = (name: string) => {
    const judge = fake.judges.find((j) => j.name === name);
    if (!judge) throw new ApiError({ code: 'not_found', message: `No judge "${name}" in this project.` });
    return judge;
  };
  const findRun = (runId: string) => {
    const run = fake.runs.find((r) => r.runId === runId);
    if (!run) throw new ApiError({ code: 'not_found', message: `No judge run ${runId} in this session.` });
    return run;
  };
  const replaceRun = (next: JudgeRunStatus) => {
    fake.runs = fake.runs.map((r) => (r.runId === next.runId ? next : r));
    const judge = fake.judges.find((j) => j.name === next.judge);
    if (judge) judge.activeRunId = next.state === 'running' || next.state === 'paused' ? next.runId : null;
    return structuredClone(next);
  };

  core.override('judges.defaults', () => ({
    template: DEFAULT_TEMPLATE,
    endpoint: endpointConfig() as never,
    baseline: baselineConfig() as never,
    baselineName: BASELINE_JUDGE_NAME,
    baselineDescription: BASELINE_DESCRIPTION,
  }));
  core.override('judges.list', () => structuredClone(fake.judges));
  core.override('judges.add', (raw) => {
    const { name, config, apiKey } = parse('judges.add', raw) as { name: string; config: JudgeConfig; apiKey?: string };
    if (fake.judges.some((j) => j.name === name))
      throw new ApiError({ code: 'conflict', message: `A judge named "${name}" exists already.` });
    const judge = judgeInfo(name, config, apiKey ? { keySource: 'stored' } : {});
    fake.judges.push(judge);
    return structuredClone(judge);
  });
  core.override('judges.update', (raw) => {
    const { name, config, apiKey } = parse('judges.update', raw) as {
      name: string;
      config: JudgeConfig;
      apiKey?: string | null;
    };
    const judge = find(name);
    const hash = fakeHash(versionText(config));
    const newVersion = hash !== judge.configHash;
    const keySource = typeof apiKey === 'string' ? 'stored' : apiKey === null ? 'none' : judge.keySource;
    const next = judgeInfo(name, config, {
      keySource: keySource === 'none' && config.kind === 'endpoint' && config.apiKeyEnv ? 'env' : keySource,
      versions: judge.versions + (newVersion ? 1 : 0),
      predictions: newVersion ? { ok: 0, parseErrors: 0, failed: 0, soft: 0 } : judge.predictions,
    });
    fake.judges = fake.judges.map((j) => (j.name === name ? next : j));
    return { judge: structuredClone(next), newVersion };
  });
  core.override('judges.remove', ({ name }) => {
    const judge = fake.judges.find((j) => j.name === name);
    if (!judge) return { removed: false, predictionsRemoved: 0 };
    fake.judges = fake.judges.filter((j) => j.name !== name);
    const p = judge.predictions;
    return { removed: true, predictionsRemoved: p.ok + p.parseErrors + p.failed };
  });
  core.override('judges.preview', (raw) => {
    const input = parse('judges.preview', raw) as { name?: string; config?: JudgeConfig };
    const config = input.config ?? find(input.name!).config!;
    const sentence = 'The mayor opened the bridge on Monday.';
    const keyLabel = config.kind === 'endpoint' && config.apiKeyEnv ? `<key from $${config.apiKeyEnv}>` : 'not-needed';
    return {
      configHash: fakeHash(versionText(config)),
      unit: { unitId: 100, dataset: 'demo', summaryId: 's1', sentenceIndex: 0, sentence },
      request:
        config.kind === 'endpoint'
          ? {
              method: 'POST' as const,
              url: completionsUrl(config.baseUrl),
              headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${keyLabel}` },
              body: buildRequestBody(config, 'The mayor opened the new bridge on Monday morning.', sentence),
            }
          : null,
      cacheKey: 'k'.repeat(64),
    };
  });
  core.override('judges.start', (raw) => {
    const { name, dataset, onlySampled } = parse('judges.start', raw) as {
      name: string;
      dataset?: string;
      onlySampled: boolean;
    };
    const judge = find(name);
    if (judge.activeRunId) throw new ApiError({ code: 'conflict', message: `"${name}" has an active run.` });
    const run = runStatus({
      runId: `run-${nextRun++}`,
      judge: name,
      configHash: judge.configHash ?? '',
      dataset: dataset ?? null,
      onlySampled,
      total: fake.startTotal,
    });
    fake.runs = [run, ...fake.runs];
    return replaceRun(run);
  });
  core.override('judges.status', ({ runId }) => {
    const run = findRun(runId);
    const step = fake.statusScript.shift();
    return replaceRun(step ? { ...run, ...step } : run);
  });
  core.override('judges.pause', ({ runId }) => {
    const run = findRun(runId);
    if (run.state !== 'running') return structuredClone(run);
    return replaceRun({ ...run, state: 'paused', pauseReason: 'user', message: 'paused' });
  });
  core.override('judges.resume', ({ runId }) => {
    const run = findRun(runId);
    if (run.state !== 'paused')
      throw new ApiError({ code: 'conflict', message: `The run is ${run.state}; only a paused run resumes.` });
    return replaceRun({ ...run, state: 'running', pauseReason: null, message: 'running' });
  });
  core.override('judges.cancel', ({ runId }) => {
    const run = findRun(runId);
    if (run.state !== 'running' && run.state !== 'paused') return structuredClone(run);
    return replaceRun({
      ...run,
      state: 'cancelled',
      pauseReason: null,
      message: 'cancelled',
      finishedAt: '2025-01-01T00:01:00.000Z',
    });
  });
  core.override('judges.runs', () => structuredClone(fake.runs));
  return fake;
}
