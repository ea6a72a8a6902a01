/**
 * Phase 2 numbers on synthetic projects with hand figures (docs/methods.md, "Claims and key facts",
 * "Semantic Scaffold", "System comparisons", "Too few to estimate"):
 * - zero is not undefined: a summary whose claims convey no key fact has conciseness 0.0, and a
 *   source that links sentences but linked none of a summary's has Fact Focus 0.0;
 * - unclear is per judgement: claims unclear for support leave faithfulness only;
 * - one conciseness per summary with its basis (claims, or FineSurE's sentences), per system too;
 * - Fact Focus counts sentences linked to a preserved or partial fact only;
 * - fewer than 5 resampling units: no interval (agreement, means, differences) and no ranking;
 *   a ranking never orders two systems whose difference interval covers 0;
 * - systems compared by a judge, on the accuracy metrics and on the scaffold's, where the people
 *   aligned too little to compare ("ten judge-aligned summaries over two systems and one by people").
 */
import { describe, expect, it } from 'vitest';
import { computeAccuracy, type AccuracyInput, type AccuracySettings } from '../../../shared/accuracy/metrics';
import { AccuracyBlockSchema } from '../../../shared/accuracy/report';
import { renderAccuracy } from '../../../shared/accuracy/markdown';
import { agreementForDataset } from '../../../shared/agreement/report';
import { computeScaffold } from '../../../shared/scaffold/compute';
import type { ScaffoldInput } from '../../../shared/scaffold/input';
import { ScaffoldBlockSchema } from '../../../shared/scaffold/report';
import { renderScaffold } from '../../../shared/scaffold/markdown';
import { meanEstimate, drawReplicates } from '../../../shared/stats/bootstrap';
import { createStream } from '../../../shared/stats/prng';
import { compareMetric } from '../../../shared/stats/system-comparison';

/**
 * Two documents (d1: key facts f1, f2; d2: key fact g1), two systems, four summaries of two
 * claims (one per sentence) each; the people (one person) and a judge "jx" that aligns key facts
 * to sentences only. People's claim verdicts and key-fact coverage:
 *   s1 A d1: c11 ✓ c12 ✓;  f1 covered by c11, f2 not   → faithfulness 1, completeness 1/2, conciseness 1/2
 *   s2 A d2: c21 ✓ c22 ✗;  g1 not covered              → 1/2, 0, conciseness 0 (no claim conveys a key fact)
 *   s3 B d1: c31 ? c32 ?;  f1, f2 not covered          → undefined (both unclear), 0, conciseness 0/2
 *   s4 B d2: c41 ? c42 ✓;  g1 covered by c41 (unclear)  → 1/1, 1, conciseness 1/2
 * The judge's sentences conveying a covered key fact:
 *   s1: f1 by u11 → 1/2;  s2: g1 not covered → 0;  s3: f1 by u31, u32 → 2/2;  s4: g1 not covered → 0.
 */
