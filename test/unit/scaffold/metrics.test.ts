/**
 * Semantic Scaffold metrics and model comparison, pure (shared/scaffold, shared/stats/system-comparison):
 * the paper's symbols on hand-made items (partial is not kept; a 0 denominator is null), the
 * paired-bootstrap difference CI against a reference computed here with plain loops from the same
 * stream, shared ranks, the saturation flag on synthetic systems that score alike and that differ,
 * and several people resolved item by item by the human-label rule (hand figures).
 */
import { describe, expect, it } from 'vitest';
import { computeScaffold, SCAFFOLD_STREAM } from '../../../shared/scaffold/compute';
import type { ScaffoldInput } from '../../../shared/scaffold/input';
import { scoreSummary, type ScoredItem } from '../../../shared/scaffold/metrics';
import { ScaffoldBlockSchema } from '../../../shared/scaffold/report';
import { createStream } from '../../../shared/stats/prng';

const fact = (tier: 'main' | 'supporting', value: ScoredItem['value'], sentences: number[] = []): ScoredItem => ({
  kind: 'fact',
  tier,
  value,
  sentences,
});
const question = (tier: 'main' | 'supporting', value: ScoredItem['value']): ScoredItem => ({
  kind: 'question',
  tier,
  value,
  sentences: [],
});
const attribute = (value: ScoredItem['value']): ScoredItem => ({ kind: 'attribute', tier: null, value, sentences: [] });

describe('per-summary metrics', () => {
  it('follows the paper: partial is not kept, F counts what the summary states, Fact Focus counts linked sentences', () => {
    const items = [
      fact('main', 'partial'),
      fact('main', 'preserved', [0]),
      fact('main', 'preserved', [1]),
      fact('main', 'missing'),
      fact('supporting', 'preserved', [1]),
      fact('supporting', 'misrepresented'),
      fact('supporting', null), // left out: not kept
      question('main', 'answered'),
      question('supporting', 'unanswered'),
      attribute('preserved'),
      attribute('misrepresented'),
      attribute('missing'),
    ];
    const s = scoreSummary(items, 3, true);
    expect(s.main_fc).toBe(2 / 4);
    expect(s.supp_fc).toBe(1 / 3);
    expect(s.fps).toBeCloseTo((2 / 4) * (1 - 1 / 3), 12);
    expect(s.fc).toBe(3 / 7);
    // Stated: partial, 2 preserved, preserved, misrepresented → 4 of 5 undistorted.
    expect(s.f).toBe(4 / 5);
    expect(s.fact_focus).toBe(2 / 3);
    expect(s.qc).toBe(1 / 2);
    expect(s.qps).toBe(1);
    expect(s.eps).toBe(1 / 3);
  });

  it('a 0 denominator is undefined (null), and an unaligned kind is null, never 0', () => {
    const noSupporting = scoreSummary([fact('main', 'preserved'), question('main', 'answered')], 1, false);
    expect(noSupporting.fps).toBeNull(); // S_c = 0
    expect(noSupporting.supp_fc).toBeNull();
    expect(noSupporting.qps).toBeNull(); // R_c = 0
    expect(noSupporting.main_fc).toBe(1);
    expect(noSupporting.eps).toBeNull(); // no attributes
    expect(noSupporting.fact_focus).toBeNull(); // the source links no sentence anywhere
    const onlyMissing = scoreSummary(
      [fact('main', 'missing'), fact('supporting', 'missing'), attribute(null)],
      2,
      true,
    );
    expect(onlyMissing.f).toBeNull(); // the summary states no fact
    expect(onlyMissing.fps).toBe(0);
    expect(onlyMissing.eps).toBeNull(); // attributes not aligned by this source
  });
});

/** Systems × documents, each summary's EPS = kept(system, doc) / 10 attributes, aligned by one judge. */
function synthetic(
  systems: string[],
  docs: number,
  kept: (system: number, doc: number) => number | null,
): ScaffoldInput {
  const input: ScaffoldInput = { summaries: [], scaffolds: [], alignments: [] };
  let itemId = 0;
  for (let d = 0; d < docs; d += 1) {
    const items = [
      { id: ++itemId, kind: 'fact' as const, tier: 'main' as const },
      ...Array.from({ length: 10 }, () => ({ id: ++itemId, kind: 'attribute' as const, tier: null })),
    ];
    input.scaffolds.push({ id: d + 1, docId: `d${String(d).padStart(2, '0')}`, version: 1, items });
    systems.forEach((system, s) => {
      const k = kept(s, d);
      if (k === null) return;
      const key = input.summaries.length + 1;
      input.summaries.push({
        key,
        summaryId: `${system}-${d}`,
        docId: `d${String(d).padStart(2, '0')}`,
        system,
        sentenceCount: 1,
      });
      items.slice(1).forEach((it, i) =>
        input.alignments.push({
          summaryKey: key,
          scaffoldId: d + 1,
          itemId: it.id,
          source: 'judge:j',
          annotatorKind: null,
          blind: true,
          value: i < k ? 'preserved' : 'missing',
          sentences: [],
        }),
      );
    });
  }
  return input;
}

