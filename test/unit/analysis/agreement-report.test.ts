/**
 * The agreement report: point figures against the coefficient functions on the flattened units,
 * every interval re-derived from the same stream on expanded resamples, determinism, the unclear
 * option, missing ratings, judges against the human label, constant data, validation.
 */
import { describe, expect, it } from 'vitest';
import type { HumanLabel } from '../../../shared/domain';
import {
  AGREEMENT_STREAM_PURPOSE,
  AGREEMENT_STREAM_VERSION,
  agreementForDataset,
  agreementReport,
  categoryCounts,
  contingencyTable,
  judgeHumanAgreement,
  multiRaterCoefficients,
  pairCoefficients,
  raterAgreement,
  type AgreementDataset,
  type AgreementSummary,
  type AgreementUnit,
  type Estimate,
  type HumanJudgeUnit,
  type UnclearHandling,
} from '../../../shared/agreement';
import { resolveHumanLabel } from '../../../shared/analysis/human-label';
import { drawResampleCounts, percentileInterval } from '../../../shared/stats/bootstrap';
import { createStream } from '../../../shared/stats/prng';

const RATERS = ['ana', 'ben', 'cy'];
const JUDGES = ['j1', 'j2'];

/**
 * A random dataset: 1–5 units per summary, faithful dominating, each rater missing 25% of units,
 * a few unclear ratings, judges that copy the truth 85% of the time and miss 10%; every 7th
 * summary has no rating at all (judged only).
 */
function randomDataset(name: string, summaries: number, seedPart = 'data'): AgreementDataset {
  const rng = createStream(0, 'agreement-report-test', name, seedPart);
  const out: AgreementSummary[] = [];
  for (let s = 0; s < summaries; s += 1) {
    const units: AgreementUnit[] = [];
    const length = 1 + rng.nextInt(5);
    for (let u = 0; u < length; u += 1) {
      const truth: HumanLabel = rng.nextBernoulli(0.8) ? 'faithful' : 'unfaithful';
      const ratings: Record<string, HumanLabel> = {};
      if (s % 7 !== 6) {
        for (const rater of RATERS) {
          if (rng.nextBernoulli(0.25)) continue;
          const roll = rng.nextFloat();
          ratings[rater] =
            roll < 0.05 ? 'unclear' : roll < 0.85 ? truth : truth === 'faithful' ? 'unfaithful' : 'faithful';
        }
      }
      const judges: Record<string, 0 | 1 | null> = {};
      for (const judge of JUDGES) {
        if (rng.nextBernoulli(0.1)) {
          if (rng.nextBernoulli(0.5)) judges[judge] = null;
          continue;
        }
        const right = rng.nextBernoulli(0.85);
        judges[judge] = (truth === 'faithful') === right ? 1 : 0;
      }
      units.push({ ratings, judges });
    }
    out.push({ summaryId: `${name}-s${s}`, units });
  }
  return { name, summaries: out };
}

const CATEGORY: Record<UnclearHandling, (label: HumanLabel) => number | null> = {
  exclude: (label) => (label === 'faithful' ? 0 : label === 'unfaithful' ? 1 : null),
  category: (label) => (label === 'faithful' ? 0 : label === 'unfaithful' ? 1 : 2),
};

/** Human rating rows (raters in RATERS order) of the units kept under the unclear handling. */
function humanRows(summaries: readonly AgreementSummary[], unclear: UnclearHandling): (number | null)[][] {
  const rows: (number | null)[][] = [];
  for (const summary of summaries) {
    for (const unit of summary.units) {
      const labels = RATERS.map((rater) => unit.ratings[rater]);
      if (unclear === 'exclude' && labels.includes('unclear')) continue;
      if (labels.every((label) => label === undefined)) continue;
      rows.push(labels.map((label) => (label === undefined ? null : CATEGORY[unclear](label))));
    }
  }
  return rows;
}

