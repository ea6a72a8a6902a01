/**
 * One mock OpenAI-compatible server for a whole test file: started when the file loads, closed
 * after its last test, and before each test back to a clean state (no requests recorded, no
 * failure queued, the default answers, no latency), so no test sees what another one set.
 * Hooks a file adds of its own run after this reset (e.g. a responder for every test).
 */
import { afterAll, beforeEach } from 'vitest';
import { startMockOpenAI, type MockOptions, type MockServer } from '../mock-openai/server';

export async function mockOpenAIForFile(options: MockOptions = {}): Promise<MockServer> {
  const mock = await startMockOpenAI(options);
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.reset();
    mock.setResponder(undefined);
    mock.setLatency(0);
  });
  return mock;
}