const options = { bootstrap: 400, seed: 7, dataset: 'synthetic', reference: 'both' as const, includeRevealed: false };
/** The synthetic projects have a judge only: compared by it on request. */
const byJudge = { ...options, compareSource: 'j' };
const base = (d: number) => ((d * 3) % 7) + 1;

describe('model comparison', () => {
  it('the paired-difference CI equals a reference computed with plain loops over the same draws', () => {
    // System b has no summary on documents 0 and 5: the pair is resampled over the other 18.
    const input = synthetic(['a', 'b'], 20, (s, d) =>
      s === 1 && (d === 0 || d === 5) ? null : Math.min(10, base(d) + (s === 0 ? d % 3 : 0)),
    );
    const block = ScaffoldBlockSchema.parse(computeScaffold(input, byJudge));
    const pair = block.comparison!.metrics.eps!.differences[0]!;
    expect(pair).toMatchObject({ a: 'a', b: 'b', n: 18, too_few: false });

    const eps = (s: number, d: number) => Math.min(10, base(d) + (s === 0 ? d % 3 : 0)) / 10;
    const docs = Array.from({ length: 20 }, (_, d) => d).filter((d) => d !== 0 && d !== 5);
    const rng = createStream(options.seed, SCAFFOLD_STREAM, 'synthetic', 'j', ['pair', 'eps', 'a', 'b'].join('\u0000'));
    const replicates: number[] = [];
    for (let r = 0; r < options.bootstrap; r += 1) {
      const counts = new Int32Array(docs.length);
      rng.fillResampleCounts(counts);
      const drawn: number[] = [];
      counts.forEach((c, i) => {
        for (let k = 0; k < c; k += 1) drawn.push(docs[i]!);
      });
      let sumA = 0;
      let sumB = 0;
      for (const d of drawn) {
        sumA += eps(0, d);
        sumB += eps(1, d);
      }
      replicates.push(sumA / drawn.length - sumB / drawn.length);
    }
    replicates.sort((x, y) => x - y);
    const quantile = (q: number) => {
      const h = (replicates.length - 1) * q;
      const lo = Math.floor(h);
      return replicates[lo]! + (h - lo) * (replicates[lo + 1]! - replicates[lo]!);
    };
    const expectedValue = docs.reduce((acc, d) => acc + eps(0, d) - eps(1, d), 0) / docs.length;
    expect(pair.value).toBeCloseTo(expectedValue, 12);
    expect(pair.ci![0]).toBeCloseTo(quantile(0.025), 12);
    expect(pair.ci![1]).toBeCloseTo(quantile(0.975), 12);
  });

  it('systems that score alike: EPS saturated and every system shares rank 1', () => {
    // Each system keeps one more attribute on alternating documents: the same mean, up to one summary.
    const block = computeScaffold(
      synthetic(['a', 'b', 'c'], 30, (s, d) => base(d) + ((d + s) % 2)),
      byJudge,
    )!;
    expect(block.comparison!.source).toBe('j');
    const eps = block.comparison!.metrics.eps!;
    expect(eps.saturated).toBe(true);
    expect(eps.spread!).toBeLessThanOrEqual(eps.noise!);
    expect(eps.ranks).toEqual({ a: 1, b: 1, c: 1 });
  });

  it('systems that differ: EPS not saturated, ranked 1, 2, 3 with every pair separable', () => {
    const block = computeScaffold(
      synthetic(['a', 'b', 'c'], 30, (s, d) => base(d) + s),
      byJudge,
    )!;
    const eps = block.comparison!.metrics.eps!;
    expect(eps.saturated).toBe(false);
    expect(eps.spread!).toBeGreaterThan(eps.noise!);
    expect(eps.ranks).toEqual({ c: 1, b: 2, a: 3 });
    expect(eps.differences.every((p) => p.ci !== null && (p.ci[0] > 0 || p.ci[1] < 0))).toBe(true);
    // A metric nobody aligned (questions) has no means and no saturation verdict.
    expect(block.comparison!.metrics.qps).toMatchObject({ saturated: null, spread: null, ranks: null });
  });

  it('with only a judge aligning, the default compares nothing and names the judge to pick', () => {
    const block = computeScaffold(
      synthetic(['a', 'b'], 10, (s, d) => base(d) + s),
      options,
    )!;
    expect(block.comparison).toBeNull();
    expect(block.comparison_sources).toEqual([{ source: 'j', n_documents: 10 }]);
    expect(block.comparison_note).toContain('j (10 paired documents)');
  });
});

