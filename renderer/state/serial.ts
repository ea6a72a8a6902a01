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
