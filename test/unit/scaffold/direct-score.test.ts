/**
 * The direct score (App. G.7) beside the scaffold metrics in the model comparison, and each judge's
 * error against people per alignment type, computed by shared/scaffold/compute.ts:
 * - the paper's Fig. 2 on a synthetic set: every system's holistic score near 9.9 (saturated)
 *   while FPS keeps spread (not saturated);
 * - judge-vs-people error per kind against a hand count, with its summary-bootstrap interval;
 * - the block still passes its schema (two-way checked) and the Markdown shows both.
 */
import { describe, expect, it } from 'vitest';
import { computeScaffold } from '../../../shared/scaffold/compute';
import type { ScaffoldInput } from '../../../shared/scaffold/input';
import { ScaffoldBlockSchema } from '../../../shared/scaffold/report';
import { renderScaffold } from '../../../shared/scaffold/markdown';
import { scoreSummary } from '../../../shared/scaffold/metrics';

const options = { bootstrap: 400, seed: 11, dataset: 'synthetic', reference: 'both' as const, includeRevealed: false };
const doc = (d: number) => `d${String(d).padStart(2, '0')}`;

/**
 * Three systems × 30 documents; a scaffold of 2 main and 2 supporting facts each. System s keeps
 * main facts and supporting facts so that FPS differs clearly by system (0.25, 0.5, 1 with small
 * per-document variation); its direct score is 9.9 ± 0.05 whatever it kept.
 */
function synthetic(): ScaffoldInput {
  const input: ScaffoldInput = { summaries: [], scaffolds: [], alignments: [], directScores: [] };
  let itemId = 0;
  const systems = ['a', 'b', 'c'];
  for (let d = 0; d < 30; d += 1) {
    const items = [
      { id: ++itemId, kind: 'fact' as const, tier: 'main' as const },
      { id: ++itemId, kind: 'fact' as const, tier: 'main' as const },
      { id: ++itemId, kind: 'fact' as const, tier: 'supporting' as const },
      { id: ++itemId, kind: 'fact' as const, tier: 'supporting' as const },
    ];
    input.scaffolds.push({ id: d + 1, docId: doc(d), version: 1, items });
    systems.forEach((system, s) => {
      const key = input.summaries.length + 1;
      input.summaries.push({ key, summaryId: `${system}-${d}`, docId: doc(d), system, sentenceCount: 2 });
      // a: 1 main + 1 supporting (0.25); b: 2 main + 1 supporting (0.5), c: 2 main + none (1); every 5th document one main less.
      const mainKept = (s === 0 ? 1 : 2) - (d % 5 === 0 && s > 0 ? 1 : 0);
      const suppKept = s === 2 ? 0 : 1;
      const values = [mainKept >= 1, mainKept >= 2, suppKept >= 1, false].map(
        (k) => (k ? 'preserved' : 'missing') as 'preserved' | 'missing',
      );
      items.forEach((it, i) =>
        input.alignments.push({
          summaryKey: key,
          scaffoldId: d + 1,
          itemId: it.id,
          source: 'judge:j',
          annotatorKind: null,
          blind: true,
          value: values[i]!,
          sentences: [],
        }),
      );
      input.directScores!.push({
        summaryKey: key,
        judge: 'j',
        score: 9.9 + ((d + s) % 3 === 0 ? 0.05 : (d + s) % 3 === 1 ? -0.05 : 0),
      });
    });
  }
  return input;
}

describe('direct score in the scaffold comparison', () => {
  it('saturates near 9.9 while FPS keeps spread', () => {
    const block = ScaffoldBlockSchema.parse(computeScaffold(synthetic(), { ...options, compareSource: 'j' }));
    const j = block.sources.j!;
    expect(block.comparison!.source).toBe('j');
    const ds = block.comparison!.metrics.direct_score!;
    const fps = block.comparison!.metrics.fps!;
    expect(Object.values(ds.by_system).every((m) => Math.abs(m!.value! - 9.9) < 0.05)).toBe(true);
    expect(ds.saturated).toBe(true);
    expect(ds.spread! <= ds.noise!).toBe(true);
    expect(ds.ranks).toEqual({ a: 1, b: 1, c: 1 }); // all share rank 1
    expect(fps.saturated).toBe(false);
    expect(fps.ranks).toEqual({ c: 1, b: 2, a: 3 });
    // The per-summary direct score is the stored one, next to the metrics.
    expect(j.per_summary.find((r) => r.summary_id === 'a-1')!.direct_score).toBeCloseTo(9.85, 12);
    expect(block.direct_score_judge).toBe('j');
    const markdown = renderScaffold(block).join('\n');
    expect(markdown).toMatch(
      /\| Direct score \(1–10\) \| 1\. a \(shared\) · 1\. b \(shared\) · 1\. c \(shared\) \| .* \| saturated/,
    );
    expect(markdown).toMatch(/\| FPS \| 1\. c · 2\. b · 3\. a \| .* \| spread/);
  });

  it("people get the first judge's direct scores (direct_score_judge); a summary without one is null", () => {
    const input = synthetic();
    // One person aligns a-0 exactly as the judge did.
    for (const a of input.alignments.filter((x) => x.summaryKey === 1))
      input.alignments.push({ ...a, source: 'human:ann', annotatorKind: 'person' });
    input.directScores = input.directScores!.filter((d) => d.summaryKey !== 2);
    const block = computeScaffold(input, options)!;
    expect(block.sources.human!.per_summary.map((r) => r.summary_id)).toEqual(['a-0']);
    expect(block.sources.human!.per_summary[0]!.direct_score).toBeCloseTo(9.95, 12);
    expect(block.sources.j!.per_summary.find((r) => r.summary_id === 'b-0')!.direct_score).toBeNull();
  });
});

