/**
 * The mock server as its own process (for benchmarks and manual trials):
 *   npx tsx test/mock-openai/cli.ts [--latency MS] [--port N] [--slots N [--retry-after-ms MS]]
 * Prints its base URL on the first stdout line; GET /__stats answers {"requests", "answered", "rejected"}.
 */
import { startMockOpenAI } from './server';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

const mock = await startMockOpenAI({
  latencyMs: Number(arg('--latency') ?? 0),
  ...(arg('--port') ? { port: Number(arg('--port')) } : {}),
  ...(arg('--slots') ? { slots: Number(arg('--slots')) } : {}),
  ...(arg('--retry-after-ms') ? { slotRetryAfterMs: Number(arg('--retry-after-ms')) } : {}),
});
process.stdout.write(`${mock.url}\n`);
const stop = () => void mock.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
