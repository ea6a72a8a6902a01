/**
 * ε̂ per judge with its 95% bootstrap interval (point + whisker) against the threshold ε₀ (a
 * dashed line), as in the paper's ε̂ figure: the diagnostic is valid for a judge whose ε̂ (and,
 * to be safe, the upper end of its interval) lies below the line. Unconditional ε₀: the line is
 * ½, where any judge that is better than chance qualifies.
 */
import type { DatasetAnalysis } from '../../../shared/analysis/types';
import { ChartSvg, FONT_SIZE, LeftAxis } from '../../charts/Axis';
import { CHART_INK, PALETTE } from '../../charts/palette';
import { clip, linearScale, ticks } from '../../charts/scale';
import { fixed, formatEstimate, nEquals, plural } from '../../format';

const MARGIN = { top: 50, right: 34, bottom: 74, left: 62 };
const PLOT_HEIGHT = 220;

export function epsilonChartScale(dataset: DatasetAnalysis) {
  let top = 0.5;
  for (const judge of dataset.judge_names) {
    const estimate = dataset.judges[judge]?.epsilon_hat;
    if (estimate?.ci) top = Math.max(top, estimate.ci[1]);
    if (estimate?.value !== null && estimate?.value !== undefined) top = Math.max(top, estimate.value);
  }
  top = Math.min(1, Math.ceil(top * 10 - 1e-9) / 10);
  return linearScale([0, top], [MARGIN.top + PLOT_HEIGHT, MARGIN.top]);
}