/** (human, judge) category pairs of the units compared. */
function judgeColumns(
  summaries: readonly AgreementSummary[],
  judge: string,
  unclear: UnclearHandling,
): [(number | null)[], (number | null)[]] {
  const h: (number | null)[] = [];
  const j: (number | null)[] = [];
  for (const summary of summaries) {
    for (const unit of summary.units) {
      const human = unit.human !== undefined ? unit.human : resolveHumanLabel(unit.ratings).label;
      const hard = unit.judges?.[judge] ?? null;
      if (human === null || hard === null) continue;
      const x = CATEGORY[unclear](human);
      if (x === null) continue;
      h.push(x);
      j.push(hard === 1 ? 0 : 1);
    }
  }
  return [h, j];
}

function labeledSummaries(dataset: AgreementDataset): AgreementSummary[] {
  return dataset.summaries.filter((summary) =>
    summary.units.some(
      (unit) =>
        Object.keys(unit.ratings).length > 0 ||
        (unit.human !== undefined ? unit.human : resolveHumanLabel(unit.ratings).label) !== null,
    ),
  );
}

function expectEstimate(actual: Estimate, expected: number | null, digits = 12): void {
  if (expected === null) expect(actual.value).toBeNull();
  else expect(actual.value).toBeCloseTo(expected, digits);
}

function expectInterval(actual: Estimate, replicates: number[]): void {
  const { ci, dropped } = percentileInterval(replicates.map((value) => value));
  expect(actual.replicates_dropped).toBe(dropped);
  if (ci === null) {
    expect(actual.ci).toBeNull();
    return;
  }
  expect(actual.ci).not.toBeNull();
  expect(actual.ci![0]).toBeCloseTo(ci[0], 10);
  expect(actual.ci![1]).toBeCloseTo(ci[1], 10);
}

const orNaN = (value: number | null): number => (value === null ? NaN : value);

