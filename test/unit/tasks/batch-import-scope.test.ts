/**
 * A batch import's "still to do" counts the selection asked for (a dataset, "only sampled
 * summaries"), the same items as the plan of that selection (an answer outside it is refused:
 * test/unit/tasks/batch-answer-files.test.ts). Judges (judges.batchImport) and accuracy tasks (accuracy.batchImport).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { EndpointConfigSchema } from '../../../shared/judges/config';
import { judgeProject } from '../../mock-openai/project';
import { accuracyResponder } from '../../mock-openai/accuracy';
import { sampledTaskProject, type TaskProject } from '../../helpers/accuracy-core';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-batch-scope-');

/** A batch output line answering one request line with `content`, as vllm run-batch writes it. */
function answerLine(requestLine: string, content: string): string {
  const { custom_id } = JSON.parse(requestLine) as { custom_id: string };
  const body = {
    id: 'x',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 3 },
  };
  return JSON.stringify({ id: `b-${custom_id}`, custom_id, response: { status_code: 200, body }, error: null });
}
const requestLines = (text: string | null) => (text ?? '').split('\n').filter((l) => l !== '');

describe('judges.batchImport under a scope', () => {
  it('"still to do" equals what the plan of the same selection still sends, not the whole project', async () => {
    const p = await judgeProject(dir, 'judges', 6); // 18 sentences, each unique
    const datasetId = p.repo.datasetId('news')!;
    const keys = p.repo
      .unsampledSummaries(datasetId)
      .slice(0, 2)
      .map((s) => s.key);
    p.repo.insertSampleBatch({ datasetId, seed: 0, requested: 2, annotatorId: null, algorithm: 'test', keys });
    await p.service.handlers['judges.add']({
      name: 'b',
      config: EndpointConfigSchema.parse({ kind: 'endpoint', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }),
    });
    const exported = await p.service.handlers['judges.batchExport']({ name: 'b', onlySampled: true });
    expect(exported).toMatchObject({ selection: 6, requests: 6 });
    const lines = requestLines(exported.content);
    expect(lines).toHaveLength(6);

    const sampled = await p.service.handlers['judges.batchImport']({
      name: 'b',
      onlySampled: true,
      source: {
        type: 'upload',
        name: 'out.jsonl',
        text: lines
          .slice(0, 2)
          .map((l) => answerLine(l, '{"faithful": 1}'))
          .join('\n'),
      },
    });
    const plan = await p.service.handlers['judges.plan']({ name: 'b', onlySampled: true });
    expect(sampled).toMatchObject({ answered: 2, unknown: 0 });
    expect(plan).toMatchObject({ selection: 6, done: 2, requests: 4 });
    expect(sampled.stillToDo).toBe(plan.requests + plan.shared);
    expect(sampled.stillToDo).toBe(4);

    // The same file for the dataset: its 16 sentences still to do, as its plan says.
    const all = await p.service.handlers['judges.batchImport']({
      name: 'b',
      dataset: 'news',
      onlySampled: false,
      source: { type: 'upload', name: 'out.jsonl', text: answerLine(lines[2]!, '{"faithful": 0}') },
    });
    const datasetPlan = await p.service.handlers['judges.plan']({ name: 'b', dataset: 'news', onlySampled: false });
    expect(all.stillToDo).toBe(datasetPlan.requests + datasetPlan.shared);
    expect(all.stillToDo).toBe(15);
    await expect(
      p.service.handlers['judges.batchImport']({
        name: 'b',
        dataset: 'nope',
        onlySampled: false,
        source: { type: 'upload', name: 'o.jsonl', text: '' },
      }),
    ).rejects.toThrow(/No dataset "nope"/);
    p.close();
  });
});

describe('accuracy.batchImport under a scope', () => {
  let project: TaskProject | null = null;
  afterAll(async () => {
    await project?.close();
  });

  it('"still to do" of a claim decomposition counts the sampled summaries only, as accuracy.plan does', async () => {
    project = await sampledTaskProject(dir, accuracyResponder, 5, 2);
    const run = { task: 'claim_decomposition' as const, judge: 'checker', dataset: 'acc', onlySampled: true };

    const exported = await project.call('accuracy.batchExport', { run });
    expect(exported).toMatchObject({ selection: 4, requests: 4 });
    const lines = requestLines(exported.content);
    const report = await project.call('accuracy.batchImport', {
      run,
      source: {
        type: 'upload',
        name: 'out.jsonl',
        text: answerLine(lines[0]!, '{"claims": ["The park opens in June."]}'),
      },
    });
    const plan = await project.call('accuracy.plan', run);
    expect(report).toMatchObject({ answered: 1, unknown: 0 });
    expect(plan).toMatchObject({ selection: 4, done: 1, requests: 3 });
    expect(report.stillToDo).toBe(plan.requests);
    expect(report.stillToDo).toBe(3);
  });
});
