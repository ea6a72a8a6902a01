/**
 * Export labels as JSONL or CSV: on the desktop a native Save dialog picks the path and the core
 * streams the file there (any size); in the browser a download link (a Blob URL, so nothing leaves
 * the machine).
 */
import { useEffect, useState } from 'react';
import type { DatasetStats } from '../../../shared/api';
import { exportFileStem } from '../../../shared/contract/export';
import { errorMessage } from '../../api/errors';
import { plural } from '../../format';
import { bridge, useSession } from '../../state/session';

interface Download {
  url: string;
  fileName: string;
  rows: number;
}

export function ExportPanel({ datasets }: { datasets: readonly DatasetStats[] }) {
  const fileDialogs = useSession((state) => state.info?.fileDialogs ?? false);
  const projectName = useSession((state) => state.info?.project?.name ?? 'loupe');
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
      const input = { format, history, ...(dataset ? { dataset } : {}) };
      if (fileDialogs) {
        const fileName = `${exportFileStem(projectName, dataset || undefined, 'labels')}.${format}`;
        const { path } = await bridge().call('dialog.chooseSavePath', { fileName });
        if (!path) return;
        const written = await bridge().call('export.write', { ...input, path });
        setMessage({ ok: true, text: `Saved ${plural(written.rows, 'row')} to ${written.path}` });
      } else {
        const output = await bridge().call('export.build', input);
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
