/**
 * Export labels as JSONL or CSV: a native save dialog on the desktop, a download link in the
 * browser (a Blob URL, so nothing leaves the machine).
 */
import { useEffect, useState } from 'react';
import type { DatasetStats } from '../../../shared/api';
import { errorMessage } from '../../api/errors';
import { bridge, useSession } from '../../state/session';

interface Download {
  url: string;
  fileName: string;
  rows: number;
}

export function ExportPanel({ datasets }: { datasets: readonly DatasetStats[] }) {
  const fileDialogs = useSession((state) => state.info?.fileDialogs ?? false);
  const [format, setFormat] = useState<'jsonl' | 'csv'>('jsonl');
  const [history, setHistory] = useState(false);
  const [dataset, setDataset] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [download, setDownload] = useState<Download | null>(null);

  // A Blob URL holds its content in memory until revoked.
  useEffect(
    () => () => {
      if (download) URL.revokeObjectURL(download.url);
    },
    [download],
  );

  async function build() {
    setBusy(true);
    setMessage(null);
    setDownload(null);
    try {
      const output = await bridge().call('export.build', { format, history, ...(dataset ? { dataset } : {}) });
      if (fileDialogs) {
        const { path } = await bridge().call('dialog.saveExport', {
          fileName: output.fileName,
          content: output.content,
        });
        setMessage(path ? { ok: true, text: `Saved ${output.rows} rows to ${path}` } : null);
      } else {
        const url = URL.createObjectURL(new Blob([output.content], { type: output.mime }));
        setDownload({ url, fileName: output.fileName, rows: output.rows });
      }
    } catch (err) {
      setMessage({ ok: false, text: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="panel" aria-labelledby="export-title">
      <h2 id="export-title">Export</h2>
      <div className="form-row">
        <label>
          Format
          <select
            value={format}
            onChange={(event) => setFormat(event.target.value as 'jsonl' | 'csv')}
            data-testid="export-format"
          >
            <option value="jsonl">JSONL</option>
            <option value="csv">CSV</option>
          </select>
        </label>
        <label>
          Dataset
          <select value={dataset} onChange={(event) => setDataset(event.target.value)} data-testid="export-dataset">
            <option value="">All datasets</option>
            {datasets.map((d) => (
              <option key={d.name} value={d.name}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={history}
            onChange={(event) => setHistory(event.target.checked)}
            data-testid="export-history"
          />
          Include history
        </label>
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => void build()}
          data-testid="export-build"
        >
          {fileDialogs ? 'Export…' : 'Build export'}
        </button>
      </div>
      {download && (
        <p className="notice">
          {download.rows} rows ready:{' '}
          <a href={download.url} download={download.fileName} data-testid="export-download">
            download {download.fileName}
          </a>
        </p>
      )}
      {message && (
        <p
          className={message.ok ? 'notice' : 'error-banner'}
          role={message.ok ? 'status' : 'alert'}
          data-testid="export-message"
        >
          {message.text}
        </p>
      )}
    </section>
  );
}