describe('point figures', () => {
  for (const unclear of ['exclude', 'category'] as const) {
    it(`equal the coefficient functions on the flattened units (unclear: ${unclear})`, () => {
      const dataset = randomDataset('points', 60);
      const report = agreementForDataset(dataset, { unclear, bootstrap: 0 });
      const k = unclear === 'exclude' ? 2 : 3;
      expect(report.categories).toEqual(
        unclear === 'exclude' ? ['faithful', 'unfaithful'] : ['faithful', 'unfaithful', 'unclear'],
      );
      const rows = humanRows(dataset.summaries, unclear);
      const multi = multiRaterCoefficients(categoryCounts(rows, k));
      const humans = report.humans;
      expect(humans.raters).toEqual(RATERS);
      expect(humans.n_units).toBe(multi.n_units);
      expect(humans.n_units_single).toBe(multi.n_units_single);
      expectEstimate(humans.percent_agreement, multi.percent_agreement);
      expectEstimate(humans.fleiss_kappa, multi.fleiss_kappa);
      expectEstimate(humans.krippendorff_alpha, multi.krippendorff_alpha);
      expectEstimate(humans.gwet_ac1, multi.gwet_ac1);
      report.categories.forEach((category, c) =>
        expectEstimate(humans.specific_agreement[category]!, multi.specific_agreement[c]!),
      );
      expect(humans.percent_agreement.n).toBe(multi.n_units);
      expect(humans.percent_agreement.ci).toBeNull();
      expect(humans.percent_agreement.replicates_dropped).toBe(0);
      // Ratings per unit histogram and pairable category counts.
      const histogram: Record<string, number> = {};
      for (const row of rows) {
        const m = row.filter((value) => value !== null).length;
        histogram[String(m)] = (histogram[String(m)] ?? 0) + 1;
      }
      expect(humans.ratings_per_unit).toEqual(histogram);
      const pairableRows = rows.filter((row) => row.filter((value) => value !== null).length >= 2);
      expect(humans.n_ratings).toBe(pairableRows.flat().filter((value) => value !== null).length);
      expect(Object.values(humans.category_counts).reduce((a, b) => a + b, 0)).toBe(humans.n_ratings);
      // Every pair.
      expect(humans.pairs.map((pair) => `${pair.rater_a}/${pair.rater_b}`)).toEqual(['ana/ben', 'ana/cy', 'ben/cy']);
      for (const pair of humans.pairs) {
        const a = RATERS.indexOf(pair.rater_a);
        const b = RATERS.indexOf(pair.rater_b);
        const table = contingencyTable(
          rows.map((row) => row[a]!),
          rows.map((row) => row[b]!),
          k,
        );
        expect(pair.table).toEqual(table);
        const expected = pairCoefficients(table);
        expect(pair.n_units).toBe(expected.n_units);
        expectEstimate(pair.percent_agreement, expected.percent_agreement);
        expectEstimate(pair.cohen_kappa, expected.cohen_kappa);
        expectEstimate(pair.krippendorff_alpha, expected.krippendorff_alpha);
        expectEstimate(pair.gwet_ac1, expected.gwet_ac1);
        report.categories.forEach((category, c) => {
          expectEstimate(pair.specific_agreement[category]!, expected.specific_agreement[c]!);
          // n = units where either rater chose the category.
          const either = rows.filter(
            (row) => row[a] !== null && row[b] !== null && (row[a] === c || row[b] === c),
          ).length;
          expect(pair.specific_agreement[category]!.n).toBe(either);
        });
      }
      // Every judge against the resolved human label.
      expect(report.judge_names).toEqual(JUDGES);
      for (const judge of JUDGES) {
        const [h, j] = judgeColumns(labeledSummaries(dataset), judge, unclear);
        const expected = pairCoefficients(contingencyTable(h, j, k));
        const figures = report.judges[judge]!;
        expect(figures.rater_a).toBe('human');
        expect(figures.rater_b).toBe(judge);
        expect(figures.n_units).toBe(h.length);
        expectEstimate(figures.cohen_kappa, expected.cohen_kappa);
        expectEstimate(figures.gwet_ac1, expected.gwet_ac1);
        expectEstimate(figures.krippendorff_alpha, expected.krippendorff_alpha);
        expectEstimate(figures.percent_agreement, expected.percent_agreement);
        if (unclear === 'category') expect(figures.n_units_unclear_dropped).toBe(0);
      }
    });
  }

  it('counts summaries, units and unclear drops', () => {
    const dataset = randomDataset('counts', 50);
    const report = agreementForDataset(dataset, { bootstrap: 0 });
    const labeled = labeledSummaries(dataset);
    expect(report.n_summaries).toBe(labeled.length);
    expect(report.n_summaries_without_labels).toBe(dataset.summaries.length - labeled.length);
    expect(report.n_summaries_without_labels).toBeGreaterThan(0);
    expect(report.n_units).toBe(labeled.reduce((total, summary) => total + summary.units.length, 0));
    const rated = labeled.flatMap((summary) => summary.units).filter((unit) => Object.keys(unit.ratings).length > 0);
    expect(report.n_units_rated).toBe(rated.length);
    const withUnclear = rated.filter((unit) => Object.values(unit.ratings).includes('unclear')).length;
    expect(withUnclear).toBeGreaterThan(0);
    expect(report.n_units_unclear_dropped).toBe(withUnclear);
    expect(agreementForDataset(dataset, { bootstrap: 0, unclear: 'category' }).n_units_unclear_dropped).toBe(0);
  });
});

