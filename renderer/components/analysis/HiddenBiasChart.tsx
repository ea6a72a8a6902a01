/**
 * The hidden-bias simulation (§6, Fig. 3): the mean − min Pearson gap against y, the share of
 * summaries whose global label follows the averaging rule, for a perfect judge and for a judge
 * with the measured error ε̄. A small gap does not certify unbiased labels.
 */
import type { DatasetAnalysis, HiddenBiasCurvePoint, HiddenBiasReport } from '../../../shared/analysis/types';
import { BottomAxis, ChartSvg, LeftAxis, LegendItem, Marker } from '../../charts/Axis';
import { CHART_INK, PALETTE } from '../../charts/palette';
import { linearScale, niceDomain, ticks, type LinearScale } from '../../charts/scale';
import { fixed, nEquals, plural } from '../../format';

const MARGIN = { top: 58, right: 24, bottom: 66, left: 66 };
const PLOT = { width: 420, height: 230 };

/** Consecutive defined points joined; an undefined gap breaks the line. */
export function curvePath(
  points: Array<{ y: number; gap: number | null }>,
  x: LinearScale,
  yScale: LinearScale,
): string {
  const parts: string[] = [];
  let pen = false;
  for (const point of points) {
    if (point.gap === null) {
      pen = false;
      continue;
    }
    parts.push(`${pen ? 'L' : 'M'}${x(point.y).toFixed(2)},${yScale(point.gap).toFixed(2)}`);
    pen = true;
  }
  return parts.join(' ');
}

export function hiddenBiasGapDomain(report: HiddenBiasReport): [number, number] {
  let lo = 0;
  let hi = 0;
  for (const point of report.points) {
    for (const curve of [point.perfect, point.noisy]) {
      if (curve?.gap === null || curve?.gap === undefined) continue;
      lo = Math.min(lo, curve.gap);
      hi = Math.max(hi, curve.gap);
    }
  }
  if (hi - lo < 0.05) hi = lo + 0.05;
  return niceDomain(lo, hi, 5);
}

export function HiddenBiasChart({ dataset }: { dataset: DatasetAnalysis }) {
  const report = dataset.hidden_bias;
  if (!report) return null;
  const width = MARGIN.left + PLOT.width + MARGIN.right;
  const height = MARGIN.top + PLOT.height + MARGIN.bottom;
  const x = linearScale([0, 1], [MARGIN.left, MARGIN.left + PLOT.width]);
  const y = linearScale(hiddenBiasGapDomain(report), [MARGIN.top + PLOT.height, MARGIN.top]);
  const perfect = report.points.map((p) => ({ y: p.y, gap: p.perfect.gap }));
  const noisy = report.epsilon_bar === null ? null : report.points.map((p) => ({ y: p.y, gap: p.noisy?.gap ?? null }));
  const note =
    `Simulated on ${plural(report.n_simulated_summaries, 'summary')} with ${dataset.dataset}'s lengths (${nEquals(dataset.epsilon0_n_summaries)}), ` +
    `p̂ = ${fixed(report.p_hat, 3)}; ε̄ = ${report.epsilon_bar === null ? 'undefined' : `${fixed(report.epsilon_bar, 3)} (mean ε̂ of ${plural(report.n_judges_averaged, 'judge')})`}.`;
  const point = (p: HiddenBiasCurvePoint | null, yValue: number) =>
    p?.gap === null || p?.gap === undefined ? null : { cx: x(yValue), cy: y(p.gap) };

  return (
    <ChartSvg
      width={width}
      height={height}
      title={`Hidden averaging bias (simulation) — ${dataset.dataset}`}
      note={note}
      testId="chart-hidden-bias"
    >
      <LegendItem x={MARGIN.left} y={38} label="perfect judge" color={PALETTE.blue} marker="circle" />
      {noisy && (
        <LegendItem
          x={MARGIN.left + 130}
          y={38}
          label={`judge with ε̄ = ${fixed(report.epsilon_bar!, 3)}`}
          color={PALETTE.vermillion}
          dash="6 3"
          marker="square"
        />
      )}
      <LeftAxis
        scale={y}
        values={ticks(y.domain[0], y.domain[1], 5)}
        at={MARGIN.left}
        gridTo={MARGIN.left + PLOT.width}
        label="ρ(Y, mean) − ρ(Y, min)"
      />
      <BottomAxis
        scale={x}
        values={ticks(0, 1, 5)}
        at={MARGIN.top + PLOT.height}
        label="y: share of summaries labelled by the averaging rule"
      />
      {y.domain[0] < 0 && y.domain[1] > 0 && (
        <line x1={x(0)} x2={x(1)} y1={y(0)} y2={y(0)} stroke={CHART_INK.axis} strokeWidth={1} data-role="zero-line" />
      )}
      <path d={curvePath(perfect, x, y)} fill="none" stroke={PALETTE.blue} strokeWidth={2} data-role="curve-perfect" />
      {report.points.map((p) => {
        const at = point(p.perfect, p.y);
        return at && <Marker key={`p${p.y}`} kind="circle" x={at.cx} y={at.cy} color={PALETTE.blue} size={3} />;
      })}
      {noisy && (
        <>
          <path
            d={curvePath(noisy, x, y)}
            fill="none"
            stroke={PALETTE.vermillion}
            strokeWidth={2}
            strokeDasharray="6 3"
            data-role="curve-noisy"
          />
          {report.points.map((p) => {
            const at = point(p.noisy, p.y);
            return (
              at && <Marker key={`n${p.y}`} kind="square" x={at.cx} y={at.cy} color={PALETTE.vermillion} size={2.8} />
            );
          })}
        </>
      )}
    </ChartSvg>
  );
}
