/**
 * Judges: the project's LLM judges and the offline baseline, their configuration (with the exact
 * request they send), and background runs with progress. The CLI's fields and controls.
 *
 * Blindness: this view shows configurations, counts and progress, never a sentence's prediction,
 * and it shares no state with the Annotate view.
 */
import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { JudgeInfo } from '../../shared/api';
import { isPlain } from '../keys/dispatcher';
import { useKeyLayer } from '../keys/hooks';
import {
  addBaseline,
  dismissJudgesNotice,
  openJudges,
  refreshJudges,
  removeJudge,
  selectJudge,
  setJudgesError,
  startRun,
  stopJudgePolling,
  togglePause,
  useJudges,
} from '../state/judges';
import { refreshProject, useProject } from '../state/project';
import { isShowing, useSession } from '../state/session';
import { ErrorBanner } from '../components/ErrorBanner';
import { useChanges } from '../components/useChanges';
import { draftFor, endpointDraft, type JudgeDraft } from '../components/judges/draft';
import { JudgeForm } from '../components/judges/JudgeForm';
import { JudgesEmpty, JudgesTable } from '../components/judges/JudgesTable';
import { RemoveConfirm } from '../components/judges/RemoveConfirm';
import { RunPanel } from '../components/judges/RunPanel';
import { AccuracyTasksSection } from '../components/accuracy/TasksPanel';

type Editor =
  | { mode: 'add'; draft: JudgeDraft; serial: number }
  | { mode: 'edit'; judge: JudgeInfo; draft: JudgeDraft; serial: number };

let editorSerial = 0;

export function JudgesView() {
  const project = useSession((state) => state.info?.project ?? null);
  const keychain = useSession((state) => state.info?.keychain ?? false);
  const { loaded, judges, defaults, selected, runs, pending, error, notice } = useJudges(
    useShallow((state) => ({
      loaded: state.loaded,
      judges: state.judges,
      defaults: state.defaults,
      selected: state.selected,
      runs: state.runs,
      pending: state.pending,
      error: state.error,
      notice: state.notice,
    })),
  );
  const datasets = useProject((state) => state.datasets);
  const [editor, setEditor] = useState<Editor | null>(null);
  const [removing, setRemoving] = useState<JudgeInfo | null>(null);

  // A nav button keeps focus after the click that brought us here; Space would press it again.
  useEffect(() => {
    if (document.activeElement instanceof HTMLElement && document.activeElement !== document.body)
      document.activeElement.blur();
  }, []);

  const projectPath = project?.path ?? null;
  useEffect(() => {
    if (!projectPath) return;
    void openJudges(projectPath);
    void refreshProject();
    // Runs go on in the core when the view closes; it reattaches (judges.runs) when it opens.
    return () => stopJudgePolling();
  }, [projectPath]);
  // Judges, systems or predictions changed elsewhere (another tab, the CLI): the list again.
  useChanges(['judges', 'systems', 'imports'], () => refreshJudges(), { enabled: projectPath !== null });

  useJudgesViewKeys(editor === null && removing === null, selected);

  const selectedJudge = judges.find((judge) => judge.name === selected) ?? null;
  const canAddBaseline = defaults !== null && !judges.some((judge) => judge.name === defaults.baselineName);

  function addEndpoint() {
    if (!defaults) return;
    setRemoving(null);
    setEditor({ mode: 'add', draft: endpointDraft('', defaults.endpoint), serial: ++editorSerial });
  }

  function edit(judge: JudgeInfo) {
    if (!judge.config) return;
    setRemoving(null);
    setEditor({ mode: 'edit', judge, draft: draftFor(judge.name, judge.config), serial: ++editorSerial });
  }

  return (
    <div className="judges-view" data-testid="judges-view">
      <ErrorBanner message={error} onDismiss={() => setJudgesError(null)} />
      {notice && (
        <div className="notice judges-notice" role="status" data-testid="judges-notice">
          <span>{notice}</span>{' '}
          <button type="button" className="link-button" onClick={dismissJudgesNotice}>
            Dismiss
          </button>
        </div>
      )}

      <section className="panel" aria-labelledby="judges-title">
        <div className="panel-head">
          <h2 id="judges-title">Judges {project && <span className="muted">in {project.name}</span>}</h2>
          <span className="spacer" />
          {judges.length > 0 && canAddBaseline && (
            <button type="button" onClick={() => void addBaseline()} data-testid="judges-add-baseline">
              Add the offline baseline
            </button>
          )}
          {judges.length > 0 && (
            <button
              type="button"
              className="primary"
              disabled={!defaults}
              onClick={addEndpoint}
              data-testid="judges-add-endpoint"
            >
              Add an endpoint judge
            </button>
          )}
        </div>
        {!loaded ? (
          <p className="muted">Loading the judges…</p>
        ) : judges.length === 0 ? (
          <JudgesEmpty
            ready={defaults !== null}
            canAddBaseline={canAddBaseline}
            onAddBaseline={() => void addBaseline()}
            onAddEndpoint={addEndpoint}
          />
        ) : (
          <JudgesTable
            judges={judges}
            runs={runs}
            selected={selected}
            onSelect={selectJudge}
            onEdit={edit}
            onRemove={(judge) => {
              setEditor(null);
              setRemoving(judge);
            }}
          />
        )}
        {removing && (
          <RemoveConfirm
            judge={removing}
            onConfirm={() => {
              const name = removing.name;
              setRemoving(null);
              void removeJudge(name);
            }}
            onCancel={() => setRemoving(null)}
          />
        )}
      </section>

      {editor && defaults && (
        <JudgeForm
          key={editor.serial}
          mode={editor.mode}
          initial={editor.draft}
          judge={editor.mode === 'edit' ? editor.judge : null}
          keychain={keychain}
          defaultTemplate={defaults.template}
          takenNames={judges.map((judge) => judge.name)}
          onSaved={() => setEditor(null)}
          onCancel={() => setEditor(null)}
        />
      )}

      {selectedJudge && (
        <RunPanel
          judge={selectedJudge}
          run={runs[selectedJudge.name]}
          pending={pending[selectedJudge.name]}
          datasets={datasets}
        />
      )}

      {loaded && <AccuracyTasksSection judges={judges} datasets={datasets} />}

      <p className="muted judges-keys" data-testid="judges-keys">
        <kbd>R</kbd> run the selected judge · <kbd>Space</kbd> pause / resume its run · <kbd>G</kbd> this view from the
        others
      </p>
    </div>
  );
}

/** R starts the selected judge's run, Space pauses or resumes it; never while typing or in a form. */
function useJudgesViewKeys(active: boolean, selected: string | null): void {
  useKeyLayer(
    'view',
    'judges',
    (press) => {
      if (!active || !selected || press.repeat || !isPlain(press) || press.typing) return 'pass';
      if (press.key === 'r' || press.key === 'R') {
        void startRun(selected);
        return 'handled';
      }
      // Space on a focused button presses that button.
      if (press.key === ' ' && !press.activatable) {
        void togglePause(selected);
        return 'handled';
      }
      return 'pass';
    },
    () => isShowing('judges'),
  );
}