export function EpsilonChart({ dataset, bootstrap }: { dataset: DatasetAnalysis; bootstrap: number }) {
  const judges = dataset.judge_names;
  const minBand = Math.max(72, Math.min(120, 520 / Math.max(1, judges.length)));
  const width = Math.max(440, MARGIN.left + MARGIN.right + minBand * judges.length);
  // Spare room goes to the judges' names.
  const band = (width - MARGIN.left - MARGIN.right) / Math.max(1, judges.length);
  const height = MARGIN.top + PLOT_HEIGHT + MARGIN.bottom;
  const y = epsilonChartScale(dataset);
  const plotRight = width - MARGIN.right;
  const plotLeft = MARGIN.left;
  const bandStart = plotLeft + (plotRight - plotLeft - band * judges.length) / 2;
  const maxChars = Math.max(6, Math.floor(band / (FONT_SIZE * 0.6)));

  const threshold =
    dataset.epsilon0_status === 'root' && dataset.epsilon0 !== null
      ? { value: dataset.epsilon0, label: `ε₀ = ${fixed(dataset.epsilon0, 3)}` }
      : dataset.epsilon0_status === 'unconditional'
        ? { value: 0.5, label: 'unconditional: every ε̂ < ½ qualifies' }
        : null;

  const units = judges.map((j) => dataset.judges[j]?.epsilon_hat.n ?? 0);
  const sameN = units.every((n) => n === units[0]);
  const note =
    `${sameN && units.length > 0 ? nEquals(units[0]!, 'sentence') : 'n = sentences per judge (below each name)'} with a usable human label and a hard judge label, ` +
    `${plural(dataset.human.n_annotated_summaries, 'annotated summary')}; CI: ${bootstrap > 0 ? `${plural(bootstrap, 'bootstrap replicate')} over summaries` : 'none (0 replicates)'}.`;

  return (
    <ChartSvg
      width={width}
      height={height}
      title={`Judge error ε̂ with 95% CI against ε₀ — ${dataset.dataset}`}
      note={note}
      testId="chart-epsilon"
    >
      <LeftAxis
        scale={y}
        values={ticks(y.domain[0], y.domain[1], 5)}
        at={plotLeft}
        gridTo={plotRight}
        label="ε̂ (share of sentences the judge gets wrong)"
      />
      <line x1={plotLeft} x2={plotRight} y1={y.range[0]} y2={y.range[0]} stroke={CHART_INK.axis} strokeWidth={1} />
      {threshold ? (
        <g data-role="epsilon0">
          <line
            x1={plotLeft}
            x2={plotRight}
            y1={y(threshold.value)}
            y2={y(threshold.value)}
            stroke={PALETTE.vermillion}
            strokeWidth={1.5}
            strokeDasharray="6 4"
            data-role="epsilon0-line"
            data-value={threshold.value}
          />
          <text x={plotRight + 4} y={y(threshold.value)} dy="0.32em" fontSize={10} fill={PALETTE.vermillion}>
            {dataset.epsilon0_status === 'root' ? 'ε₀' : '½'}
          </text>
          <line
            x1={plotLeft}
            x2={plotLeft + 24}
            y1={34}
            y2={34}
            stroke={PALETTE.vermillion}
            strokeWidth={1.5}
            strokeDasharray="6 4"
          />
          <text
            x={plotLeft + 30}
            y={34}
            dy="0.32em"
            fontSize={FONT_SIZE}
            fill={CHART_INK.text}
            data-role="epsilon0-label"
          >
            {threshold.label}
          </text>
        </g>
      ) : (
        <text
          x={plotLeft}
          y={34}
          dy="0.32em"
          fontSize={FONT_SIZE}
          fill={PALETTE.vermillion}
          data-role="epsilon0-undefined"
        >
          ε₀ undefined: {dataset.epsilon0_reason ?? 'p̂ is missing, 0 or 1'}
        </text>
      )}
      {judges.map((judge, index) => {
        const estimate = dataset.judges[judge]!.epsilon_hat;
        const cx = bandStart + band * (index + 0.5);
        const labelY = y.range[0] + 16;
        return (
          <g key={judge} data-role="judge" data-judge={judge}>
            <title>{`${judge}: ε̂ = ${formatEstimate(estimate, { n: 'never' })}, ${nEquals(estimate.n)}`}</title>
            {estimate.ci && (
              <g data-role="whisker" data-lower={estimate.ci[0]} data-upper={estimate.ci[1]}>
                <line
                  x1={cx}
                  x2={cx}
                  y1={y(estimate.ci[0])}
                  y2={y(estimate.ci[1])}
                  stroke={PALETTE.blue}
                  strokeWidth={1.5}
                />
                <line
                  x1={cx - 6}
                  x2={cx + 6}
                  y1={y(estimate.ci[0])}
                  y2={y(estimate.ci[0])}
                  stroke={PALETTE.blue}
                  strokeWidth={1.5}
                />
                <line
                  x1={cx - 6}
                  x2={cx + 6}
                  y1={y(estimate.ci[1])}
                  y2={y(estimate.ci[1])}
                  stroke={PALETTE.blue}
                  strokeWidth={1.5}
                />
              </g>
            )}
            {estimate.value !== null ? (
              <>
                <circle
                  cx={cx}
                  cy={y(estimate.value)}
                  r={4.5}
                  fill={PALETTE.blue}
                  stroke={CHART_INK.background}
                  strokeWidth={1}
                  data-role="point"
                  data-value={estimate.value}
                />
                <text x={cx + 8} y={y(estimate.value)} dy="0.32em" fontSize={10} fill={CHART_INK.text}>
                  {fixed(estimate.value, 3)}
                </text>
              </>
            ) : (
              <text
                x={cx}
                y={y.range[0] - 8}
                textAnchor="middle"
                fontSize={10}
                fill={CHART_INK.muted}
                data-role="undefined"
              >
                undefined
              </text>
            )}
            <text x={cx} y={labelY} textAnchor="middle" fontSize={FONT_SIZE} fill={CHART_INK.text}>
              {clip(judge, maxChars)}
            </text>
            <text x={cx} y={labelY + 14} textAnchor="middle" fontSize={10} fill={CHART_INK.muted}>
              {nEquals(estimate.n)}
            </text>
          </g>
        );
      })}
    </ChartSvg>
  );
}