describe('bootstrap', () => {
  const B = 150;

  for (const unclear of ['exclude', 'category'] as const) {
    it(`every interval equals the percentile interval of the figures on expanded resamples from the dataset's stream (unclear: ${unclear})`, () => {
      const dataset = randomDataset('boot', 40);
      const report = agreementForDataset(dataset, { unclear, bootstrap: B, seed: 7 });
      const labeled = labeledSummaries(dataset);
      const k = unclear === 'exclude' ? 2 : 3;
      const rng = createStream(7, AGREEMENT_STREAM_VERSION, 'boot', AGREEMENT_STREAM_PURPOSE);
      const counts = new Int32Array(labeled.length);
      const multi: Record<string, number[]> = { pa: [], fleiss: [], alpha: [], ac1: [], sf: [], su: [] };
      const pair: Record<string, number[]> = { pa: [], kappa: [], alpha: [], ac1: [], sf: [], su: [] };
      const judge: Record<string, Record<string, number[]>> = Object.fromEntries(
        JUDGES.map((name) => [name, { pa: [], kappa: [], alpha: [], ac1: [], sf: [], su: [] }]),
      );
      for (let r = 0; r < B; r += 1) {
        drawResampleCounts(rng, counts);
        const expanded: AgreementSummary[] = [];
        labeled.forEach((summary, s) => {
          for (let c = 0; c < counts[s]!; c += 1) expanded.push(summary);
        });
        const rows = humanRows(expanded, unclear);
        const m = multiRaterCoefficients(categoryCounts(rows, k));
        multi.pa!.push(orNaN(m.percent_agreement));
        multi.fleiss!.push(orNaN(m.fleiss_kappa));
        multi.alpha!.push(orNaN(m.krippendorff_alpha));
        multi.ac1!.push(orNaN(m.gwet_ac1));
        multi.sf!.push(orNaN(m.specific_agreement[0]!));
        multi.su!.push(orNaN(m.specific_agreement[1]!));
        const p = pairCoefficients(
          contingencyTable(
            rows.map((row) => row[0]!),
            rows.map((row) => row[2]!),
            k,
          ),
        );
        pair.pa!.push(orNaN(p.percent_agreement));
        pair.kappa!.push(orNaN(p.cohen_kappa));
        pair.alpha!.push(orNaN(p.krippendorff_alpha));
        pair.ac1!.push(orNaN(p.gwet_ac1));
        pair.sf!.push(orNaN(p.specific_agreement[0]!));
        pair.su!.push(orNaN(p.specific_agreement[1]!));
        for (const name of JUDGES) {
          const [h, j] = judgeColumns(expanded, name, unclear);
          const q = pairCoefficients(contingencyTable(h, j, k));
          const target = judge[name]!;
          target.pa!.push(orNaN(q.percent_agreement));
          target.kappa!.push(orNaN(q.cohen_kappa));
          target.alpha!.push(orNaN(q.krippendorff_alpha));
          target.ac1!.push(orNaN(q.gwet_ac1));
          target.sf!.push(orNaN(q.specific_agreement[0]!));
          target.su!.push(orNaN(q.specific_agreement[1]!));
        }
      }
      const h = report.humans;
      expectInterval(h.percent_agreement, multi.pa!);
      expectInterval(h.fleiss_kappa, multi.fleiss!);
      expectInterval(h.krippendorff_alpha, multi.alpha!);
      expectInterval(h.gwet_ac1, multi.ac1!);
      expectInterval(h.specific_agreement.faithful!, multi.sf!);
      expectInterval(h.specific_agreement.unfaithful!, multi.su!);
      const anaCy = h.pairs.find((x) => x.rater_a === 'ana' && x.rater_b === 'cy')!;
      expectInterval(anaCy.percent_agreement, pair.pa!);
      expectInterval(anaCy.cohen_kappa, pair.kappa!);
      expectInterval(anaCy.krippendorff_alpha, pair.alpha!);
      expectInterval(anaCy.gwet_ac1, pair.ac1!);
      expectInterval(anaCy.specific_agreement.faithful!, pair.sf!);
      expectInterval(anaCy.specific_agreement.unfaithful!, pair.su!);
      for (const name of JUDGES) {
        const figures = report.judges[name]!;
        const target = judge[name]!;
        expectInterval(figures.percent_agreement, target.pa!);
        expectInterval(figures.cohen_kappa, target.kappa!);
        expectInterval(figures.krippendorff_alpha, target.alpha!);
        expectInterval(figures.gwet_ac1, target.ac1!);
        expectInterval(figures.specific_agreement.faithful!, target.sf!);
        expectInterval(figures.specific_agreement.unfaithful!, target.su!);
      }
      expect(h.gwet_ac1.ci![0]).toBeLessThanOrEqual(h.gwet_ac1.ci![1]);
    });
  }

  it('same seed → same numbers; another seed moves the intervals, not the values', () => {
    const dataset = randomDataset('determinism', 40);
    const first = agreementReport(dataset, { bootstrap: 200 });
    const second = agreementReport(dataset, { bootstrap: 200, seed: 0 });
    expect(second).toEqual(first);
    const other = agreementReport(dataset, { bootstrap: 200, seed: 1 });
    expect(other.datasets[0]!.humans.krippendorff_alpha.value).toBe(first.datasets[0]!.humans.krippendorff_alpha.value);
    expect(other.datasets[0]!.humans.krippendorff_alpha.ci).not.toEqual(
      first.datasets[0]!.humans.krippendorff_alpha.ci,
    );
  });

  it('defaults: 2,000 replicates, seed 0, unclear excluded', () => {
    const dataset = randomDataset('defaults', 12);
    const report = agreementReport(dataset);
    expect(report.settings).toEqual({ bootstrap: 2000, seed: 0, unclear: 'exclude' });
    expect(report).toEqual(agreementReport([dataset], { bootstrap: 2000, seed: 0, unclear: 'exclude' }));
    const estimate = report.datasets[0]!.humans.gwet_ac1;
    expect(estimate.ci).not.toBeNull();
  });

  it("a dataset's numbers do not depend on the other datasets of the report", () => {
    const a = randomDataset('alpha-set', 25);
    const b = randomDataset('beta-set', 25);
    const together = agreementReport([a, b], { bootstrap: 100 });
    expect(together.datasets[1]).toEqual(agreementForDataset(b, { bootstrap: 100 }));
    expect(together.datasets[0]).toEqual(agreementForDataset(a, { bootstrap: 100 }));
  });

  it('the standalone functions give the report numbers with the labeled summaries and the dataset name', () => {
    const dataset = randomDataset('standalone', 30);
    const report = agreementForDataset(dataset, { bootstrap: 120, seed: 3 });
    const labeled = labeledSummaries(dataset);
    const humans = raterAgreement(labeled, { name: 'standalone', bootstrap: 120, seed: 3 });
    const { n_units_unclear_dropped: dropped, ...figures } = humans;
    expect(figures).toEqual(report.humans);
    expect(dropped).toBe(report.n_units_unclear_dropped);
    const units: HumanJudgeUnit[][] = labeled.map((summary) =>
      summary.units.map((unit) => ({ human: resolveHumanLabel(unit.ratings).label, judge: unit.judges?.j2 ?? null })),
    );
    expect(judgeHumanAgreement(units, { name: 'standalone', judge: 'j2', bootstrap: 120, seed: 3 })).toEqual(
      report.judges.j2,
    );
  });

  it('bootstrap 0: no interval, nothing dropped', () => {
    const report = agreementForDataset(randomDataset('none', 10), { bootstrap: 0 });
    for (const estimate of [
      report.humans.percent_agreement,
      report.humans.krippendorff_alpha,
      report.judges.j1!.cohen_kappa,
    ]) {
      expect(estimate.ci).toBeNull();
      expect(estimate.replicates_dropped).toBe(0);
    }
  });

  it('the report is plain JSON (no NaN, no undefined)', () => {
    const report = agreementReport([randomDataset('json', 20), constantDataset()], { bootstrap: 50 });
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    expect(JSON.stringify(report)).not.toContain('NaN');
  });
});

