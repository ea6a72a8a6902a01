/**
 * The exact request the edited configuration would send for one sentence of the project, built
 * by the core (`judges.preview`, the same builder as the real call), ~300 ms after the last edit.
 * The core redacts the Authorization header; the key never reaches this page.
 */
import { useEffect, useState } from 'react';
import type { JudgePreview } from '../../../shared/api';
import type { JudgeConfig } from '../../../shared/judges/config';
import { errorMessage } from '../../api/errors';
import { shortHash } from '../../state/judges';
import { bridge } from '../../state/session';

export const PREVIEW_DEBOUNCE_MS = 300;

interface RequestPreviewProps {
  /** null while a field is invalid. */
  config: JudgeConfig | null;
  /** The saved version of the judge being edited (null when adding). */
  savedHash: string | null;
  /** A line about the key the request will carry, when the preview cannot show it. */
  keyNote?: string | null;
}

type PreviewState =
  | { status: 'idle' }
  | { status: 'loading'; last: JudgePreview | null }
  | { status: 'ready'; preview: JudgePreview }
  | { status: 'error'; message: string };

export function RequestPreview({ config, savedHash, keyNote }: RequestPreviewProps) {
  const configText = config ? JSON.stringify(config) : null;
  const [state, setState] = useState<PreviewState>({ status: 'idle' });

  useEffect(() => {
    if (configText === null) return;
    let live = true;
    setState((previous) => ({
      status: 'loading',
      last: previous.status === 'ready' ? previous.preview : previous.status === 'loading' ? previous.last : null,
    }));
    const timer = setTimeout(() => {
      bridge()
        .call('judges.preview', { config: JSON.parse(configText) as JudgeConfig })
        .then(
          (preview) => live && setState({ status: 'ready', preview }),
          (err: unknown) => live && setState({ status: 'error', message: errorMessage(err) }),
        );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [configText]);

  const preview = state.status === 'ready' ? state.preview : state.status === 'loading' ? state.last : null;

  return (
    <section
      className="judge-preview"
      aria-labelledby="judge-preview-title"
      data-testid="judge-preview"
      data-status={configText === null ? 'invalid' : state.status}
    >
      <h3 id="judge-preview-title">
        Request preview{' '}
        {configText !== null && state.status === 'loading' && <span className="muted">(updating…)</span>}
      </h3>
      {configText === null ? (
        <p className="muted">Fix the marked fields to see the exact request.</p>
      ) : state.status === 'error' ? (
        <p className="error-banner" role="alert" data-testid="judge-preview-error">
          <span className="error-text">{state.message}</span>
        </p>
      ) : preview ? (
        <PreviewBody preview={preview} savedHash={savedHash} keyNote={keyNote ?? null} />
      ) : (
        <p className="muted">Building the request…</p>
      )}
    </section>
  );
}

function PreviewBody({
  preview,
  savedHash,
  keyNote,
}: {
  preview: JudgePreview;
  savedHash: string | null;
  keyNote: string | null;
}) {
  const changed = savedHash !== null && savedHash !== preview.configHash;
  return (
    <>
      <p
        className="judge-preview-version"
        data-testid="judge-preview-version"
        data-new-version={changed ? 'true' : 'false'}
      >
        Version <code title={preview.configHash}>{shortHash(preview.configHash)}</code>
        {savedHash !== null &&
          (changed ? (
            <strong className="new-version">
              {' '}
              — differs from the saved version {shortHash(savedHash)}: saving makes a new judge version
            </strong>
          ) : (
            <span className="muted"> — same as the saved version</span>
          ))}
      </p>
      <p className="muted">
        {preview.unit
          ? `For sentence ${preview.unit.sentenceIndex + 1} of summary ${preview.unit.summaryId} (dataset ${preview.unit.dataset}): “${preview.unit.sentence}”`
          : 'No sentence with a document in this project yet: the preview uses an empty document and the literal {sentence}.'}
      </p>
      {preview.request ? (
        <>
          <pre className="judge-preview-json" data-testid="judge-preview-json">
            {JSON.stringify(preview.request, null, 2)}
          </pre>
          {keyNote && <p className="muted">{keyNote}</p>}
        </>
      ) : (
        <p className="notice" data-testid="judge-preview-offline">
          The offline baseline sends no request: it runs inside Loupe, on this machine.
        </p>
      )}
    </>
  );
}
