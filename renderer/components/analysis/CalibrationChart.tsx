/**
 * Reliability diagram of one judge's soft labels against the human labels (1 = faithful): per
 * bin of predicted probability, the mean prediction against the observed share of faithful, with
 * the diagonal of perfect calibration and each bin's count; Brier and ECE on the chart.
 */
import type { CalibrationReport } from '../../../shared/analysis/types';
import { BottomAxis, ChartSvg, LeftAxis, Marker } from '../../charts/Axis';
import { CHART_INK, PALETTE } from '../../charts/palette';
import { linearScale, ticks } from '../../charts/scale';
import { fixed, formatCount, formatEstimate, nEquals, num } from '../../format';

const MARGIN = { top: 40, right: 24, bottom: 76, left: 62 };
const SIDE = 240;

export function CalibrationChart({
  judge,
  dataset,
  calibration,
}: {
  judge: string;
  dataset: string;
  calibration: CalibrationReport;
}) {
  const width = MARGIN.left + SIDE + MARGIN.right;
  const height = MARGIN.top + SIDE + MARGIN.bottom;
  const x = linearScale([0, 1], [MARGIN.left, MARGIN.left + SIDE]);
  const y = linearScale([0, 1], [MARGIN.top + SIDE, MARGIN.top]);
  const filled = calibration.bins.filter(
    (bin) => bin.count > 0 && bin.mean_predicted !== null && bin.observed_frequency !== null,
  );
  const path = filled
    .map(
      (bin, i) => `${i === 0 ? 'M' : 'L'}${x(bin.mean_predicted!).toFixed(2)},${y(bin.observed_frequency!).toFixed(2)}`,
    )
    .join(' ');
  const countsY = MARGIN.top + SIDE + 46;
  const note = `${dataset}: ${nEquals(calibration.brier.n, 'sentence')} with a human label and a soft label · Brier ${formatEstimate(calibration.brier, { n: 'never' })} · ECE ${num(calibration.ece.value)} (10 equal-width bins)`;

  return (
    <ChartSvg width={width} height={height} title={`Calibration — ${judge}`} note={note} testId="chart-calibration">
      <LeftAxis
        scale={y}
        values={ticks(0, 1, 5)}
        at={MARGIN.left}
        gridTo={MARGIN.left + SIDE}
        label="observed share faithful"
      />
      <BottomAxis scale={x} values={ticks(0, 1, 5)} at={MARGIN.top + SIDE} label="mean predicted P(faithful)" />
      <line
        x1={x(0)}
        y1={y(0)}
        x2={x(1)}
        y2={y(1)}
        stroke={CHART_INK.axis}
        strokeWidth={1}
        strokeDasharray="4 4"
        data-role="diagonal"
      />
      {path && <path d={path} fill="none" stroke={PALETTE.blue} strokeWidth={1.5} data-role="reliability-line" />}
      {filled.map((bin) => (
        <g key={bin.lower} data-role="bin" data-count={bin.count}>
          <title>{`[${fixed(bin.lower, 1)}, ${fixed(bin.upper, 1)}${bin.upper >= 1 ? ']' : ')'}: mean predicted ${fixed(bin.mean_predicted!, 3)}, observed ${fixed(bin.observed_frequency!, 3)}, ${nEquals(bin.count)}`}</title>
          <Marker
            kind="circle"
            x={x(bin.mean_predicted!)}
            y={y(bin.observed_frequency!)}
            color={PALETTE.blue}
            size={3.5}
          />
        </g>
      ))}
      <text x={MARGIN.left - 6} y={countsY} dy="0.32em" textAnchor="end" fontSize={10} fill={CHART_INK.muted}>
        n per bin
      </text>
      {calibration.bins.map((bin) => (
        <text
          key={bin.lower}
          x={x((bin.lower + bin.upper) / 2)}
          y={countsY}
          dy="0.32em"
          textAnchor="middle"
          fontSize={9.5}
          fill={CHART_INK.muted}
          data-role="bin-count"
        >
          {formatCount(bin.count)}
        </text>
      ))}
    </ChartSvg>
  );
}