/** Everyone (raters and the judge) says faithful on every unit. */
function constantDataset(): AgreementDataset {
  const summaries: AgreementSummary[] = Array.from({ length: 6 }, (_, s) => ({
    summaryId: `c${s}`,
    units: Array.from({ length: 3 }, () => ({ ratings: { ana: 'faithful', ben: 'faithful' }, judges: { j: 1 } })),
  }));
  return { name: 'constant', summaries };
}

describe('degenerate and edge cases', () => {
  it('a constant category everywhere: κ, Fleiss and α are null with every replicate dropped, AC1 = 1 is defined', () => {
    const report = agreementForDataset(constantDataset(), { bootstrap: 100 });
    const h = report.humans;
    for (const undefinedFigure of [
      h.fleiss_kappa,
      h.krippendorff_alpha,
      h.pairs[0]!.cohen_kappa,
      h.pairs[0]!.krippendorff_alpha,
      report.judges.j!.cohen_kappa,
      report.judges.j!.krippendorff_alpha,
    ]) {
      expect(undefinedFigure.value).toBeNull();
      expect(undefinedFigure.ci).toBeNull();
      expect(undefinedFigure.replicates_dropped).toBe(100);
    }
    for (const defined of [h.gwet_ac1, h.percent_agreement, h.pairs[0]!.gwet_ac1, report.judges.j!.gwet_ac1]) {
      expect(defined).toEqual({ value: 1, ci: [1, 1], n: 18, replicates_dropped: 0, too_few: false });
    }
    expect(h.specific_agreement.faithful!.value).toBe(1);
    expect(h.specific_agreement.unfaithful).toEqual({
      value: null,
      ci: null,
      n: 0,
      replicates_dropped: 100,
      too_few: false,
    });
  });

  it('a single rater: no pair, nothing pairable, all multi-rater figures null; judges still compared', () => {
    const dataset: AgreementDataset = {
      name: 'solo',
      summaries: [
        {
          summaryId: 'a',
          units: [
            { ratings: { ana: 'faithful' }, judges: { j: 1 } },
            { ratings: { ana: 'unfaithful' }, judges: { j: 1 } },
          ],
        },
        { summaryId: 'b', units: [{ ratings: { ana: 'unfaithful' }, judges: { j: 0 } }] },
      ],
    };
    const report = agreementForDataset(dataset, { bootstrap: 20 });
    expect(report.humans.pairs).toEqual([]);
    expect(report.humans.n_units).toBe(0);
    expect(report.humans.n_units_single).toBe(3);
    expect(report.humans.krippendorff_alpha).toEqual({
      value: null,
      ci: null,
      n: 0,
      replicates_dropped: 0,
      too_few: true,
    });
    expect(report.judges.j!.n_units).toBe(3);
    expect(report.judges.j!.table).toEqual([
      [1, 0],
      [1, 1],
    ]);
    expect(report.judges.j!.percent_agreement.value).toBeCloseTo(2 / 3, 14);
  });

  it('judges: resolved human label, explicit human label, missing predictions, unclear handling', () => {
    const dataset: AgreementDataset = {
      name: 'judges',
      summaries: [
        {
          summaryId: 's1',
          units: [
            { ratings: { ana: 'faithful', ben: 'faithful' }, judges: { j: 1 } }, // agreed faithful, judge agrees
            { ratings: { ana: 'faithful', ben: 'unfaithful' }, judges: { j: 0 } }, // raters disagree: no human label
            { ratings: { ana: 'faithful', ben: 'unfaithful' }, human: 'unfaithful', judges: { j: 0 } }, // adjudicated
            { ratings: { ana: 'unclear' }, judges: { j: 1 } }, // human unclear
            { ratings: { ana: 'unfaithful' }, judges: {} }, // no prediction
            { ratings: { ana: 'unfaithful' }, judges: { j: null } }, // null prediction
          ],
        },
        { summaryId: 's2', units: [{ ratings: {}, judges: { j: 1 } }] }, // not annotated: left out
        { summaryId: 's3', units: [{ ratings: {}, human: 'faithful', judges: { j: 0 } }] }, // label given directly
      ],
    };
    const exclude = agreementForDataset(dataset, { bootstrap: 0 }).judges.j!;
    expect(exclude.table).toEqual([
      [1, 1],
      [0, 1],
    ]);
    expect(exclude).toMatchObject({
      n_units: 3,
      n_summaries: 2,
      n_units_no_human: 1,
      n_units_no_judge: 2,
      n_units_unclear_dropped: 1,
    });
    const category = agreementForDataset(dataset, { bootstrap: 0, unclear: 'category' });
    expect(category.n_summaries).toBe(2);
    expect(category.n_summaries_without_labels).toBe(1);
    const j = category.judges.j!;
    expect(j.table).toEqual([
      [1, 1, 0],
      [0, 1, 0],
      [1, 0, 0],
    ]);
    expect(j.n_units_unclear_dropped).toBe(0);
    expect(j.percent_agreement.value).toBeCloseTo(2 / 4, 14);
    expect(Object.keys(j.specific_agreement)).toEqual(['faithful', 'unfaithful', 'unclear']);
    expect(j.specific_agreement.unclear!.value).toBe(0);
  });

  it('listed raters and judges set the order and scope; a rater outside the list does not drop units', () => {
    const dataset: AgreementDataset = {
      name: 'scope',
      raters: ['ben', 'ana'],
      judges: ['z'],
      summaries: [
        {
          summaryId: 's',
          units: [
            { ratings: { ana: 'faithful', ben: 'faithful', cy: 'unclear' }, judges: { z: 1, y: 0 } },
            { ratings: { ana: 'unfaithful', ben: 'faithful' }, judges: { z: 0 } },
          ],
        },
      ],
    };
    const report = agreementForDataset(dataset, { bootstrap: 0 });
    expect(report.humans.raters).toEqual(['ben', 'ana']);
    expect(report.humans.pairs[0]!).toMatchObject({ rater_a: 'ben', rater_b: 'ana', n_units: 2 });
    expect(report.humans.pairs[0]!.table).toEqual([
      [1, 1],
      [0, 0],
    ]);
    expect(report.n_units_unclear_dropped).toBe(0);
    expect(report.judge_names).toEqual(['z']);
    expect(Object.keys(report.judges)).toEqual(['z']);
  });

  it('no summaries: every figure null, counts 0', () => {
    const report = agreementForDataset({ name: 'empty', summaries: [] }, { bootstrap: 10 });
    expect(report).toMatchObject({ n_summaries: 0, n_units: 0, judge_names: [] });
    expect(report.humans.gwet_ac1).toEqual({ value: null, ci: null, n: 0, replicates_dropped: 0, too_few: true });
  });
});

