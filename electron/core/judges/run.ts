/**
 * One run of one judge version over a selection of sentences: the task engine
 * (electron/core/tasks/engine.ts) running the sentence-verdict kind over the judge's source, with
 * its progress told as a JudgeRunStatus (the judges.* contract).
 */
import type { JudgeRunStatus } from '../../../shared/api';
import type { JudgeConfig } from '../../../shared/judges/config';
import type { JudgeRepository } from '../../../db/judgeRepository';
import { TaskRun, type RunTuning } from '../tasks/engine';
import { progressStatusFields } from '../tasks/status-fields';
import type { TaskBackend } from '../tasks/kind';
import {
  sentenceVerdictKind,
  verdictSource,
  type Verdict,
  type VerdictInput,
  type VerdictItem,
} from './sentence-verdict';

export { DEFAULT_TUNING, backoffMs, type RunTuning } from '../tasks/engine';

export interface RunSpec {
  judge: string;
  versionId: number;
  configHash: string;
  config: JudgeConfig;
  dataset: string | null;
  onlySampled: boolean;
}

export type VerdictBackend = TaskBackend<VerdictInput, Verdict>;

export class JudgeRun extends TaskRun<JudgeConfig, VerdictItem, VerdictInput, Verdict> {
  constructor(
    readonly spec: RunSpec,
    judges: JudgeRepository,
    backend: VerdictBackend,
    tuning: RunTuning,
    /** Known secrets (the API key), redacted from every message and stored answer. */
    secrets: ReadonlyArray<string | null> = [],
  ) {
    super({
      kind: sentenceVerdictKind,
      config: spec.config,
      configHash: spec.configHash,
      source: verdictSource(judges, {
        versionId: spec.versionId,
        dataset: spec.dataset,
        onlySampled: spec.onlySampled,
      }),
      backend,
      tuning,
      secrets,
    });
  }

  status(now = Date.now()): JudgeRunStatus {
    const p = this.progress(now);
    return {
      ...progressStatusFields(p),
      judge: this.spec.judge,
      dataset: this.spec.dataset,
      onlySampled: this.spec.onlySampled,
      ...(p.replicas ? { replicas: p.replicas } : {}),
      notes: p.notes,
    };
  }
}