describe('people as the "human" source', () => {
  /** One document, one summary; attributes a1..a4; each person keeps the first k. */
  function people(
    aligners: Array<{ name: string; kind: 'person' | 'imported'; kept: number; blind: boolean }>,
  ): ScaffoldInput {
    const items = [
      { id: 1, kind: 'fact' as const, tier: 'main' as const },
      ...[2, 3, 4, 5].map((id) => ({ id, kind: 'attribute' as const, tier: null })),
    ];
    return {
      summaries: [{ key: 1, summaryId: 's1', docId: 'd1', system: 'x', sentenceCount: 1 }],
      scaffolds: [{ id: 1, docId: 'd1', version: 1, items }],
      alignments: aligners.flatMap((p) =>
        items.slice(1).map((it, i) => ({
          summaryKey: 1,
          scaffoldId: 1,
          itemId: it.id,
          source: `human:${p.name}`,
          annotatorKind: p.kind,
          blind: p.blind,
          value: i < p.kept ? ('preserved' as const) : ('missing' as const),
          sentences: [],
        })),
      ),
    };
  }

  it('resolves each item by the several-annotator rule (no averaging), keeps to the reference set and leaves revealed alignments out unless asked', () => {
    // Attribute values (P preserved, M missing) per person: ana P M M M, bo P P P M, bench P P P P, late (after a reveal) M M M M.
    const input = people([
      { name: 'ana', kind: 'person', kept: 1, blind: true },
      { name: 'bo', kind: 'person', kept: 3, blind: true },
      { name: 'bench', kind: 'imported', kept: 4, blind: true },
      { name: 'late', kind: 'person', kept: 0, blind: false },
    ]);
    // ana, bo, bench — unanimous: a1 P, a2..a4 disagree (left out): EPS 1/1; majority: P P P M: EPS 3/4.
    const both = computeScaffold(input, { ...options, reference: 'both' })!;
    expect(both.sources.human!.per_summary[0]).toMatchObject({ n_aligners: 3, n_unresolved: 3, eps: 1 });
    expect(both.notes.join(' ')).toContain('1 (summary, person) alignment(s)');
    expect(both.notes.join(' ')).toContain('3 (summary, item) value(s) of people unresolved by the "unanimous" rule');
    const bothMajority = computeScaffold(input, { ...options, reference: 'both', humanLabel: 'majority' })!;
    expect(bothMajority.sources.human!.per_summary[0]).toMatchObject({ n_aligners: 3, n_unresolved: 0, eps: 3 / 4 });
    // ana and bo: a1 P, a2 and a3 one each (unresolved under either rule: a tie under majority), a4 M: EPS 1/2.
    for (const humanLabel of ['unanimous', 'majority'] as const) {
      const own = computeScaffold(input, { ...options, reference: 'people', humanLabel })!;
      expect(own.sources.human!.per_summary[0]).toMatchObject({ n_aligners: 2, n_unresolved: 2, eps: 1 / 2 });
    }
    const imported = computeScaffold(input, { ...options, reference: 'imported' })!;
    expect(imported.sources.human!.per_summary[0]).toMatchObject({ n_aligners: 1, n_unresolved: 0, eps: 1 });
    // One item aligned after the reveal leaves that person's whole alignment out, not just the item.
    const partlyLate = people([{ name: 'ana', kind: 'person', kept: 2, blind: true }]);
    partlyLate.alignments[0] = { ...partlyLate.alignments[0]!, blind: false };
    expect(computeScaffold(partlyLate, options)!.sources.human).toBeUndefined();
    // ana, bo, late — majority: a1 P (2–1), a2 M, a3 M, a4 M: EPS 1/4 (the mean of their own EPS would be (1/4 + 3/4 + 0) / 3 = 1/3).
    const revealed = computeScaffold(input, {
      ...options,
      reference: 'people',
      includeRevealed: true,
      humanLabel: 'majority',
    })!;
    expect(revealed.sources.human!.per_summary[0]).toMatchObject({ n_aligners: 3, n_unresolved: 0, eps: 1 / 4 });
  });
});