function accuracyInput(): AccuracyInput {
  const sentences = (key: number) => [
    { unitId: key * 10 + 1, index: 0, text: `sentence ${key}.1` },
    { unitId: key * 10 + 2, index: 1, text: `sentence ${key}.2` },
  ];
  const summaries = [
    { key: 1, summaryId: 's1', docId: 'd1', documentKey: 1, system: 'A', sentences: sentences(1) },
    { key: 2, summaryId: 's2', docId: 'd2', documentKey: 2, system: 'A', sentences: sentences(2) },
    { key: 3, summaryId: 's3', docId: 'd1', documentKey: 1, system: 'B', sentences: sentences(3) },
    { key: 4, summaryId: 's4', docId: 'd2', documentKey: 2, system: 'B', sentences: sentences(4) },
  ];
  const claims = new Map(
    summaries.map((s) => [
      s.key,
      s.sentences.map((u, i) => ({
        id: s.key * 10 + i + 1,
        sentenceUnitId: u.unitId,
        text: `claim ${s.key}.${i + 1}`,
      })),
    ]),
  );
  const keyFacts = new Map([
    [
      1,
      {
        setId: 1,
        facts: [
          { id: 101, text: 'f1' },
          { id: 102, text: 'f2' },
        ],
      },
    ],
    [2, { setId: 2, facts: [{ id: 201, text: 'g1' }] }],
  ]);
  const person = { annotator: 'ana', annotatorKind: 'person' as const, blind: true };
  const claim = (claimId: number, label: 'supported' | 'unsupported' | 'unclear') => ({ ...person, claimId, label });
  const fact = (summaryKey: number, keyFactId: number, covered: boolean, claimIds: number[] = []) => ({
    ...person,
    summaryKey,
    keyFactId,
    label: covered ? ('covered' as const) : ('not_covered' as const),
    conveyedBy: { claims: claimIds, sentences: [] },
  });
  const judged = (summaryKey: number, keyFactId: number, covered: boolean, sentenceIds: number[] = []) => ({
    judge: 'jx',
    summaryKey,
    keyFactId,
    covered,
    conveyedBy: { claims: [], sentences: sentenceIds },
  });
  return {
    summaries,
    claims,
    keyFacts,
    claimLabels: [
      claim(11, 'supported'),
      claim(12, 'supported'),
      claim(21, 'supported'),
      claim(22, 'unsupported'),
      claim(31, 'unclear'),
      claim(32, 'unclear'),
      claim(41, 'unclear'),
      claim(42, 'supported'),
    ],
    keyFactLabels: [
      fact(1, 101, true, [11]),
      fact(1, 102, false),
      fact(2, 201, false),
      fact(3, 101, false),
      fact(3, 102, false),
      fact(4, 201, true, [41]),
    ],
    sentenceKeyFactLabels: [],
    claimPredictions: [],
    keyFactPredictions: [
      judged(1, 101, true, [11]),
      judged(1, 102, false),
      judged(2, 201, false),
      judged(3, 101, true, [31, 32]),
      judged(3, 102, false),
      judged(4, 201, false),
    ],
    sentenceKeyFactPredictions: [],
    failures: [],
  };
}

const accuracySettings: AccuracySettings = {
  bootstrap: 200,
  seed: 0,
  humanLabel: 'majority',
  reference: 'both',
  includeRevealed: false,
  dataset: 'syn',
};

