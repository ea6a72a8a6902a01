// @vitest-environment happy-dom
/**
 * Issue 10 items 7 and 11 in the Judges view: the plan line shown before Start names the base
 * URL(s) the run will call (whoever configured the judge chose them), and a keychain key typed for
 * another address says it must be typed again.
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { endpointConfig, installFakeJudges, judgeInfo } from '../../renderer/testing/fakeJudges';
import type { JudgeInfo } from '../../shared/api';
import { judgesViewLifecycle, oneSentenceCore, showJudgesView } from '../helpers/judges-view';

async function open(judges: JudgeInfo[]) {
  const core = oneSentenceCore();
  installFakeJudges(core, { judges });
  core.override('judges.plan', (input) => ({ judge: input.name, configHash: 'a'.repeat(64), dataset: null, onlySampled: false, remote: true, selection: 4, done: 0, cached: 0, requests: 4, promptTokens: 0, baseUrls: [], shared: 0, missing: 0 }));
  await showJudgesView(core);
}

judgesViewLifecycle();

describe('the Judges view before a run', () => {
  it('names the base URL and the replicas a small start will call', async () => {
    await open([judgeInfo('remote', endpointConfig({ baseUrl: 'https://judge.example.net/v1', baseUrls: ['https://judge.example.net/v1', 'http://127.0.0.1:8001/v1'] }))]);
    await waitFor(() => expect(screen.getByTestId('run-plan-url').textContent).toBe('https://judge.example.net/v1'));
    expect(screen.getByTestId('run-plan').textContent).toContain('and 1 more replica (http://127.0.0.1:8001/v1)');
  });

  it('says a stored key typed for another address must be typed again', async () => {
    await open([judgeInfo('moved', endpointConfig({ baseUrl: 'https://judge.example.net/v1' }), { keySource: 'stored_other_origin' })]);
    await waitFor(() => expect(screen.getByTestId('judges-view').textContent).toContain('stored for another address: type it again'));
  });
});
