/** An annotator's progress over their queue: sentences and summaries done of their sample. */
import type { Progress } from '../../../shared/api';
import type { QueueRow } from '../../../db/repository';

export function progressOf(rows: readonly QueueRow[]): Progress {
  let unitsDone = 0;
  let unitsTotal = 0;
  let summariesDone = 0;
  for (const r of rows) {
    unitsDone += r.labeled;
    unitsTotal += r.units;
    if (r.labeled === r.units) summariesDone += 1;
  }
  return { unitsDone, unitsTotal, summariesDone, summariesTotal: rows.length };
}