describe('claims and key facts: zero, unclear and the conciseness basis', () => {
  const block = AccuracyBlockSchema.parse(computeAccuracy(accuracyInput(), accuracySettings));
  const people = new Map(block.sources.human!.per_summary.map((r) => [r.summary_id, r]));
  const judge = new Map(block.sources.jx!.per_summary.map((r) => [r.summary_id, r]));

  it('a summary whose claims convey no key fact has conciseness 0.0, not undefined, and enters the mean', () => {
    expect(people.get('s1')).toMatchObject({ conciseness: 1 / 2, conciseness_basis: 'claims' });
    expect(people.get('s2')).toMatchObject({ conciseness: 0, conciseness_basis: 'claims', completeness: 0 });
    expect(people.get('s3')).toMatchObject({ conciseness: 0, completeness: 0 });
    // (1/2 + 0 + 0 + 1/2) / 4; leaving the zeros out would give 1/2.
    expect(block.sources.human!.conciseness!.value).toBeCloseTo(1 / 4, 12);
    expect(block.sources.human!.by_system.A!.conciseness!.value).toBeCloseTo(1 / 4, 12);
  });

  it('unclear is per judgement: claims unclear for support leave faithfulness only, not conciseness', () => {
    // s3: both claims unclear → no faithfulness; they still count as claims that convey nothing.
    expect(people.get('s3')).toMatchObject({ faithfulness: null, conciseness: 0 });
    // s4: the unclear claim c41 conveys g1 → conciseness 1/2; faithfulness rests on c42 alone.
    expect(people.get('s4')).toMatchObject({ faithfulness: 1, conciseness: 1 / 2 });
  });

  it("one conciseness per summary on the source's basis: FineSurE's sentences for a judge that aligns sentences, per system too", () => {
    expect(block.sources.jx!.conciseness_basis).toBe('sentences');
    expect([...judge.values()].map((r) => [r.summary_id, r.conciseness, r.conciseness_basis])).toEqual([
      ['s1', 1 / 2, 'sentences'],
      ['s2', 0, 'sentences'],
      ['s3', 1, 'sentences'],
      ['s4', 0, 'sentences'],
    ]);
    expect(block.sources.jx!.by_system.A!.conciseness!.value).toBeCloseTo(1 / 4, 12);
    expect(block.sources.jx!.by_system.B!.conciseness!.value).toBeCloseTo(1 / 2, 12);
    const markdown = renderAccuracy(block).join('\n');
    expect(markdown).toContain('| conciseness basis |');
    expect(markdown).not.toContain('sentence conciseness');
    // Two summaries per system: the value, and why there is no interval.
    expect(markdown).toContain(
      '| jx | B | 2 | 0 | — | 0.250 (n = 2, too few for an interval) | 0.500 (n = 2, too few for an interval) | sentences |',
    );
  });

  it('two paired documents: the default names the judge to compare by; by the judge, differences without intervals and no ranking', () => {
    expect(block.comparison).toBeNull();
    expect(block.comparison_sources).toEqual([
      { source: 'human', n_documents: 2 },
      { source: 'jx', n_documents: 2 },
    ]);
    expect(block.comparison_note).toContain('jx (2 paired documents)');
    const byJudge = AccuracyBlockSchema.parse(
      computeAccuracy(accuracyInput(), { ...accuracySettings, compareSource: 'jx' }),
    ).comparison!;
    expect(byJudge.source).toBe('jx');
    expect(byJudge.systems).toEqual(['A', 'B']);
    expect(Object.keys(byJudge.metrics)).toEqual(['faithfulness', 'completeness', 'conciseness']);
    // Conciseness A − B: d1 1/2 − 1, d2 0 − 0 → −1/4 over 2 documents.
    const c = byJudge.metrics.conciseness!;
    expect(c.differences).toEqual([
      { a: 'A', b: 'B', value: -1 / 4, ci: null, n: 2, replicates_dropped: 0, too_few: true },
    ]);
    expect(c.ranks).toBeNull();
    expect(c.ranking_note).toBe('fewer than 5 paired documents: A and B (2)');
  });
});

/** Systems "A" and "B" on `docs` documents of one fact and five attributes; each summary aligned by judge "j" (EPS A 4/5, B 1/5); people align `byPeople` summaries. */
function scaffoldProject(docs: number, byPeople: number): ScaffoldInput {
  const input: ScaffoldInput = { summaries: [], scaffolds: [], alignments: [] };
  let itemId = 0;
  for (let d = 0; d < docs; d += 1) {
    const items = [
      { id: ++itemId, kind: 'fact' as const, tier: 'main' as const },
      ...Array.from({ length: 5 }, () => ({ id: ++itemId, kind: 'attribute' as const, tier: null })),
    ];
    input.scaffolds.push({ id: d + 1, docId: `d${d}`, version: 1, items });
    for (const [system, kept] of [
      ['A', 4],
      ['B', 1],
    ] as const) {
      const key = input.summaries.length + 1;
      input.summaries.push({ key, summaryId: `${system}-${d}`, docId: `d${d}`, system, sentenceCount: 1 });
      const sources = key <= byPeople ? ['judge:j', 'human:ana'] : ['judge:j'];
      for (const source of sources) {
        items.slice(1).forEach((it, i) =>
          input.alignments.push({
            summaryKey: key,
            scaffoldId: d + 1,
            itemId: it.id,
            source,
            annotatorKind: source.startsWith('human:') ? 'person' : null,
            blind: true,
            value: i < kept ? 'preserved' : 'missing',
            sentences: [],
          }),
        );
      }
    }
  }
  return input;
}

