/**
 * The `openai` package as the core meets it in Node. A renderer test runs the core in the same
 * process as happy-dom, whose `window` and `navigator` make the package refuse to build a client
 * ("running in a browser-like environment"); the hosts run the core in Node, where it never
 * refuses. The requests then go through happy-dom's `fetch`, so a file that runs a task also turns
 * off its same-origin policy (a host's core has none), in its first lines:
 *   // @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
 *   vi.mock('openai', async (original) => (await import('…/openai-in-node')).openaiInNode(await original()));
 * It lives alone and imports nothing of the core: the mock's factory loads it while `openai` is
 * being mocked, and a module that loads the core (which loads `openai`) would wait on itself.
 */
export function openaiInNode(original: typeof import('openai')): typeof import('openai') {
  const OpenAI = original.default;
  class NodeOpenAI extends OpenAI {
    constructor(options: ConstructorParameters<typeof OpenAI>[0] = {}) {
      super({ ...options, dangerouslyAllowBrowser: true });
    }
  }
  return { ...original, default: NodeOpenAI, OpenAI: NodeOpenAI };
}
