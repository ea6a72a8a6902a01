/**
 * The Annotate session's two lanes, shared by every unit it labels (sentences, claims, key facts,
 * scaffold items): one command lane, so every key of the view runs in the order pressed whatever
 * the unit, and one write lane, so label writes reach the core in that order. A reset (another
 * annotator or project) starts new lanes: commands queued in the old session become no-ops, and
 * its writes still complete (they are someone's labels) without touching the state.
 */
import { errorMessage } from '../api/errors';
import { createCommandLane, createWriteLane } from './serial';

export interface SessionLanes {
  enqueue(command: () => Promise<void> | void): Promise<void>;
  token(): number;
  isCurrent(token: number): boolean;
  /** Resolves once every write queued so far has returned (stored or failed). */
  settled(): Promise<void>;
  /** Queues a label write; it counts as in flight (closing the page asks) until it returns. */
  write<T>(write: () => Promise<T>, stored: (result: T) => void, failed: (err: unknown) => void): void;
}

interface LaneReports {
  error(message: string): void;
  busy(size: number): void;
}

let reports: LaneReports = { error: () => undefined, busy: () => undefined };
const lane = createCommandLane({
  error: (err) => reports.error(errorMessage(err)),
  busy: (size) => reports.busy(size),
});
let writes = createWriteLane();
/** Label writes of every session not yet returned (what closing the page would lose). */
let inFlight = 0;

/** Where the lanes say a command failed and how many are queued (the annotation store). */
export function reportLanesTo(to: LaneReports): void {
  reports = to;
}

export const sessionLanes: SessionLanes = {
  enqueue: (command) => lane.enqueue(command),
  token: () => lane.token(),
  isCurrent: (token) => lane.isCurrent(token),
  settled: () => writes.settled(),
  write(write, stored, failed) {
    inFlight += 1;
    void writes.run(
      write,
      (result) => {
        inFlight -= 1;
        stored(result);
      },
      (err) => {
        inFlight -= 1;
        failed(err);
      },
    );
  },
};

/** Another annotator or project: new lanes. */
export function resetLanes(): void {
  lane.reset();
  writes = createWriteLane();
}

/** Label writes still on their way to the core (the page asks before closing while any are). */
export function writesInFlight(): number {
  return inFlight;
}

/**
 * Runs `step` (deciding what a picker or an editor opens on) after the commands queued before it,
 * on what they painted: "U E" opens the picker on the unit U has just labeled, while U's write may
 * still be on its way (the change the picker makes waits for it).
 */
export function afterQueued(step: () => void): Promise<void> {
  return lane.enqueue(step);
}