const scaffoldOptions = { bootstrap: 200, seed: 0, dataset: 'syn', reference: 'both' as const, includeRevealed: false };

describe('the Semantic Scaffold: Fact Focus and the comparison by a judge', () => {
  /** One summary of three sentences and one of two, facts aligned by judge "links" (with sentence links) and judge "bare" (without). */
  function focusInput(): ScaffoldInput {
    const items = [1, 2, 3].map((id) => ({
      id,
      kind: 'fact' as const,
      tier: (id === 1 ? 'main' : 'supporting') as 'main' | 'supporting',
    }));
    const input: ScaffoldInput = {
      summaries: [
        { key: 1, summaryId: 'x1', docId: 'd', system: 'A', sentenceCount: 3 },
        { key: 2, summaryId: 'x2', docId: 'd', system: 'B', sentenceCount: 2 },
      ],
      scaffolds: [{ id: 1, docId: 'd', version: 1, items }],
      alignments: [],
    };
    const add = (
      summaryKey: number,
      source: string,
      values: Array<[number, 'preserved' | 'partial' | 'missing' | 'misrepresented', number[]]>,
    ) => {
      for (const [itemId, value, sentences] of values)
        input.alignments.push({
          summaryKey,
          scaffoldId: 1,
          itemId,
          source,
          annotatorKind: null,
          blind: true,
          value,
          sentences,
        });
    };
    // x1: sentence 0 → a preserved fact, 1 → a misrepresented one, 2 → a partial one: Fact Focus 2/3.
    add(1, 'judge:links', [
      [1, 'preserved', [0]],
      [2, 'misrepresented', [1]],
      [3, 'partial', [2]],
    ]);
    // x2: no link (nothing conveyed): 0.0 from a source that links sentences.
    add(2, 'judge:links', [
      [1, 'missing', []],
      [2, 'preserved', []],
      [3, 'missing', []],
    ]);
    add(1, 'judge:bare', [
      [1, 'preserved', []],
      [2, 'preserved', []],
      [3, 'missing', []],
    ]);
    return input;
  }

  it('counts sentences linked to a preserved or partial fact; 0.0 when a linking source linked none; undefined for a source that never links', () => {
    const block = ScaffoldBlockSchema.parse(computeScaffold(focusInput(), scaffoldOptions));
    const links = new Map(block.sources.links!.per_summary.map((r) => [r.summary_id, r.fact_focus]));
    expect(links.get('x1')).toBeCloseTo(2 / 3, 12);
    expect(links.get('x2')).toBe(0);
    expect(block.sources.bare!.per_summary[0]!.fact_focus).toBeNull();
  });

  it('ten judge-aligned summaries over two systems and one aligned by people: compared by the judge, not "fewer than two systems"', () => {
    const input = scaffoldProject(5, 1);
    const byDefault = ScaffoldBlockSchema.parse(computeScaffold(input, scaffoldOptions));
    expect(byDefault.sources.human!.per_summary).toHaveLength(1);
    expect(byDefault.comparison).toBeNull();
    expect(byDefault.comparison_sources).toEqual([
      { source: 'human', n_documents: 0 },
      { source: 'j', n_documents: 5 },
    ]);
    expect(byDefault.comparison_note).toBe(
      "People's figures give 0 paired documents across systems (fewer than 5): compare by a judge instead (--compare-source, or the source picker): j (5 paired documents).",
    );
    const block = ScaffoldBlockSchema.parse(computeScaffold(input, { ...scaffoldOptions, compareSource: 'j' }));
    const eps = block.comparison!.metrics.eps!;
    expect(block.comparison).toMatchObject({ source: 'j', systems: ['A', 'B'], n_documents: 5 });
    // EPS 4/5 against 1/5 on every document: the difference 3/5 with a degenerate interval, A ranked first.
    expect(eps.differences).toEqual([expect.objectContaining({ a: 'A', b: 'B', n: 5, too_few: false })]);
    expect(eps.differences[0]!.value).toBeCloseTo(3 / 5, 12);
    expect(eps.differences[0]!.ci![0]).toBeCloseTo(3 / 5, 12);
    expect(eps.ranks).toEqual({ A: 1, B: 2 });
    expect(eps.by_system.A).toMatchObject({ n: 5, too_few: false });
    const markdown = renderScaffold(block).join('\n');
    expect(markdown).toContain('Systems compared by judge j (5 paired documents)');
    expect(markdown).toMatch(/\| EPS \| 1\. A · 2\. B \| A − B: \+0\.600 \[0\.600, 0\.600\] \(n = 5\) \|/);
    // Metrics no system has a value of (no fact aligned here) are in the JSON, not in the table.
    expect(block.comparison!.metrics.fps!.ranks).toBeNull();
    expect(markdown).not.toMatch(/\| FPS \| no ranking/);
  });
});

