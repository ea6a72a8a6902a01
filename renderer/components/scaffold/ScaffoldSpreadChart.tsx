/**
 * The spread chart (the paper's Fig. 2): per metric, every system's mean with its
 * summary-bootstrap CI on one shared 0–1 axis. A metric whose systems' spread is within its own
 * noise is marked saturated: its points visibly collapse, where FPS / EPS keep their spread.
 */
import { BottomAxis, ChartSvg, FONT_SIZE, LegendItem, Marker } from '../../charts/Axis';
import { CHART_INK, PALETTE } from '../../charts/palette';
import { linearScale, ticks } from '../../charts/scale';
import { tooFewNote } from '../../format';
import type { SystemComparison } from '../../../shared/stats/system-comparison';
import { shownMetrics, shownName, type ShownMetric } from './metricNames';

const COLOURS = [
  PALETTE.blue,
  PALETTE.vermillion,
  PALETTE.green,
  PALETTE.orange,
  PALETTE.purple,
  PALETTE.skyBlue,
  PALETTE.black,
  PALETTE.yellow,
];
const WIDTH = 640;
const LEFT = 120;
const RIGHT = 24;
const TOP = 34;
const ROW = 30;

/** Where a metric sits on the shared 0–1 axis: the direct score (1–10) divided by 10. */
const onAxis = (metric: ShownMetric, value: number): number => (metric === 'direct_score' ? value / 10 : value);
const rowName = (metric: ShownMetric): string => (metric === 'direct_score' ? 'Direct ÷ 10' : shownName(metric));

export function ScaffoldSpreadChart({
  comparison,
  source,
  testId = 'scaffold-spread-svg',
}: {
  comparison: SystemComparison;
  source: string;
  testId?: string;
}) {
  const systems = comparison.systems;
  const metrics = shownMetrics(comparison.metrics.direct_score !== undefined);
  const of = (m: ShownMetric) => comparison.metrics[m]!;
  const legendRows = Math.ceil(systems.length / 4);
  const plotBottom = TOP + metrics.length * ROW;
  const height = plotBottom + 40 + legendRows * 16 + 24;
  const x = linearScale([0, 1], [LEFT, WIDTH - RIGHT]);
  const band = (i: number) => TOP + i * ROW + ROW / 2;
  const offset = (s: number) => (systems.length <= 1 ? 0 : (s / (systems.length - 1) - 0.5) * (ROW * 0.6));
  const saturated = metrics.filter((m) => of(m).saturated === true);
  return (
    <ChartSvg
      width={WIDTH}
      height={height}
      title={`Spread of the scaffold metrics across systems (${source})`}
      note={`Mean per system with its 95% summary-bootstrap CI. Saturated (spread within the median CI half-width): ${saturated.length ? saturated.map(shownName).join(', ') : 'none'}.`}
      testId={testId}
    >
      <BottomAxis scale={x} values={ticks(0, 1, 5)} at={plotBottom} gridTo={TOP} label="metric value (0–1)" />
      {metrics.map((metric, i) => {
        const c = of(metric);
        return (
          <g
            key={metric}
            data-role="metric-row"
            data-metric={metric}
            data-saturated={c.saturated === true ? 'true' : 'false'}
          >
            <line x1={LEFT} x2={WIDTH - RIGHT} y1={band(i)} y2={band(i)} stroke={CHART_INK.grid} strokeWidth={1} />
            <text x={LEFT - 8} y={band(i)} dy="0.32em" textAnchor="end" fontSize={FONT_SIZE} fill={CHART_INK.text}>
              {rowName(metric)}
              {c.saturated === true ? ' (saturated)' : ''}
            </text>
            {systems.map((system, at) => {
              const mean = c.by_system[system] ?? null;
              const colour = COLOURS[at % COLOURS.length]!;
              const y = band(i) + offset(at);
              if (!mean || mean.value === null) return null;
              return (
                <g key={system} data-role="system-point" data-system={system} data-value={mean.value}>
                  <title>{`${system}: ${shownName(metric)} ${mean.value.toFixed(3)}${mean.ci ? ` [${mean.ci[0].toFixed(3)}, ${mean.ci[1].toFixed(3)}]` : ''}${tooFewNote(mean) || ` (n = ${mean.n})`}`}</title>
                  {mean.ci && (
                    <line
                      x1={x(onAxis(metric, mean.ci[0]))}
                      x2={x(onAxis(metric, mean.ci[1]))}
                      y1={y}
                      y2={y}
                      stroke={colour}
                      strokeWidth={1.5}
                    />
                  )}
                  <Marker
                    kind={at % 2 === 0 ? 'circle' : 'square'}
                    x={x(onAxis(metric, mean.value))}
                    y={y}
                    color={colour}
                  />
                </g>
              );
            })}
          </g>
        );
      })}
      {systems.map((system, s) => (
        <LegendItem
          key={system}
          x={LEFT + (s % 4) * 130}
          y={plotBottom + 44 + Math.floor(s / 4) * 16}
          label={system}
          color={COLOURS[s % COLOURS.length]!}
          marker={s % 2 === 0 ? 'circle' : 'square'}
        />
      ))}
    </ChartSvg>
  );
}
