/**
 * Sampling: n summaries of a dataset, uniformly at random with a fixed seed, so anyone who
 * draws again with the same seed gets the same set (PROTOCOL.md, Blind annotation).
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { Annotator, DatasetStats, SampleBatch } from '../../../shared/api';
import { errorMessage } from '../../api/errors';
import { bridge } from '../../state/session';

interface SamplePanelProps {
  datasets: readonly DatasetStats[];
  batches: readonly SampleBatch[];
  onDrawn: () => void;
}

export function SamplePanel({ datasets, batches, onDrawn }: SamplePanelProps) {
  const [dataset, setDataset] = useState('');
  const [n, setN] = useState('25');
  const [seed, setSeed] = useState('0');
  const [annotator, setAnnotator] = useState('');
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
    const count = Number(n);
    const seedValue = Number(seed);
    if (!chosen || !Number.isInteger(count) || count < 1 || !Number.isInteger(seedValue) || seedValue < 0) {
      setMessage({ ok: false, text: 'Choose a dataset, a whole n ≥ 1 and a whole seed ≥ 0.' });
      return;
    }
    setDrawing(true);
    try {
      const batch = await bridge().call('sampling.draw', {
        dataset: chosen,
        n: count,
        seed: seedValue,
        ...(annotator.trim() ? { annotator: annotator.trim() } : {}),
      });
      setMessage({
        ok: true,
        text:
          `Batch ${batch.batch}: ${batch.summaryIds.length} summaries drawn from ${batch.dataset}` +
          (batch.exhausted ? ` (only ${batch.summaryIds.length} unsampled were left of ${batch.requested} requested)` : ''),
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
          <input type="number" min={1} value={n} onChange={(event) => setN(event.target.value)} data-testid="sample-n" className="narrow" />
        </label>
        <label>
          Seed
          <input type="number" min={0} value={seed} onChange={(event) => setSeed(event.target.value)} data-testid="sample-seed" className="narrow" />
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
        <button type="submit" className="primary" disabled={drawing || !chosen} data-testid="sample-draw">
          Draw sample
        </button>
      </form>
      {message && (
        <p className={message.ok ? 'notice' : 'error-banner'} role={message.ok ? 'status' : 'alert'} data-testid="sample-message">
          {message.text}
        </p>
      )}
      <BatchesTable batches={batches} />
    </section>
  );
}

function BatchesTable({ batches }: { batches: readonly SampleBatch[] }) {
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
              {batch.summaryIds.length} of {batch.requested}
              {batch.exhausted ? ' (exhausted)' : ''}
            </td>
            <td>{batch.annotator ?? <span className="muted">anyone</span>}</td>
            <td>{new Date(batch.createdAt).toLocaleString()}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