describe('too few to estimate', () => {
  it('two raters who disagree on one summary: Gwet\'s AC1 −1 without an interval, never "−1.000 ± 0.000"', () => {
    const report = agreementForDataset(
      {
        name: 'one',
        summaries: [
          {
            summaryId: 'a',
            units: [
              { ratings: { ana: 'faithful', bo: 'unfaithful' } },
              { ratings: { ana: 'unfaithful', bo: 'faithful' } },
            ],
          },
        ],
      },
      { bootstrap: 100 },
    );
    expect(report.humans.pairs[0]!.gwet_ac1).toEqual({
      value: -1,
      ci: null,
      n: 2,
      replicates_dropped: 0,
      too_few: true,
    });
    expect(report.humans.gwet_ac1).toMatchObject({ value: -1, ci: null, too_few: true });
  });

  it('a ranking never orders two systems whose difference interval covers 0, even through a third', () => {
    // 12 documents: A 0.5 and C 0.3 everywhere (A − C = 0.2, separable); B alternates 0.0 and 0.8,
    // so A − B and B − C (both 0.1 on average, ± 0.4 per document) cover 0. A is above C, yet B sits
    // between both without being separable from either: all three share rank 1.
    const docs = Array.from({ length: 12 }, (_, d) => `d${String(d).padStart(2, '0')}`);
    const values = { A: () => 0.5, B: (d: number) => (d % 2 === 0 ? 0 : 0.8), C: () => 0.3 };
    const systems = (Object.keys(values) as Array<keyof typeof values>).map((system) => {
      const byDocument = new Map(docs.map((doc, d) => [doc, values[system](d)]));
      return {
        system,
        mean: meanEstimate(
          [...byDocument.values()],
          drawReplicates(docs.length, 200, () => createStream(0, 'mean', system)),
        ),
        byDocument,
      };
    });
    const c = compareMetric(systems, 400, (a, b) => () => createStream(0, 'pair', a, b));
    const interval = (a: string, b: string) => c.differences.find((d) => d.a === a && d.b === b)!.ci!;
    expect(interval('A', 'C')).toEqual([expect.closeTo(0.2, 12), expect.closeTo(0.2, 12)]);
    expect(interval('A', 'B')[0]).toBeLessThan(0);
    expect(interval('B', 'C')[0]).toBeLessThan(0);
    expect(c.ranks).toEqual({ A: 1, B: 1, C: 1 });
    // Without B, A is clearly above C.
    expect(
      compareMetric(
        systems.filter((s) => s.system !== 'B'),
        400,
        (a, b) => () => createStream(0, 'pair', a, b),
      ).ranks,
    ).toEqual({ A: 1, C: 2 });
  });
});
