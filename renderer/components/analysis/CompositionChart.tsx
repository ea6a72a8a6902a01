/**
 * Summary composition (App. C.3, Fig. 5): the shares of all-faithful, mixed and all-unfaithful
 * summaries under the human labels and under the judges' per-sentence majority (over the
 * annotated summaries and over all). Only mixed summaries tell min from mean: the mixed share is
 * the diagnostic's power.
 */
import type { Composition, CompositionCounts, DatasetAnalysis } from '../../../shared/analysis/types';
import { ChartSvg, FONT_SIZE, LegendItem } from '../../charts/Axis';
import { CHART_INK, PALETTE } from '../../charts/palette';
import { textWidth } from '../../charts/scale';
import { formatCount, nEquals, percent } from '../../format';

const CLASSES: ReadonlyArray<{ key: keyof CompositionCounts; label: string; color: string; ink: string }> = [
  { key: 'all_faithful', label: 'all faithful', color: PALETTE.blue, ink: '#ffffff' },
  { key: 'mixed', label: 'mixed (0 < K < M)', color: PALETTE.orange, ink: '#000000' },
  { key: 'all_unfaithful', label: 'all unfaithful', color: PALETTE.vermillion, ink: '#ffffff' },
];

const LABEL_WIDTH = 210;
const BAR_WIDTH = 320;
const ROW_HEIGHT = 30;
const TOP = 62;

export function CompositionChart({ dataset }: { dataset: DatasetAnalysis }) {
  const rows: Array<{ id: string; label: string; composition: Composition }> = [
    { id: 'human', label: 'Humans (annotated summaries)', composition: dataset.composition.human },
    { id: 'judges-annotated', label: 'Judges’ majority, annotated', composition: dataset.composition.judges.annotated },
    { id: 'judges-all', label: 'Judges’ majority, all summaries', composition: dataset.composition.judges.all },
  ];
  const width = 12 + LABEL_WIDTH + BAR_WIDTH + 80;
  const height = TOP + rows.length * ROW_HEIGHT + 34;
  const x0 = 12 + LABEL_WIDTH;
  const legendX: number[] = [];
  let at = x0;
  for (const c of CLASSES) {
    legendX.push(at);
    at += 17 + textWidth(c.label, FONT_SIZE) + 16;
  }
  const note = `n = summaries classified per row (humans: by usable labels; judges: per-sentence majority, tie → unfaithful): ${rows
    .map((row) => formatCount(row.composition.n))
    .join(' / ')}.`;

  return (
    <ChartSvg
      width={width}
      height={height}
      title={`Summary composition — ${dataset.dataset}`}
      note={note}
      testId="chart-composition"
    >
      {CLASSES.map((c, i) => (
        <LegendItem key={c.key} x={legendX[i]!} y={38} label={c.label} color={c.color} swatch />
      ))}
      {rows.map((row, index) => {
        const y = TOP + index * ROW_HEIGHT;
        const { composition } = row;
        let offset = 0;
        return (
          <g key={row.id} data-role="composition-row" data-row={row.id} data-n={composition.n}>
            <text x={x0 - 8} y={y + 10} dy="0.32em" textAnchor="end" fontSize={FONT_SIZE} fill={CHART_INK.text}>
              {row.label}
            </text>
            {composition.n === 0 ? (
              <text x={x0 + 4} y={y + 10} dy="0.32em" fontSize={FONT_SIZE} fill={CHART_INK.muted} data-role="empty">
                no summary classified
              </text>
            ) : (
              CLASSES.map((c) => {
                const share = composition[c.key] ?? 0;
                const w = share * BAR_WIDTH;
                const x = x0 + offset;
                offset += w;
                return (
                  <g
                    key={c.key}
                    data-role="segment"
                    data-class={c.key}
                    data-share={share}
                    data-count={composition.counts[c.key]}
                  >
                    <title>{`${row.label}: ${c.label} ${percent(composition[c.key])} (${formatCount(composition.counts[c.key])} of ${formatCount(composition.n)})`}</title>
                    <rect x={x} y={y} width={w} height={20} fill={c.color} />
                    {w >= 34 && (
                      <text x={x + w / 2} y={y + 10} dy="0.32em" textAnchor="middle" fontSize={10} fill={c.ink}>
                        {percent(share, 0)}
                      </text>
                    )}
                  </g>
                );
              })
            )}
            <text x={x0 + BAR_WIDTH + 8} y={y + 10} dy="0.32em" fontSize={FONT_SIZE} fill={CHART_INK.muted}>
              {nEquals(composition.n)}
            </text>
          </g>
        );
      })}
    </ChartSvg>
  );
}