describe('validation', () => {
  const ok: AgreementDataset = {
    name: 'v',
    summaries: [{ summaryId: 'a', units: [{ ratings: { ana: 'faithful' } }] }],
  };

  it('rejects bad options', () => {
    expect(() => agreementReport(ok, { bootstrap: -1 })).toThrow(RangeError);
    expect(() => agreementReport(ok, { bootstrap: 1.5 })).toThrow(RangeError);
    expect(() => agreementReport(ok, { seed: -1 })).toThrow(RangeError);
    expect(() => agreementReport(ok, { unclear: 'drop' as UnclearHandling })).toThrow(/unclear/);
  });

  it('rejects bad labels, duplicate summaries, raters, judges and datasets', () => {
    const badLabel = {
      name: 'v',
      summaries: [{ summaryId: 'a', units: [{ ratings: { ana: 'maybe' as HumanLabel } }] }],
    };
    expect(() => agreementForDataset(badLabel)).toThrow(/ana/);
    const badJudge = { name: 'v', summaries: [{ summaryId: 'a', units: [{ ratings: {}, judges: { j: 2 as 0 } }] }] };
    expect(() => agreementForDataset(badJudge)).toThrow(/judge/);
    const badHuman = {
      name: 'v',
      summaries: [{ summaryId: 'a', units: [{ ratings: {}, human: 'yes' as HumanLabel }] }],
    };
    expect(() => agreementForDataset(badHuman)).toThrow(/human/);
    expect(() => agreementForDataset({ name: 'v', summaries: [ok.summaries[0]!, ok.summaries[0]!] })).toThrow(/twice/);
    expect(() => agreementForDataset({ ...ok, raters: ['ana', 'ana'] })).toThrow(/twice/);
    expect(() => agreementForDataset({ ...ok, judges: [''] })).toThrow(RangeError);
    expect(() => agreementReport([ok, ok])).toThrow(/twice/);
    expect(() => judgeHumanAgreement([[{ human: 'faithful', judge: 3 as 1 }]])).toThrow(RangeError);
  });
});