describe('judge vs people per alignment type', () => {
  it('the share of items where the judge differs from each person, against a hand count', () => {
    const items = [
      { id: 1, kind: 'fact' as const, tier: 'main' as const },
      { id: 2, kind: 'fact' as const, tier: 'supporting' as const },
      { id: 3, kind: 'question' as const, tier: 'main' as const },
      { id: 4, kind: 'attribute' as const, tier: null },
      { id: 5, kind: 'attribute' as const, tier: null },
    ];
    const input: ScaffoldInput = {
      summaries: [
        { key: 1, summaryId: 's1', docId: 'd1', system: 'x', sentenceCount: 1 },
        { key: 2, summaryId: 's2', docId: 'd1', system: 'y', sentenceCount: 1 },
      ],
      scaffolds: [{ id: 1, docId: 'd1', version: 1, items }],
      alignments: [],
    };
    const add = (summaryKey: number, source: string, values: Record<number, string>) => {
      for (const [itemId, value] of Object.entries(values))
        input.alignments.push({
          summaryKey,
          scaffoldId: 1,
          itemId: Number(itemId),
          source,
          annotatorKind: source.startsWith('human:') ? 'person' : null,
          blind: true,
          value: value as 'preserved',
          sentences: [],
        });
    };
    add(1, 'judge:j', { 1: 'preserved', 2: 'partial', 3: 'answered', 4: 'preserved', 5: 'missing' });
    add(1, 'human:ann', { 1: 'preserved', 2: 'missing', 3: 'answered', 4: 'preserved', 5: 'misrepresented' });
    add(1, 'human:bob', { 1: 'missing', 2: 'partial', 3: 'unanswered' }); // bob left the attributes out
    add(2, 'judge:j', { 1: 'missing', 2: 'missing', 3: 'unanswered', 4: 'missing' }); // judge left attribute 5 out
    add(2, 'human:ann', { 1: 'missing', 2: 'preserved', 3: 'unanswered', 4: 'missing', 5: 'missing' });
    const block = ScaffoldBlockSchema.parse(computeScaffold(input, options));
    const vs = block.sources.j!.vs_people!;
    // Facts: s1 ann (same, differ), s1 bob (differ, same), s2 ann (same, differ) → 3 of 6.
    expect(vs.facts).toMatchObject({ n_items: 6, n_differ: 3 });
    expect(vs.facts!.error.value).toBe(3 / 6);
    // Questions: s1 ann same, s1 bob differ, s2 ann same → 1 of 3.
    expect(vs.questions).toMatchObject({ n_items: 3, n_differ: 1 });
    // Attributes: s1 ann (same, differ), s2 ann (same; item 5 not aligned by the judge) → 1 of 3.
    expect(vs.attributes).toMatchObject({ n_items: 3, n_differ: 1 });
    // Two summaries: too few to resample, the value without an interval.
    expect(vs.facts!.error).toMatchObject({ ci: null, n: 2, too_few: true });
    expect(vs.questions!.error).toMatchObject({ ci: null, too_few: true });
    expect(block.sources.human!.vs_people).toBeUndefined();
    expect(renderScaffold(block).join('\n')).toContain(
      '| j | 0.500 (n = 2, too few for an interval) (3/6) | 0.333 (n = 2, too few for an interval) (1/3) | 0.333',
    );
    // The metric scoring itself is unchanged by the comparison (sanity: the judge's s1 FPS).
    expect(block.sources.j!.per_summary[0]!.fps).toBe(
      scoreSummary(
        [
          { kind: 'fact', tier: 'main', value: 'preserved', sentences: [] },
          { kind: 'fact', tier: 'supporting', value: 'partial', sentences: [] },
        ],
        1,
        false,
      ).fps,
    );
  });
});
