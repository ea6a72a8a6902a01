/**
 * The judges part of the core: configurations (no key ever stored in the project), request
 * previews, and background runs that IPC/HTTP calls start, pause, resume, cancel and poll.
 *
 * Keys: a SecretStore (desktop: the OS keychain via safeStorage) keyed by the project's id and
 * the judge's name, sent only to the endpoint origins it was entered for; else the environment
 * variable the configuration names (CLI, `loupe serve`), if the host allows that name (keys.ts).
 * Every key resolved joins the session's known secrets, redacted from everything the engine stores.
 */
import { requestFileName } from '../../../shared/batch-file-name';
import { randomUUID } from 'node:crypto';
import type { ChangeBus } from '../changes';
import {
  ApiError,
  type ApiHandlers,
  type JudgeBatchImport,
  type JudgeInfo,
  type JudgePlan,
  type JudgePreview,
} from '../../../shared/api';
import { BASELINE_DESCRIPTION } from '../../../shared/judges/baseline';
import {
  BASELINE_JUDGE_NAME,
  BaselineConfigSchema,
  DEFAULT_TEMPLATE,
  EndpointConfigSchema,
  JudgeConfigSchema,
  describeConfig,
  type JudgeConfig,
} from '../../../shared/judges/config';
import { completionsUrl, estimatedTokens } from '../../../shared/judges/request';
import type { Repository } from '../../../db/repository';
import type { JudgeListRow, JudgeRow } from '../../../db/judgeRepository';
import { walkWork, type BatchSetup, type WorkCounts } from '../tasks/batch';
import { exportBatchToFile, exportBatchToText, importBatchFromFile, importBatchFromText } from '../tasks/batch-files';
import { replicaBackend } from '../tasks/transport';
import { createRunRegistry } from '../tasks/runs';
import { cacheKey, configHash, sha256Hex } from './hashing';
import { DEFAULT_TUNING, JudgeRun, type RunTuning, type VerdictBackend } from './run';
import {
  baselineBackend,
  sentenceVerdictKind,
  verdictSource,
  type Verdict,
  type VerdictInput,
  type VerdictItem,
} from './sentence-verdict';
import { keyApplies, originsOf, type SecretStore, type StoredKey } from './secrets';
import { createKeyAccess, NO_KEY_ENV, type KeyAccess, type KeyEnvPolicy } from '../keys';

export type JudgeMethod = Extract<keyof ApiHandlers, `judges.${string}`>;
export type JudgeHandlers = Pick<ApiHandlers, JudgeMethod>;

export interface JudgeServiceOptions {
  /** The open project's repository; throws an ApiError when none is open. */
  repository: () => Repository;
  /** Desktop: the OS keychain. Absent: keys come only from environment variables. */
  secrets?: SecretStore | null;
  /** Key reading and known secrets, shared with the rest of the core. Absent: built from env and allowedKeyEnv. */
  keys?: KeyAccess;
  env?: Record<string, string | undefined>;
  /** Without `keys`: which variables a judge may name (default none). */
  allowedKeyEnv?: KeyEnvPolicy;
  /** Tests: faster backoff, a smaller circuit threshold. */
  tuning?: Partial<Omit<RunTuning, 'concurrency' | 'retries'>>;
  /** The caller may name files on this machine (desktop, CLI); `loupe serve` may not. Default false. */
  diskPaths?: boolean;
  /** Tests: faster probes of a replica that was taken out. */
  replicas?: { probeBaseMs?: number; probeMaxMs?: number };
  /** Tests: a backend other than the real endpoint (e.g. to count calls). */
  backendFor?: (config: JudgeConfig, apiKey: string | null) => VerdictBackend;
  /** Change events: a run tells when it ended (its predictions are written). */
  changes?: ChangeBus;
}

export interface JudgeService {
  handlers: JudgeHandlers;
  /** Starts a run (CLI and demo use the run object directly for progress and waiting). */
  startRun(name: string, selection: { dataset?: string | undefined; onlySampled?: boolean }): JudgeRun;
  /** Adds the offline baseline judge under its default name if it is not there. */
  ensureBaseline(): void;
  /** The project is closing: stop every run (what arrived is kept). */
  stopAll(): void;
  /** An endpoint judge's configuration and key, for the other tasks that run with a judge (accuracy.*). */
  endpointOf(name: string): {
    judgeId: number;
    config: Extract<JudgeConfig, { kind: 'endpoint' }>;
    apiKey: string | null;
  };
}

