/**
 * The correlation bootstrap on several threads. The analysis worker (a thread itself) splits each
 * bootstrap's replicates into contiguous ranges, computes the first and gives the others to helper
 * threads, which run the same entry script in helper mode. Replicate r draws from its own stream
 * (seed, purpose, r), so the merged result is the same for any thread count.
 *
 * The analysis is synchronous, so the worker waits with Atomics.wait on a shared counter that each
 * helper bumps after posting its answer, and reads the answers with receiveMessageOnPort.
 * Helpers start when the analysis expects a bootstrap large enough to be worth a thread (before
 * the project loads, so their start-up overlaps the load), else on the first such bootstrap, and
 * live until close().
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import {
  correlationReplicates,
  correlationWidth,
  replicateInThisThread,
  type CorrelationReplicateJob,
  type CorrelationReplicator,
} from '../../shared/analysis/correlations';
import { splitRange } from '../../shared/stats/split-range';

/** The script a helper runs (the analysis worker's own entry) and its workerData besides the helper's. */
export interface HelperEntry {
  script: string;
  data: Record<string, string>;
}

/** What a helper finds in workerData.replicateHelper. */
export interface HelperWiring {
  port: MessagePort;
  signal: SharedArrayBuffer;
}

type HelperRequest = { type: 'correlations'; job: CorrelationReplicateJob };
type HelperAnswer = { type: 'replicates'; values: Float64Array } | { type: 'failed'; message: string };

/** Below this many summary-replicates a bootstrap stays in one thread (a helper's start costs more). */
export const MIN_SPLIT_WORK = 2_000_000;

export interface ReplicatePool {
  replicator: CorrelationReplicator;
  /** Starts the helpers now when a bootstrap of this many summaries and replicates will split. */
  expect(summaries: number, bootstrap: number): void;
  /** Helpers started so far (0 until a bootstrap was large enough). */
  started(): number;
  close(): Promise<void>;
}

export function startReplicatePool(entry: HelperEntry, threads: number): ReplicatePool {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const helpers: Array<{ worker: Worker; port: MessagePort }> = [];

  function ensureHelpers(): void {
    while (helpers.length < threads - 1) {
      const { port1, port2 } = new MessageChannel();
      const wiring: HelperWiring = { port: port2, signal: signal.buffer as SharedArrayBuffer };
      const worker = new Worker(new URL(entry.script), {
        workerData: { ...entry.data, replicateHelper: wiring },
        transferList: [port2],
      });
      // The analysis holds its thread while it waits; an idle helper must not keep the worker alive.
      worker.unref();
      helpers.push({ worker, port: port1 });
    }
  }

  const splits = (summaries: number, bootstrap: number) => threads > 1 && summaries * bootstrap >= MIN_SPLIT_WORK;

  const replicator: CorrelationReplicator = (data, bootstrap, stream, engine) => {
    if (!splits(data.labels.length, bootstrap)) return replicateInThisThread(data, bootstrap, stream, engine);
    ensureHelpers();
    const ranges = splitRange(bootstrap, threads);
    const width = correlationWidth(data);
    const merged = new Float64Array(bootstrap * width);
    const [own, ...others] = ranges;
    others.forEach(([from, to], h) => {
      const request: HelperRequest = { type: 'correlations', job: { data, stream, from, to } };
      helpers[h]!.port.postMessage(request);
    });
    merged.set(correlationReplicates({ data, stream, from: own![0], to: own![1] }, engine), 0);
    const waiting = new Set(others.map((_, h) => h));
    while (waiting.size > 0) {
      const seen = Atomics.load(signal, 0);
      for (const h of [...waiting]) {
        const received = receiveMessageOnPort(helpers[h]!.port);
        if (!received) continue;
        const answer = received.message as HelperAnswer;
        if (answer.type === 'failed') throw new Error(`A bootstrap thread failed: ${answer.message}`);
        const [from, to] = others[h]!;
        if (answer.values.length !== (to - from) * width)
          throw new Error(`A bootstrap thread answered ${answer.values.length} values for ${(to - from) * width}`);
        merged.set(answer.values, from * width);
        waiting.delete(h);
      }
      if (waiting.size > 0) Atomics.wait(signal, 0, seen);
    }
    return merged;
  };

  return {
    replicator,
    expect(summaries, bootstrap) {
      if (splits(summaries, bootstrap)) ensureHelpers();
    },
    started: () => helpers.length,
    async close() {
      await Promise.all(helpers.map(({ worker }) => worker.terminate()));
      helpers.length = 0;
    },
  };
}

/** Helper mode: answer each request on the port, then bump the shared counter so the waiting worker wakes. */
export function serveReplicates({ port, signal }: HelperWiring): void {
  const counter = new Int32Array(signal);
  port.on('message', (request: HelperRequest) => {
    let answer: HelperAnswer;
    try {
      if (request.type !== 'correlations') throw new Error(`unknown request ${String(request.type)}`);
      answer = { type: 'replicates', values: correlationReplicates(request.job) };
    } catch (err) {
      answer = { type: 'failed', message: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(answer, answer.type === 'replicates' ? [answer.values.buffer as ArrayBuffer] : []);
    Atomics.add(counter, 0, 1);
    Atomics.notify(counter, 0);
  });
}
