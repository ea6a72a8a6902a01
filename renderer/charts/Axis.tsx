/** Axes, gridlines and the white chart frame, as SVG attributes only (exports need no stylesheet). */
import type { ReactNode } from 'react';
import { CHART_FONT, CHART_INK } from './palette';
import { clip, textWidth, tickFormatter, type LinearScale } from './scale';

export const FONT_SIZE = 11;

interface AxisProps {
  scale: LinearScale;
  values: readonly number[];
  /** Where the axis line sits: x of a left axis, y of a bottom axis. */
  at: number;
  /** The other extent, for gridlines (right edge of the plot, top of the plot). */
  gridTo?: number;
  label: string;
  format?: (value: number) => string;
}

export function LeftAxis({ scale, values, at, gridTo, label, format }: AxisProps) {
  const text = format ?? tickFormatter(values);
  const [bottom, top] = scale.range;
  const middle = (bottom + top) / 2;
  return (
    <g data-role="axis-left">
      {gridTo !== undefined &&
        values.map((value) => (
          <line
            key={`g${value}`}
            x1={at}
            x2={gridTo}
            y1={scale(value)}
            y2={scale(value)}
            stroke={CHART_INK.grid}
            strokeWidth={1}
          />
        ))}
      <line x1={at} x2={at} y1={bottom} y2={top} stroke={CHART_INK.axis} strokeWidth={1} />
      {values.map((value) => (
        <g key={value}>
          <line x1={at - 4} x2={at} y1={scale(value)} y2={scale(value)} stroke={CHART_INK.axis} strokeWidth={1} />
          <text
            x={at - 6}
            y={scale(value)}
            dy="0.32em"
            textAnchor="end"
            fontSize={FONT_SIZE}
            fill={CHART_INK.muted}
            data-role="tick"
          >
            {text(value)}
          </text>
        </g>
      ))}
      <text
        x={0}
        y={0}
        transform={`translate(${at - 40} ${middle}) rotate(-90)`}
        textAnchor="middle"
        fontSize={FONT_SIZE}
        fill={CHART_INK.text}
        data-role="axis-label"
      >
        {label}
      </text>
    </g>
  );
}

export function BottomAxis({ scale, values, at, gridTo, label, format }: AxisProps) {
  const text = format ?? tickFormatter(values);
  const [left, right] = scale.range;
  return (
    <g data-role="axis-bottom">
      {gridTo !== undefined &&
        values.map((value) => (
          <line
            key={`g${value}`}
            x1={scale(value)}
            x2={scale(value)}
            y1={at}
            y2={gridTo}
            stroke={CHART_INK.grid}
            strokeWidth={1}
          />
        ))}
      <line x1={left} x2={right} y1={at} y2={at} stroke={CHART_INK.axis} strokeWidth={1} />
      {values.map((value) => (
        <g key={value}>
          <line x1={scale(value)} x2={scale(value)} y1={at} y2={at + 4} stroke={CHART_INK.axis} strokeWidth={1} />
          <text
            x={scale(value)}
            y={at + 15}
            textAnchor="middle"
            fontSize={FONT_SIZE}
            fill={CHART_INK.muted}
            data-role="tick"
          >
            {text(value)}
          </text>
        </g>
      ))}
      <text
        x={(left + right) / 2}
        y={at + 32}
        textAnchor="middle"
        fontSize={FONT_SIZE}
        fill={CHART_INK.text}
        data-role="axis-label"
      >
        {label}
      </text>
    </g>
  );
}

interface ChartSvgProps {
  width: number;
  height: number;
  /** Shown on top of the chart and read out as its accessible name. */
  title: string;
  /** What the figure was computed on (n), on the chart's last line so exports keep it. */
  note: string;
  testId: string;
  children: ReactNode;
}

const NOTE_SIZE = 10.5;
const NOTE_LINE = 13;

/** Words broken into lines that fit `width` at `fontSize` (an estimate: SVG text is not measured before drawing). */
export function wrapText(text: string, width: number, fontSize: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, fontSize) > width) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The <svg> root: white background, title on top, the n note at the bottom (wrapped; the chart
 * grows to hold it), fonts as attributes. `height` includes one line of note.
 */
export function ChartSvg({ width, height, title, note, testId, children }: ChartSvgProps) {
  const lines = wrapText(note, width - 24, NOTE_SIZE);
  const total = height + Math.max(0, lines.length - 1) * NOTE_LINE;
  const titleChars = Math.floor((width - 24) / (12.5 * 0.6));
  return (
    <svg
      viewBox={`0 0 ${width} ${total}`}
      width={width}
      height={total}
      role="img"
      aria-label={title}
      fontFamily={CHART_FONT}
      data-testid={testId}
    >
      <title>{title}</title>
      <rect x={0} y={0} width={width} height={total} fill={CHART_INK.background} />
      <text x={12} y={18} fontSize={12.5} fontWeight={600} fill={CHART_INK.text} data-role="chart-title">
        {clip(title, titleChars)}
      </text>
      {children}
      <text x={12} y={height - 8} fontSize={NOTE_SIZE} fill={CHART_INK.muted} data-role="chart-note">
        {lines.map((line, i) => (
          <tspan key={i} x={12} dy={i === 0 ? 0 : NOTE_LINE}>
            {i < lines.length - 1 ? `${line} ` : line}
          </tspan>
        ))}
      </text>
    </svg>
  );
}

/** One legend entry: a line sample (with its marker) or a swatch, then the label. */
export function LegendItem({
  x,
  y,
  label,
  color,
  dash,
  marker,
  swatch,
}: {
  x: number;
  y: number;
  label: string;
  color: string;
  dash?: string;
  marker?: 'circle' | 'square';
  swatch?: boolean;
}) {
  return (
    <g data-role="legend-item">
      {swatch ? (
        <rect x={x} y={y - 5} width={12} height={10} fill={color} />
      ) : (
        <>
          <line x1={x} x2={x + 22} y1={y} y2={y} stroke={color} strokeWidth={2} strokeDasharray={dash} />
          {marker && <Marker kind={marker} x={x + 11} y={y} color={color} />}
        </>
      )}
      <text x={x + (swatch ? 17 : 28)} y={y} dy="0.32em" fontSize={FONT_SIZE} fill={CHART_INK.text}>
        {label}
      </text>
    </g>
  );
}

export function Marker({
  kind,
  x,
  y,
  color,
  size = 3.5,
}: {
  kind: 'circle' | 'square';
  x: number;
  y: number;
  color: string;
  size?: number;
}) {
  return kind === 'circle' ? (
    <circle cx={x} cy={y} r={size} fill={color} stroke={CHART_INK.background} strokeWidth={1} />
  ) : (
    <rect
      x={x - size}
      y={y - size}
      width={2 * size}
      height={2 * size}
      fill={color}
      stroke={CHART_INK.background}
      strokeWidth={1}
    />
  );
}
