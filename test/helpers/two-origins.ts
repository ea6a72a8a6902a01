/** Two mock OpenAI-compatible servers on two origins (two ports), for the tests of keys bound to the origin they were typed for. */
import { afterAll, beforeAll } from 'vitest';
import { startMockOpenAI, type MockServer } from '../mock-openai/server';

export interface TwoOrigins {
  first: MockServer;
  second: MockServer;
}

/** Starts both servers before the file's tests and closes them after; read `first` / `second` inside tests. */
export function twoMockOrigins(): TwoOrigins {
  const origins = {} as TwoOrigins;
  beforeAll(async () => {
    origins.first = await startMockOpenAI();
    origins.second = await startMockOpenAI();
  });
  afterAll(async () => {
    await origins.first.close();
    await origins.second.close();
  });
  return origins;
}

/** Clears both servers, runs `run` (to its end), and returns the Authorization headers the two servers saw. */
export async function authorizationsSeen(origins: TwoOrigins, run: () => Promise<void>): Promise<string[]> {
  origins.first.reset();
  origins.second.reset();
  await run();
  return [...origins.first.requests, ...origins.second.requests].map((r) => String(r.headers.authorization));
}
