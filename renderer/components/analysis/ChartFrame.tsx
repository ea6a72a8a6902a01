/** A figure: the chart, what it shows in words (with its n), and SVG / PNG export buttons. */
import { useRef, useState, type ReactNode } from 'react';
import { reportOutcome, savePng, saveSvg } from './save';

interface ChartFrameProps {
  /** The file name without extension. */
  fileName: string;
  caption: ReactNode;
  testId: string;
  children: ReactNode;
}

export function ChartFrame({ fileName, caption, testId, children }: ChartFrameProps) {
  const holder = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  async function run(kind: 'svg' | 'png') {
    const svg = holder.current?.querySelector('svg');
    if (!svg) return;
    setBusy(true);
    setOutcome(await reportOutcome(() => (kind === 'svg' ? saveSvg(svg, fileName) : savePng(svg, fileName))));
    setBusy(false);
  }

  return (
    <figure className="chart" data-testid={testId}>
      <div className="chart-canvas" ref={holder}>
        {children}
      </div>
      <figcaption className="chart-caption">
        <span>{caption}</span>
        <span className="chart-actions">
          <button type="button" disabled={busy} onClick={() => void run('svg')} data-testid="chart-export-svg">
            SVG
          </button>
          <button type="button" disabled={busy} onClick={() => void run('png')} data-testid="chart-export-png">
            PNG
          </button>
        </span>
        {outcome && (
          <span
            className={outcome.ok ? 'muted' : 'field-error'}
            role={outcome.ok ? 'status' : 'alert'}
            data-testid="chart-export-message"
          >
            {outcome.text}
          </span>
        )}
      </figcaption>
    </figure>
  );
}
