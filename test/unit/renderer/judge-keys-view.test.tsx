// @vitest-environment happy-dom
/**
 * In the Judges view: the plan line shown before Start names the base
 * URL(s) the run will call (whoever configured the judge chose them), and a keychain key typed for
 * another address says it must be typed again.
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { EndpointConfigSchema } from '../../../shared/judges/config';
import type { HostSeed, RendererCore } from '../../helpers/renderer-core';
import { judgesViewLifecycle, oneSentenceRendererCore, showJudgesView } from '../../helpers/judges-view';

const endpoint = (partial: Record<string, unknown>) =>
  EndpointConfigSchema.parse({ kind: 'endpoint', model: 'Qwen/Qwen3-8B', ...partial });

/** The one-sentence project with judges added through the core before the view opens. */
async function open(addJudges: (core: RendererCore) => Promise<unknown>, info: HostSeed = {}) {
  const core = await oneSentenceRendererCore(info);
  await addJudges(core);
  await showJudgesView(core);
}

judgesViewLifecycle();

describe('the Judges view before a run', () => {
  it('names the base URL and the replicas a small start will call', async () => {
    await open((core) =>
      core.lead('judges.add', {
        name: 'remote',
        config: endpoint({
          baseUrl: 'https://judge.example.net/v1',
          baseUrls: ['https://judge.example.net/v1', 'http://127.0.0.1:8001/v1'],
        }),
      }),
    );
    await waitFor(() => expect(screen.getByTestId('run-plan-url').textContent).toBe('https://judge.example.net/v1'));
    expect(screen.getByTestId('run-plan').textContent).toContain('and 1 more replica (http://127.0.0.1:8001/v1)');
  });

  it('says a stored key typed for another address must be typed again', async () => {
    // On the desktop (a keychain): a key stored for the old address, then the judge moved.
    await open(
      async (core) => {
        await core.lead('judges.add', {
          name: 'moved',
          config: endpoint({ baseUrl: 'https://old.example.org/v1' }),
          apiKey: 'sk-moved-1234',
        });
        await core.lead('judges.update', {
          name: 'moved',
          config: endpoint({ baseUrl: 'https://judge.example.net/v1' }),
        });
      },
      { host: 'electron' },
    );
    await waitFor(() =>
      expect(screen.getByTestId('judges-view').textContent).toContain('stored for another address: type it again'),
    );
  });
});