export function createJudgeService(options: JudgeServiceOptions): JudgeService {
  const runs = createRunRegistry<JudgeRun>('judge', (run) => run);
  const keys =
    options.keys ??
    createKeyAccess({ env: options.env ?? process.env, allowedKeyEnv: options.allowedKeyEnv ?? NO_KEY_ENV });

  const repo = () => options.repository();
  const judgesRepo = () => repo().judges;

  /** The project's stable id (meta), the scope of its stored keys. */
  function projectScope(): string {
    const r = repo();
    let id = r.getMeta('project_id');
    if (id === null) {
      id = randomUUID();
      r.setMeta('project_id', id);
    }
    return id;
  }

  function storedKey(name: string): StoredKey | null {
    if (!options.secrets || !options.secrets.available()) return null;
    try {
      const stored = options.secrets.get(projectScope(), name);
      keys.remember(stored?.key ?? null);
      return stored;
    } catch {
      return null;
    }
  }

  /** The stored key if it may be sent to this configuration's base URLs (the origins it was entered for). */
  function applicableStoredKey(name: string, config: JudgeConfig): string | null {
    if (config.kind !== 'endpoint') return null;
    const stored = storedKey(name);
    return stored !== null && keyApplies(stored, config.baseUrls) ? stored.key : null;
  }

  function storeKey(name: string, config: JudgeConfig, key: string): void {
    if (config.kind !== 'endpoint') return;
    keys.remember(key);
    options.secrets!.set(projectScope(), name, { key, origins: originsOf(config.baseUrls) });
  }

  /** An endpoint judge may name only a variable the host allows (over HTTP: --allow-key-env). */
  function requireKeyEnvAllowed(name: string, config: JudgeConfig): void {
    if (config.kind === 'endpoint' && config.apiKeyEnv) keys.requireEnvAllowed(config.apiKeyEnv, `The judge "${name}"`);
  }

  function requireJudge(name: string): JudgeRow {
    const judge = judgesRepo().judgeByName(name);
    if (!judge) throw new ApiError({ code: 'not_found', message: `No judge "${name}" in this project.` });
    return judge;
  }

  function configOf(judge: JudgeRow): JudgeConfig | null {
    if (judge.config === null) return null;
    try {
      const parsed = JudgeConfigSchema.safeParse(JSON.parse(judge.config));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  function requireConfig(judge: JudgeRow): JudgeConfig {
    const config = configOf(judge);
    if (!config) {
      throw new ApiError({
        code: 'conflict',
        message:
          judge.kind === 'imported'
            ? `"${judge.name}" holds imported predictions; it has no configuration to run.`
            : `The configuration of "${judge.name}" cannot be read.`,
      });
    }
    return config;
  }

  function activeRun(name: string): JudgeRun | null {
    return runs.active((run) => run.spec.judge === name);
  }

  function info(row: JudgeListRow): JudgeInfo {
    const config = configOf(row);
    const stored = row.kind === 'endpoint' ? storedKey(row.name) : null;
    const storedApplies = stored !== null && config?.kind === 'endpoint' && keyApplies(stored, config.baseUrls);
    const apiKeyEnv = config?.kind === 'endpoint' ? config.apiKeyEnv : null;
    const description =
      row.kind === 'imported'
        ? `Predictions imported from a file${row.configHash && row.configHash !== 'imported' ? ` (version ${row.configHash.slice(0, 12)})` : ''}.`
        : config
          ? config.kind === 'baseline'
            ? BASELINE_DESCRIPTION
            : describeConfig(config)
          : 'The stored configuration cannot be read.';
    return {
      name: row.name,
      kind: row.kind,
      config,
      configHash: row.configHash,
      description,
      // A key entered for another endpoint origin is kept but not sent: the person types it again.
      keySource: storedApplies ? 'stored' : stored !== null ? 'stored_other_origin' : apiKeyEnv ? 'env' : 'none',
      apiKeyEnv,
      versions: row.versions,
      predictions: { ok: row.ok, parseErrors: row.parseErrors, failed: row.failed, soft: row.soft },
      activeRunId: activeRun(row.name)?.id ?? null,
      updatedAt: row.updatedAt,
    };
  }

  function infoByName(name: string): JudgeInfo {
    const row = judgesRepo()
      .listJudges()
      .find((j) => j.name === name);
    if (!row) throw new ApiError({ code: 'not_found', message: `No judge "${name}" in this project.` });
    return info(row);
  }

  function checkKeyStorable(): void {
    if (!options.secrets) {
      throw new ApiError({
        code: 'unsupported',
        message:
          'This host does not store API keys. Put the key in an environment variable and name it in the judge (--api-key-env VAR).',
      });
    }
    if (!options.secrets.available()) {
      throw new ApiError({
        code: 'unsupported',
        message:
          "No OS keychain is available to store the key safely. Name an environment variable instead (the judge's apiKeyEnv).",
      });
    }
  }

  /** Stores the configuration (no key) and makes its version current. */
  function saveConfig(judgeId: number, config: JudgeConfig): { newVersion: boolean } {
    const j = judgesRepo();
    const hash = configHash(config);
    const json = JSON.stringify(config);
    return j.transaction(() => {
      const previous = j.listJudges().find((r) => r.id === judgeId)?.configHash ?? null;
      j.updateJudgeConfig(judgeId, config.kind, json, config.kind === 'endpoint' ? config.apiKeyEnv : null);
      const version = j.ensureVersion(judgeId, hash, json);
      j.setCurrentVersion(judgeId, version.id);
      return { newVersion: previous !== hash };
    });
  }

  function addJudge(name: string, config: JudgeConfig, apiKey: string | undefined): JudgeInfo {
    if (judgesRepo().judgeByName(name))
      throw new ApiError({
        code: 'conflict',
        message: `A judge named "${name}" exists already; update it or choose another name.`,
      });
    if (apiKey !== undefined) {
      if (config.kind !== 'endpoint')
        throw new ApiError({ code: 'invalid_input', message: 'Only endpoint judges take an API key.' });
      checkKeyStorable();
    }
    requireKeyEnvAllowed(name, config);
    const j = judgesRepo();
    j.transaction(() => {
      const id = j.insertJudge({
        name,
        kind: config.kind,
        config: JSON.stringify(config),
        apiKeyEnv: config.kind === 'endpoint' ? config.apiKeyEnv : null,
      });
      saveConfig(id, config);
      // Read back inside the transaction: a name stored differently from how it was given (not
      // found under it) rolls the insert back instead of leaving a judge nobody can name.
      infoByName(name);
    });
    if (apiKey !== undefined) storeKey(name, config, apiKey);
    return infoByName(name);
  }

  /** Makes the judge's key, if one can be resolved, a known secret (a batch sends nothing, but answers may echo it). */
  function rememberKeyOf(name: string, config: JudgeConfig): void {
    try {
      keyFor(name, config);
    } catch {
      // no key (unset, or a variable this host does not allow): nothing to remember
    }
  }

  function keyFor(name: string, config: JudgeConfig): string | null {
    if (config.kind !== 'endpoint') return null;
    const stored = applicableStoredKey(name, config);
    if (stored !== null) return stored;
    if (config.apiKeyEnv) {
      // Refused for a variable the host does not allow, also for a judge stored before the rule.
      const value = keys.readEnv(config.apiKeyEnv, `The judge "${name}"`);
      if (value === null) {
        throw new ApiError({
          code: 'invalid_input',
          message: `The judge "${name}" reads its API key from the environment variable ${config.apiKeyEnv}, which is not set.`,
        });
      }
      return value;
    }
    return null;
  }

  function requireNoActiveRun(name: string): void {
    const existing = activeRun(name);
    if (existing) {
      throw new ApiError({
        code: 'conflict',
        message: `"${name}" has a ${existing.status().state} run (${existing.id}); resume or cancel it first.`,
      });
    }
  }

  function requireDataset(dataset: string | undefined): void {
    if (dataset !== undefined && repo().datasetId(dataset) === null) {
      throw new ApiError({ code: 'not_found', message: `No dataset "${dataset}" in this project.` });
    }
  }

  /** The version of the judge's configuration (the current one by construction; ensured all the same). */
  function currentVersion(judge: JudgeRow, config: JudgeConfig): { id: number; hash: string } {
    const hash = configHash(config);
    const j = judgesRepo();
    const version = j.transaction(() => {
      const v = j.ensureVersion(judge.id, hash, JSON.stringify(config));
      if (judge.currentVersionId !== v.id) j.setCurrentVersion(judge.id, v.id);
      return v;
    });
    return { id: version.id, hash };
  }

  function startRun(name: string, selection: { dataset?: string | undefined; onlySampled?: boolean }): JudgeRun {
    const judge = requireJudge(name);
    const config = requireConfig(judge);
    requireNoActiveRun(name);
    requireDataset(selection.dataset);
    const apiKey = keyFor(name, config);
    const { id: versionId, hash } = currentVersion(judge, config);
    const j = judgesRepo();
    const version = { id: versionId };
    const tuning: RunTuning = {
      ...DEFAULT_TUNING,
      ...options.tuning,
      concurrency: config.kind === 'endpoint' ? config.concurrency : 1,
      retries: config.kind === 'endpoint' ? config.retries : 0,
    };
    const backend =
      options.backendFor?.(config, apiKey) ??
      (config.kind === 'endpoint'
        ? replicaBackend(
            sentenceVerdictKind,
            config,
            { baseUrls: config.baseUrls, timeoutS: config.timeoutS, concurrency: config.concurrency },
            apiKey,
            {
              failThreshold: tuning.circuitThreshold,
              ...options.replicas,
            },
          )
        : baselineBackend(config));
    const run = new JudgeRun(
      {
        judge: name,
        versionId: version.id,
        configHash: hash,
        config,
        dataset: selection.dataset ?? null,
        onlySampled: selection.onlySampled ?? false,
      },
      j,
      backend,
      tuning,
      // Live: every key this session resolved, not only this judge's.
      keys.known,
    );
    runs.add(run);
    run.start();
    void run.finished.then(() =>
      options.changes?.emit({ namespace: 'judges', what: 'judges.run', dataset: run.spec.dataset }),
    );
    return run;
  }

  type VerdictBatch = BatchSetup<JudgeConfig, VerdictItem, VerdictInput, Verdict>;

  /** The judge's current version over a selection, as the task engine's batch functions take it. */
  function batchSetup(
    name: string,
    selection: { dataset?: string | undefined; onlySampled: boolean },
  ): { setup: VerdictBatch; config: JudgeConfig } {
    const judge = requireJudge(name);
    const config = requireConfig(judge);
    requireDataset(selection.dataset);
    const version = currentVersion(judge, config);
    const dataset = selection.dataset ?? null;
    const source = verdictSource(judgesRepo(), { versionId: version.id, dataset, onlySampled: selection.onlySampled });
    const requestFiles = {
      store: repo().batchExports,
      target: `judge "${name}"`,
      dataset,
      onlySampled: selection.onlySampled,
      sourceFor: (other: { dataset: string | null; onlySampled: boolean }) =>
        other.dataset !== null && repo().datasetId(other.dataset) === null
          ? null
          : verdictSource(judgesRepo(), { versionId: version.id, ...other }),
    };
    return { setup: { kind: sentenceVerdictKind, config, configHash: version.hash, source, requestFiles }, config };
  }

  function planOf(
    name: string,
    selection: { dataset?: string | undefined; onlySampled: boolean },
    config: JudgeConfig,
    hash: string,
    counts: WorkCounts,
  ): JudgePlan {
    return {
      judge: name,
      configHash: hash,
      dataset: selection.dataset ?? null,
      onlySampled: selection.onlySampled,
      remote: config.kind === 'endpoint',
      selection: counts.selection,
      done: counts.done,
      cached: counts.cached,
      requests: config.kind === 'endpoint' ? counts.requests : 0,
      promptTokens: config.kind === 'endpoint' ? estimatedTokens(counts.promptChars) : 0,
      baseUrls: config.kind === 'endpoint' ? config.baseUrls : [],
      shared: counts.shared,
      missing: counts.missing,
    };
  }

  function requireBatchable(name: string, config: JudgeConfig): void {
    if (config.kind !== 'endpoint')
      throw new ApiError({
        code: 'conflict',
        message: `"${name}" is the offline baseline rule: it sends no requests, so it has no batch file. Run it instead.`,
      });
    requireNoActiveRun(name);
  }

  function requireDiskPaths(what: string): void {
    if (!options.diskPaths)
      throw new ApiError({
        code: 'unsupported',
        message: `${what} is only available in the desktop app and the CLI; here the file is downloaded or uploaded instead.`,
      });
  }

  /** A file name for a download: the judge's name made safe. */
  const batchFileName = (name: string): string => requestFileName(name, 'judge');

  function preview(input: {
    name?: string | undefined;
    config?: JudgeConfig | undefined;
    unitId?: number | undefined;
    dataset?: string | undefined;
  }): JudgePreview {
    let config: JudgeConfig;
    let keyLabel = 'not-needed';
    if (input.name !== undefined) {
      const judge = requireJudge(input.name);
      config = requireConfig(judge);
      if (config.kind === 'endpoint') {
        if (applicableStoredKey(input.name, config) !== null) keyLabel = '<key stored in the OS keychain>';
        else if (config.apiKeyEnv) keyLabel = `<key from $${config.apiKeyEnv}>`;
      }
    } else {
      config = input.config!;
      if (config.kind === 'endpoint' && config.apiKeyEnv) keyLabel = `<key from $${config.apiKeyEnv}>`;
    }
    const unit = judgesRepo().previewUnit(input.unitId ?? null, input.dataset ?? null);
    if (input.unitId !== undefined && !unit)
      throw new ApiError({ code: 'not_found', message: `No unit ${input.unitId}` });
    if (unit && unit.document === null)
      throw new ApiError({
        code: 'conflict',
        message: `The document of unit ${unit.unitId} is missing; no request can be built.`,
      });
    const hash = configHash(config);
    const document = unit?.document ?? '';
    // The kind's own request builder: the preview is the body a run sends.
    const verdictInput = { document, documentHash: sha256Hex(document), sentence: unit?.sentence ?? '{sentence}' };
    return {
      configHash: hash,
      unit: unit
        ? {
            unitId: unit.unitId,
            dataset: unit.dataset,
            summaryId: unit.summaryId,
            sentenceIndex: unit.sentenceIndex,
            sentence: unit.sentence,
          }
        : null,
      request:
        config.kind === 'endpoint'
          ? {
              method: 'POST',
              url: completionsUrl(config.baseUrl),
              headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${keyLabel}` },
              body: sentenceVerdictKind.buildRequest(config, verdictInput),
            }
          : null,
      cacheKey: unit ? cacheKey(hash, verdictInput.documentHash, unit.sentence) : null,
    };
  }

  const handlers: JudgeHandlers = {
    'judges.defaults': async () => ({
      template: DEFAULT_TEMPLATE,
      endpoint: EndpointConfigSchema.parse({
        kind: 'endpoint',
        baseUrl: 'http://127.0.0.1:8000/v1',
        model: 'Qwen/Qwen3-8B',
      }),
      baseline: BaselineConfigSchema.parse({ kind: 'baseline' }),
      baselineName: BASELINE_JUDGE_NAME,
      baselineDescription: BASELINE_DESCRIPTION,
    }),
    'judges.list': async () => judgesRepo().listJudges().map(info),
    'judges.add': async ({ name, config, apiKey }) => addJudge(name, config, apiKey),
    'judges.update': async ({ name, config, apiKey }) => {
      const judge = requireJudge(name);
      if (judge.kind === 'imported')
        throw new ApiError({
          code: 'conflict',
          message: `"${name}" holds imported predictions; add a new judge to run one.`,
        });
      const run = activeRun(name);
      if (run)
        throw new ApiError({
          code: 'conflict',
          message: `"${name}" has a ${run.status().state} run; cancel it (or let it finish) before changing the judge.`,
        });
      if (typeof apiKey === 'string') {
        if (config.kind !== 'endpoint')
          throw new ApiError({ code: 'invalid_input', message: 'Only endpoint judges take an API key.' });
        checkKeyStorable();
      }
      requireKeyEnvAllowed(name, config);
      const { newVersion } = saveConfig(judge.id, config);
      // A base-URL change keeps a stored key bound to the old origins: it is not sent until typed again.
      if (typeof apiKey === 'string') storeKey(name, config, apiKey);
      else if ((apiKey === null || config.kind !== 'endpoint') && options.secrets?.available())
        options.secrets.delete(projectScope(), name);
      return { judge: infoByName(name), newVersion };
    },
    'judges.remove': async ({ name }) => {
      const judge = judgesRepo().judgeByName(name);
      if (!judge) return { removed: false, predictionsRemoved: 0 };
      await activeRun(name)?.cancel();
      const predictionsRemoved = judgesRepo().removeJudge(judge.id);
      if (options.secrets?.available()) options.secrets.delete(projectScope(), name);
      return { removed: true, predictionsRemoved };
    },
    'judges.preview': async (input) => preview(input),
    'judges.start': async ({ name, dataset, onlySampled }) => startRun(name, { dataset, onlySampled }).status(),
    'judges.pause': async ({ runId }) => (await runs.pause(runId)).status(),
    'judges.resume': async ({ runId }) => runs.resume(runId).status(),
    'judges.cancel': async ({ runId }) => (await runs.cancel(runId)).status(),
    'judges.status': async ({ runId }) => runs.require(runId).status(),
    'judges.runs': async () => runs.list().map((r) => r.status()),
    'judges.plan': async ({ name, dataset, onlySampled }) => {
      const selection = { dataset, onlySampled };
      const { setup, config } = batchSetup(name, selection);
      return planOf(
        name,
        selection,
        config,
        setup.configHash,
        await walkWork(setup, { dryRun: true, countPrompts: config.kind === 'endpoint' }),
      );
    },
    'judges.batchExport': async ({ name, dataset, onlySampled, path }) => {
      const selection = { dataset, onlySampled };
      if (path !== undefined) requireDiskPaths('Writing a batch file to a path');
      const { setup, config } = batchSetup(name, selection);
      requireBatchable(name, config);
      const fileName = batchFileName(name);
      if (path !== undefined) {
        const counts = await exportBatchToFile(setup, path);
        return { ...planOf(name, selection, config, setup.configHash, counts), path, fileName, content: null };
      }
      const { counts, text } = await exportBatchToText(setup);
      return { ...planOf(name, selection, config, setup.configHash, counts), path: null, fileName, content: text };
    },
    'judges.batchImport': async ({ name, source, dataset, onlySampled }): Promise<JudgeBatchImport> => {
      if (source.type === 'path') requireDiskPaths('Reading a batch file from a path');
      requireDataset(dataset);
      // The request file's selection: an answer for a sentence outside it is refused, and what is
      // still to do is counted in it, as its plan counts it.
      const { setup, config } = batchSetup(name, { dataset, onlySampled });
      requireBatchable(name, config);
      rememberKeyOf(name, config);
      const withKey = { ...setup, secrets: keys.known };
      const counts =
        source.type === 'path'
          ? await importBatchFromFile(withKey, source.path)
          : await importBatchFromText(withKey, source.text);
      return { judge: name, configHash: setup.configHash, ...counts };
    },
  };

  return {
    handlers,
    startRun,
    ensureBaseline() {
      if (!judgesRepo().judgeByName(BASELINE_JUDGE_NAME))
        addJudge(BASELINE_JUDGE_NAME, BaselineConfigSchema.parse({ kind: 'baseline' }), undefined);
    },
    stopAll: () => runs.stopAll(),
    endpointOf(name) {
      const judge = requireJudge(name);
      const config = requireConfig(judge);
      if (config.kind !== 'endpoint')
        throw new ApiError({
          code: 'conflict',
          message: `"${name}" is the offline baseline rule: it answers sentence verdicts only. Choose an endpoint judge.`,
        });
      return { judgeId: judge.id, config, apiKey: keyFor(name, config) };
    },
  };
}
