/**
 * What the Judges view's tests add to a renderer core (renderer-core.ts): judges added through
 * judges.add, a model that decomposes sentences for a run on the mock endpoint, and batch answer files written for the request file the real core exported, so an
 * import stores (or refuses) what a batch engine would have answered.
 */
import Database from 'better-sqlite3';
import { ApiError, type ApiHandlers, type ApiOutput } from '../../shared/api';
import { EndpointConfigSchema, type JudgeConfig } from '../../shared/judges/config';
import { dispatch } from '../../electron/core/index';
import { runPlanJob } from '../../electron/core/planning/job';
import type { MockReply, MockRequest } from '../mock-openai/server';
import type { RendererCore } from './renderer-core';

/** An endpoint judge's configuration as the contract completes it (defaults for what is not given). */
export function endpointConfig(partial: Record<string, unknown> = {}): JudgeConfig {
  return EndpointConfigSchema.parse({
    kind: 'endpoint',
    baseUrl: 'http://127.0.0.1:8000/v1',
    model: 'Qwen/Qwen3-8B',
    ...partial,
  });
}

/** The custom ids of a batch request file, in its order. */
export function requestIds(content: string): string[] {
  return content
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { custom_id: string }).custom_id);
}

/** A batch output line answering `customId` with `content` (HTTP 200, one choice). */
export function answerLine(customId: string, content: string): string {
  return JSON.stringify({
    id: `batch-${customId}`,
    custom_id: customId,
    response: {
      status_code: 200,
      body: {
        id: 'c',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      },
    },
    error: null,
  });
}

/** A batch output line whose request failed with an HTTP status and the server's error message. */
export function failureLine(customId: string, status: number, message: string): string {
  return JSON.stringify({
    id: `batch-${customId}`,
    custom_id: customId,
    response: { status_code: status, body: { error: { message } } },
    error: null,
  });
}

/**
 * A judge's predictions stored as a batch engine's answers imported (the first sentences, in the
 * request file's order): `ok` verdicts, `parseErrors` answers that are no verdict, `failed` HTTP 500s.
 */
export async function storeJudgeAnswers(
  core: RendererCore,
  judge: string,
  counts: { ok: number; parseErrors: number; failed: number },
): Promise<void> {
  const exported = await core.lead('judges.batchExport', { name: judge, onlySampled: false });
  const ids = requestIds(exported.content!);
  const wanted = counts.ok + counts.parseErrors + counts.failed;
  if (ids.length < wanted) throw new Error(`storeJudgeAnswers: ${wanted} answers for ${ids.length} sentences`);
  const lines = ids
    .slice(0, wanted)
    .map((id, i) =>
      i < counts.ok
        ? answerLine(id, '{"faithful": 1}')
        : i < counts.ok + counts.parseErrors
          ? answerLine(id, 'no verdict here')
          : failureLine(id, 500, 'engine crashed'),
    );
  await core.lead('judges.batchImport', {
    name: judge,
    onlySampled: false,
    source: { type: 'upload', name: 'answers.jsonl', text: lines.join('\n') },
  });
}

/**
 * A mock model's answer to a claim_decomposition request: the sentence between the prompt's
 * `<<<` and `>>>`, split at " and " into claims that keep the first part's subject
 * ("The council met on Tuesday and voted." → "The council met on Tuesday.", "The council voted.").
 */
export function decompositionAnswer(request: MockRequest): MockReply {
  const sentence = /<<<\n([\s\S]*?)\n>>>/.exec(request.prompt)?.[1]?.trim() ?? '';
  const [first, ...rest] = sentence.replace(/\.$/, '').split(' and ');
  const subject = first!.split(' ').slice(0, 2).join(' ');
  const claims = [`${first}.`, ...rest.map((part) => `${subject} ${part}.`)];
  return { type: 'answer', content: JSON.stringify({ claims }) };
}

/**
 * planning.plan computed in this thread. The core plans in a worker thread (the analysis
 * worker's script), which the unit tier does not start; this runs the same job function
 * (electron/core/planning/job.ts, made a plain function for this) on the project file, behind the
 * contract's check and dispatch as every host calls it. The call answers what the worker would.
 */
export function planInThisThread(core: RendererCore): void {
  const inThread: ApiHandlers['planning.plan'] = async ({ dataset, target, ...settings }) =>
    runPlanJob(Database, { projectPath: core.core.current()!.path, dataset: dataset ?? null, settings, target });
  core.override('planning.plan', async (input) => {
    const envelope = await dispatch({ ...core.core.handlers, 'planning.plan': inThread }, 'planning.plan', input);
    if (!envelope.ok) throw new ApiError(envelope.error);
    return envelope.value as ApiOutput<'planning.plan'>;
  });
}
