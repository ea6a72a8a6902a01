/**
 * Sampling: n summaries of a dataset, uniformly at random with a fixed seed, so anyone who
 * draws again with the same seed gets the same set (PROTOCOL.md, Blind annotation). A batch can
 * go to one annotator, to everyone, or be split among several annotators with an overlap (the
 * share of summaries labeled by two of them; shared/sampling.ts assignWithOverlap). "Draw N more"
 * (../plan/DrawMore.tsx) draws what the plan of the annotation says a target half-width needs.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { Annotator, DatasetStats, SampleBatchInfo } from '../../../shared/api';
import { errorMessage } from '../../api/errors';
import { bridge } from '../../state/session';
import { agree, formatCount, plural } from '../../format';
import { LIMITS, readBound, type Bound } from '../../../shared/limits';
import { DrawMore } from '../plan/DrawMore';

/** The overlap as the form shows it: a percentage of the contract's share. */
const PERCENT_OVERLAP: Bound = { ...LIMITS.sampling.overlap, max: 100 * LIMITS.sampling.overlap.max };

interface SamplePanelProps {
  datasets: readonly DatasetStats[];
  batches: readonly SampleBatchInfo[];
  onDrawn: () => void;
}

export function SamplePanel({ datasets, batches, onDrawn }: SamplePanelProps) {
  const [dataset, setDataset] = useState('');
  const [n, setN] = useState('25');
  const [seed, setSeed] = useState('0');
  const [annotator, setAnnotator] = useState('');
  const [splitAmong, setSplitAmong] = useState('');
  const [overlap, setOverlap] = useState('0');
  const [annotators, setAnnotators] = useState<Annotator[]>([]);
  const [drawing, setDrawing] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const chosen = dataset || datasets[0]?.name || '';

  useEffect(() => {
    bridge()
      .call('annotators.list', {})
      .then(setAnnotators, () => setAnnotators([]));
  }, []);

  async function draw(event: FormEvent) {
    event.preventDefault();
    // Numbers are read against the contract's bounds (shared/limits.ts); which combinations of
    // annotator, annotators and overlap are allowed is the contract's to refuse (its message shows).
    const count = readBound(n, LIMITS.sampling.n);
    const seedValue = readBound(seed, LIMITS.sampling.seed);
    const overlapPercent = readBound(overlap, PERCENT_OVERLAP);
    const invalid = [
      typeof count === 'string' ? `n: ${count}` : null,
      typeof seedValue === 'string' ? `Seed: ${seedValue}` : null,
      typeof overlapPercent === 'string' ? `Overlap %: ${overlapPercent}` : null,
    ].filter((m) => m !== null);
    if (!chosen || typeof count === 'string' || typeof seedValue === 'string' || typeof overlapPercent === 'string') {
      setMessage({ ok: false, text: chosen ? `${invalid.join('. ')}.` : 'Choose a dataset.' });
      return;
    }
    await drawBatch(count, seedValue, overlapPercent);
  }

  /** "Draw N more": the plan's count and the sample's seed, to the annotator or split as the form says. */
  function drawMore(count: number, seedValue: number) {
    const overlapPercent = readBound(overlap, PERCENT_OVERLAP);
    if (typeof overlapPercent === 'string') setMessage({ ok: false, text: `Overlap %: ${overlapPercent}.` });
    else void drawBatch(count, seedValue, overlapPercent);
  }

  async function drawBatch(count: number, seedValue: number, overlapPercent: number) {
    const names = splitAmong
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    setDrawing(true);
    try {
      const batch = await bridge().call('sampling.draw', {
        dataset: chosen,
        n: count,
        seed: seedValue,
        ...(annotator.trim() ? { annotator: annotator.trim() } : {}),
        ...(names.length > 0 ? { annotators: names, overlap: overlapPercent / 100 } : {}),
      });
      setMessage({
        ok: true,
        text:
          `Batch ${batch.batch}: ${plural(batch.summaries, 'summary')} drawn from ${batch.dataset}` +
          (batch.exhausted
            ? ` (only ${formatCount(batch.summaries)} unsampled ${agree(batch.summaries, 'was', 'were')} left of ${formatCount(batch.requested)} requested)`
            : '') +
          (batch.assignments.length > 0 ? `; ${assignmentText(batch)}` : ''),
      });
      onDrawn();
    } catch (err) {
      setMessage({ ok: false, text: errorMessage(err) });
    } finally {
      setDrawing(false);
    }
  }

  return (
    <section className="panel" aria-labelledby="sample-title">
      <h2 id="sample-title">Sample</h2>
      <form className="form-row" onSubmit={(event) => void draw(event)}>
        <label>
          Dataset
          <select value={chosen} onChange={(event) => setDataset(event.target.value)} data-testid="sample-dataset">
            {datasets.map((d) => (
              <option key={d.name} value={d.name}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          n
          <input
            type="number"
            min={LIMITS.sampling.n.min}
            max={LIMITS.sampling.n.max}
            value={n}
            onChange={(event) => setN(event.target.value)}
            data-testid="sample-n"
            className="narrow"
          />
        </label>
        <label>
          Seed
          <input
            type="number"
            min={LIMITS.sampling.seed.min}
            max={LIMITS.sampling.seed.max}
            value={seed}
            onChange={(event) => setSeed(event.target.value)}
            data-testid="sample-seed"
            className="narrow"
          />
        </label>
        <label>
          Annotator (optional)
          <input
            type="text"
            list="sample-annotators"
            value={annotator}
            placeholder="anyone"
            onChange={(event) => setAnnotator(event.target.value)}
            data-testid="sample-annotator"
          />
          <datalist id="sample-annotators">
            {annotators.map((a) => (
              <option key={a.id} value={a.name} />
            ))}
          </datalist>
        </label>
        <label>
          Split among (optional)
          <input
            type="text"
            value={splitAmong}
            placeholder="alice, bob, carol"
            onChange={(event) => setSplitAmong(event.target.value)}
            data-testid="sample-annotators"
          />
        </label>
        <label>
          Overlap %
          <input
            type="number"
            min={PERCENT_OVERLAP.min}
            max={PERCENT_OVERLAP.max}
            value={overlap}
            onChange={(event) => setOverlap(event.target.value)}
            data-testid="sample-overlap"
            className="narrow"
            title="Share of the batch's summaries labeled by two of the annotators (needs two or more)"
          />
        </label>
        <button type="submit" className="primary" disabled={drawing || !chosen} data-testid="sample-draw">
          Draw sample
        </button>
      </form>
      {message && (
        <p
          className={message.ok ? 'notice' : 'error-banner'}
          role={message.ok ? 'status' : 'alert'}
          data-testid="sample-message"
        >
          {message.text}
        </p>
      )}
      {chosen && <DrawMore dataset={chosen} version={batches.length} drawing={drawing} onDraw={drawMore} />}
      <BatchesTable batches={batches} />
    </section>
  );
}

function BatchesTable({ batches }: { batches: readonly SampleBatchInfo[] }) {
  if (batches.length === 0) return <p className="muted">No sample drawn yet.</p>;
  return (
    <table className="data-table" data-testid="batches">
      <thead>
        <tr>
          <th>Dataset</th>
          <th className="num">Batch</th>
          <th className="num">Seed</th>
          <th className="num">Summaries</th>
          <th>Annotator</th>
          <th>Drawn</th>
        </tr>
      </thead>
      <tbody>
        {batches.map((batch) => (
          <tr key={`${batch.dataset}#${batch.batch}`}>
            <td>{batch.dataset}</td>
            <td className="num">{batch.batch}</td>
            <td className="num">{batch.seed}</td>
            <td className="num">
              {formatCount(batch.summaries)} of {formatCount(batch.requested)}
              {batch.exhausted ? ' (exhausted)' : ''}
            </td>
            <td>
              {batch.assignments.length > 0 ? (
                <span data-testid="batch-assignments">{assignmentText(batch)}</span>
              ) : (
                (batch.annotator ?? <span className="muted">anyone</span>)
              )}
            </td>
            <td>{new Date(batch.createdAt).toLocaleString()}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** "alice 9, bob 9, carol 8; 5 summaries by two (overlap 20%)". */
export function assignmentText(batch: SampleBatchInfo): string {
  const total = batch.assignments.reduce((n, a) => n + a.summaries, 0);
  const doubled = total - batch.summaries;
  const per = batch.assignments.map((a) => `${a.annotator} ${a.summaries}`).join(', ');
  return `${per}; ${plural(doubled, 'summary')} by two (overlap ${Math.round(100 * (batch.overlap ?? 0))}%)`;
}
