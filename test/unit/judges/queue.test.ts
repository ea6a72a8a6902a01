/** The bounded-concurrency queue of the judge runner (electron/core/tasks/queue.ts). */
import { describe, expect, it } from 'vitest';
import { BoundedQueue, type WorkerOutcome } from '../../../electron/core/tasks/queue';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('BoundedQueue', () => {
  it('runs at most `concurrency` workers and handles every item once', async () => {
    let running = 0;
    let peak = 0;
    const handled: number[] = [];
    const queue = new BoundedQueue<number>(
      3,
      async (item) => {
        running += 1;
        peak = Math.max(peak, running);
        await tick(2);
        running -= 1;
        handled.push(item);
        return 'done';
      },
      (err) => {
        throw err;
      },
    );
    queue.add(Array.from({ length: 20 }, (_, i) => i));
    expect(queue.inFlight).toBe(0); // created paused
    queue.start();
    await queue.whenIdle();
    expect(peak).toBe(3);
    expect(handled.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('pause aborts running workers, their items go back first, resume finishes the rest', async () => {
    const seen: number[] = [];
    const queue = new BoundedQueue<number>(
      2,
      (item, signal) =>
        new Promise<WorkerOutcome>((resolve) => {
          const timer = setTimeout(() => {
            seen.push(item);
            resolve('done');
          }, 20);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve('requeue');
          });
        }),
      () => {},
    );
    queue.add([1, 2, 3, 4, 5]);
    queue.start();
    await tick(30);
    await queue.pause();
    expect(queue.inFlight).toBe(0);
    const afterPause = [...seen];
    expect(afterPause.length).toBeGreaterThan(0);
    expect(afterPause.length).toBeLessThan(5);
    await tick(40);
    expect(seen).toEqual(afterPause);
    queue.start();
    await queue.whenIdle();
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('a worker that throws pauses the queue, keeps the item and reports the error', async () => {
    const errors: unknown[] = [];
    const queue = new BoundedQueue<number>(
      1,
      async (item) => {
        if (item === 2) throw new Error('disk full');
        return 'done';
      },
      (err) => errors.push(err),
    );
    queue.add([1, 2, 3]);
    queue.start();
    await tick(10);
    expect(queue.isPaused).toBe(true);
    expect(queue.waiting).toBe(2); // 2 (put back) and 3
    expect(errors).toHaveLength(1);
  });
});
