/**
 * Runs commands strictly one after another. Keys pressed while a label is being written wait
 * their turn instead of racing it, so "F F F" labels three consecutive units in order; when a
 * command fails, the ones queued behind it are dropped (they assumed it had succeeded).
 */
export interface SerialQueue {
  /** Queue a command; resolves when it (or its dropping) is finished. Never rejects. */
  run(command: () => Promise<void> | void): Promise<void>;
  /** Commands queued or running. */
  readonly size: number;
}

export function createSerialQueue(onError: (err: unknown) => void, onSizeChange: (size: number) => void): SerialQueue {
  let tail: Promise<void> = Promise.resolve();
  let generation = 0;
  let size = 0;
  return {
    run(command) {
      const queuedIn = generation;
      size += 1;
      onSizeChange(size);
      tail = tail.then(async () => {
        try {
          if (queuedIn === generation) await command();
        } catch (err) {
          generation += 1;
          onError(err);
        } finally {
          size -= 1;
          onSizeChange(size);
        }
      });
      return tail;
    },
    get size() {
      return size;
    },
  };
}

/**
 * A view's command lane: one serial queue per session (annotator and project). A reset starts a
 * new session: commands queued in the old one become no-ops, and async work that awaited
 * something checks `isCurrent(token)` before touching the state.
 */
export interface CommandLane {
  enqueue(command: () => Promise<void> | void): Promise<void>;
  reset(): void;
  token(): number;
  isCurrent(token: number): boolean;
}

export function createCommandLane(report: { error(err: unknown): void; busy(size: number): void }): CommandLane {
  let session = 0;
  const newQueue = (): SerialQueue => {
    const owner = session;
    return createSerialQueue(
      (err) => {
        if (owner === session) report.error(err);
      },
      (size) => {
        if (owner === session) report.busy(size);
      },
    );
  };
  let commands = newQueue();
  return {
    enqueue(command) {
      const owner = session;
      return commands.run(async () => {
        if (owner !== session) return;
        await command();
      });
    },
    reset() {
      session += 1;
      commands = newQueue();
    },
    token: () => session,
    isCurrent: (token) => token === session,
  };
}

/**
 * The ordered lane of label writes: each runs after the previous one returned, none is dropped
 * when another fails (each key is a write for the sentence it was pressed on), and each reports
 * its own outcome.
 */
export interface WriteLane {
  run<T>(write: () => Promise<T>, stored: (result: T) => void, failed: (err: unknown) => void): Promise<void>;
  /** Resolves once every write queued so far has returned. */
  settled(): Promise<void>;
  /** Writes queued or in flight. */
  readonly size: number;
}

export function createWriteLane(): WriteLane {
  let tail: Promise<void> = Promise.resolve();
  let size = 0;
  return {
    run(write, stored, failed) {
      size += 1;
      tail = tail.then(async () => {
        try {
          const result = await write();
          size -= 1;
          stored(result);
        } catch (err) {
          size -= 1;
          failed(err);
        }
      });
      return tail;
    },
    settled: () => tail,
    get size() {
      return size;
    },
  };
}
