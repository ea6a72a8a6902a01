/**
 * Reads a Chrome trace (devtools.timeline) and says where the renderer's main thread spent each
 * label keypress: from the keydown's dispatch to the end of the frame that painted it, self time
 * by event name (Layout, UpdateLayoutTree, FunctionCall…), summed over the keypresses.
 * For BENCH_TRACE=1 of ./annotate.bench.ts; prints figures, asserts nothing.
 */
interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { type?: string; key?: string } };
}

interface Span {
  name: string;
  start: number;
  end: number;
}

/** The renderer main thread: the thread named CrRendererMain that dispatched the keydowns. */
function mainThreadSpans(events: TraceEvent[]): { spans: Span[]; keydowns: number[] } {
  const keydownOwner = events.find((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown');
  if (!keydownOwner) return { spans: [], keydowns: [] };
  const onMain = events.filter((e) => e.pid === keydownOwner.pid && e.tid === keydownOwner.tid);
  const spans: Span[] = [];
  const open = new Map<string, TraceEvent[]>();
  for (const e of onMain) {
    if (e.ph === 'X' && e.dur !== undefined) spans.push({ name: e.name, start: e.ts, end: e.ts + e.dur });
    else if (e.ph === 'B') open.set(e.name, [...(open.get(e.name) ?? []), e]);
    else if (e.ph === 'E') {
      const begun = open.get(e.name)?.pop();
      if (begun) spans.push({ name: e.name, start: begun.ts, end: e.ts });
    }
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const keydowns = onMain
    .filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown')
    .map((e) => e.ts);
  return { spans, keydowns };
}

/** Self time per name of the spans inside [from, to) (nested spans subtract from their parent). */
function selfTimes(spans: Span[], from: number, to: number, into: Map<string, number>): void {
  const inside = spans.filter((s) => s.start >= from && s.start < to);
  const stack: Span[] = [];
  const self = new Map<Span, number>();
  for (const span of inside) {
    while (stack.length > 0 && stack.at(-1)!.end <= span.start) stack.pop();
    const parent = stack.at(-1);
    const length = span.end - span.start;
    self.set(span, (self.get(span) ?? 0) + length);
    if (parent) self.set(parent, (self.get(parent) ?? 0) - length);
    stack.push(span);
  }
  for (const [span, ms] of self) into.set(span.name, (into.get(span.name) ?? 0) + ms / 1000);
}

/** Keypress windows summed over several traces (one per burst of label keys). */
export interface KeypressTotals {
  windows: number;
  windowMs: number;
  selfMs: Map<string, number>;
}

export function emptyKeypressTotals(): KeypressTotals {
  return { windows: 0, windowMs: 0, selfMs: new Map() };
}

/**
 * Per keypress: the main thread's work from its keydown up to the end of the first Paint after
 * it (the frame that shows the new current sentence).
 */
export function addKeypressTrace(traceJson: string, totals: KeypressTotals): void {
  const parsed = JSON.parse(traceJson) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const { spans, keydowns } = mainThreadSpans(events);
  keydowns.forEach((keydown, i) => {
    const limit = keydowns[i + 1] ?? Infinity;
    const paint = spans.find((s) => s.start > keydown && s.start < limit && s.name === 'Paint');
    if (!paint) return;
    totals.windows += 1;
    totals.windowMs += (paint.end - keydown) / 1000;
    selfTimes(spans, keydown, paint.end, totals.selfMs);
  });
}

export function describeKeypressTotals({ windows, windowMs, selfMs }: KeypressTotals): string {
  const per = (ms: number): string => (ms / Math.max(1, windows)).toFixed(2).padStart(7);
  const lines = [
    `  main thread, keydown → the end of its frame's Paint, ${windows} keypresses, mean ${per(windowMs).trim()} ms; self ms per keypress by event:`,
  ];
  for (const [name, ms] of [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, 14)) lines.push(`    ${per(ms)}  ${name}`);
  return lines.join('\n');
}
