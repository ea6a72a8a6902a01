/**
 * Progress is visible while local work runs: the offline baseline (no requests) yields to the
 * event loop as it goes, so a status read between turns sees counts between 0 and the total, and
 * a rate and an ETA from the first completions (not "0 %, then 100 %"). Counts, never times.
 */
import { describe, expect, it } from 'vitest';
import { RateMeter } from '../../../electron/core/tasks/rate';
import { judgeProject } from '../../mock-openai/project';
import { tempDir } from '../../helpers/tmp';

const dir = tempDir('loupe-progress-');

describe('progress during a run', () => {
  it('the baseline over 1,200 sentences shows intermediate counts, a rate and an ETA while running', async () => {
    const p = await judgeProject(dir, 'baseline', 400);
    p.service.ensureBaseline();
    const name = (await p.service.handlers['judges.list']({})).find((j) => j.kind === 'baseline')!.name;
    const run = p.service.startRun(name, {});
    const seen: Array<{ done: number; rate: number | null; eta: number | null }> = [];
    let finished = false;
    void run.finished.then(() => (finished = true));
    while (!finished) {
      const s = run.status();
      if (s.state === 'running') seen.push({ done: s.done, rate: s.ratePerSecond, eta: s.etaSeconds });
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const total = run.status().total;
    expect(total).toBe(1200);
    const between = seen.filter((s) => s.done > 0 && s.done < total);
    expect(between.length).toBeGreaterThan(2);
    expect(between.some((s) => s.rate !== null && s.rate > 0 && s.eta !== null)).toBe(true);
    // What the store holds keeps up with the counts (results are written as they come).
    expect(run.status()).toMatchObject({ state: 'done', ok: 1200 });
    p.close();
  });

  it('the rate meter counts from the (re)start while its window fills, then over the window', () => {
    const m = new RateMeter(10_000);
    expect(m.rate(0)).toBeNull();
    m.restart(1_000);
    expect(m.rate(1_100)).toBeNull();
    m.add(1_200, 5);
    // 5 items within the first 250 ms bucket: counted over at least one bucket.
    expect(m.rate(1_200)).toBeCloseTo(20, 5);
    m.add(2_000, 5);
    expect(m.rate(3_000)).toBeCloseTo(5, 5); // 10 items over 2 s since the start
    for (let t = 3_000; t < 30_000; t += 1_000) m.add(t, 2);
    expect(m.rate(30_000)).toBeCloseTo(2, 0); // the last 10 s only
    m.stop();
    expect(m.rate(30_000)).toBeNull();
  });
});
