/**
 * The correlation bootstrap on several threads. The analysis worker (a thread itself) posts each
 * bootstrap that is worth splitting to the helper threads as soon as its data is known; helpers run
 * the same entry script in helper mode. Every thread, the worker included once it reaches the
 * collection (after the audit's other blocks), claims a few replicates at a time from a shared
 * counter and writes their statistics into shared memory at the replicates' own rows, until none
 * is left: the worker's other blocks overlap the helpers' replicates, and a busy or slow thread
 * simply claims fewer. Replicate r draws from its own stream (seed, purpose, r), so the result is
 * the same for any thread count and any claiming order.
 *
 * The analysis is synchronous, so the worker waits with Atomics.wait on a shared counter that each
 * thread bumps after writing its replicates (or failing). Helpers start when the analysis expects
 * a bootstrap large enough to be worth a thread (before the project loads, so their start-up
 * overlaps the load), else on the first such bootstrap, and live until close().
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import {
  correlationWidth,
  engineOf,
  replicateInThisThread,
  writeCorrelationReplicates,
  type CorrelationData,
  type CorrelationEngine,
  type CorrelationReplicator,
} from '../../shared/analysis/correlations';
import type { StreamKey } from '../../shared/stats/prng';

/** The script a helper runs (the analysis worker's own entry) and its workerData besides the helper's. */
export interface HelperEntry {
  script: string;
  data: Record<string, string>;
}

/** What a helper finds in workerData.replicateHelper. */
export interface HelperWiring {
  port: MessagePort;
}

/** One bootstrap shared by every thread: its data, and the memory the threads claim and write through. */
interface SharedBootstrap {
  data: CorrelationData;
  stream: StreamKey;
  bootstrap: number;
  /** bootstrap × width statistics, replicate-major. */
  values: SharedArrayBuffer;
  /** Int32 slots: NEXT, WRITTEN, FAILED, SIGNAL. */
  counters: SharedArrayBuffer;
}

/** The next replicate to claim. */
const NEXT = 0;
/** Replicates written so far. */
const WRITTEN = 1;
/** 1 once a helper failed (its message is on its port). */
const FAILED = 2;
/** Bumped after every write or failure: what the waiting worker waits on. */
const SIGNAL = 3;

/** Replicates a thread claims at a time: small enough to balance the threads, large enough that claiming costs nothing. */
const CLAIM = 8;

type HelperRequest = { type: 'correlations'; shared: SharedBootstrap };
type HelperAnswer = { type: 'failed'; message: string };

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

/** Claims and writes replicates of `shared` with this thread's engine until none is left to claim. */
function claimReplicates(shared: SharedBootstrap, engine: CorrelationEngine): void {
  const counters = new Int32Array(shared.counters);
  const values = new Float64Array(shared.values);
  for (;;) {
    const from = Atomics.add(counters, NEXT, CLAIM);
    if (from >= shared.bootstrap) return;
    const to = Math.min(shared.bootstrap, from + CLAIM);
    writeCorrelationReplicates({ data: shared.data, stream: shared.stream, from, to }, engine, values);
    Atomics.add(counters, WRITTEN, to - from);
    Atomics.add(counters, SIGNAL, 1);
    Atomics.notify(counters, SIGNAL);
  }
}

export function startReplicatePool(entry: HelperEntry, threads: number): ReplicatePool {
  const helpers: Array<{ worker: Worker; port: MessagePort }> = [];

  function ensureHelpers(): void {
    while (helpers.length < threads - 1) {
      const { port1, port2 } = new MessageChannel();
      const wiring: HelperWiring = { port: port2 };
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

  const failureMessage = (): string => {
    for (const { port } of helpers) {
      const received = receiveMessageOnPort(port);
      if (received) return (received.message as HelperAnswer).message;
    }
    return 'no message';
  };

  const replicator: CorrelationReplicator = (data, bootstrap, stream) => {
    if (!splits(data.labels.length, bootstrap)) return replicateInThisThread(data, bootstrap, stream);
    ensureHelpers();
    const shared: SharedBootstrap = {
      data,
      stream,
      bootstrap,
      values: new SharedArrayBuffer(bootstrap * correlationWidth(data) * Float64Array.BYTES_PER_ELEMENT),
      counters: new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT),
    };
    const request: HelperRequest = { type: 'correlations', shared };
    for (const { port } of helpers) port.postMessage(request);
    return (engine) => {
      claimReplicates(shared, engine);
      const counters = new Int32Array(shared.counters);
      for (;;) {
        const seen = Atomics.load(counters, SIGNAL);
        if (Atomics.load(counters, FAILED) === 1) throw new Error(`A bootstrap thread failed: ${failureMessage()}`);
        if (Atomics.load(counters, WRITTEN) >= bootstrap) break;
        Atomics.wait(counters, SIGNAL, seen);
      }
      return new Float64Array(shared.values);
    };
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

/**
 * Helper mode: for each bootstrap posted, build its engine (unless every replicate is claimed
 * already) and claim replicates; a failure is posted, flagged and signalled.
 */
export function serveReplicates({ port }: HelperWiring): void {
  port.on('message', ({ shared }: HelperRequest) => {
    const counters = new Int32Array(shared.counters);
    try {
      if (Atomics.load(counters, NEXT) < shared.bootstrap) claimReplicates(shared, engineOf(shared.data));
    } catch (err) {
      const answer: HelperAnswer = { type: 'failed', message: err instanceof Error ? err.message : String(err) };
      port.postMessage(answer);
      Atomics.store(counters, FAILED, 1);
      Atomics.add(counters, SIGNAL, 1);
      Atomics.notify(counters, SIGNAL);
    }
  });
}
