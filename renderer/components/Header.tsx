/** Top bar: project, views, annotator and the annotation progress, always in sight. */
import { useShallow } from 'zustand/react/shallow';
import { useAnnotation } from '../state/annotation';
import { forgetAnnotator, showView, useSession } from '../state/session';
import { ProgressBar } from './ProgressBar';

export function Header() {
  const { info, annotator, view } = useSession(
    useShallow((state) => ({ info: state.info, annotator: state.annotator, view: state.view })),
  );
  const progress = useAnnotation((state) => state.progress);
  const project = info?.project ?? null;

  return (
    <header className="app-header">
      <span className="brand">Loupe</span>
      {project && (
        <>
          <span className="project-name" title={project.path}>
            {project.name}
            {project.isDemo && <span className="tag">demo</span>}
          </span>
          <nav className="views" aria-label="Views">
            <button
              type="button"
              className={view === 'project' ? 'tab is-active' : 'tab'}
              aria-current={view === 'project' ? 'page' : undefined}
              onClick={() => showView('project')}
              data-testid="nav-project"
            >
              Project
            </button>
            <button
              type="button"
              className={view === 'annotate' ? 'tab is-active' : 'tab'}
              aria-current={view === 'annotate' ? 'page' : undefined}
              onClick={() => showView('annotate')}
              data-testid="nav-annotate"
            >
              Annotate
            </button>
            <button
              type="button"
              className={view === 'judges' ? 'tab is-active' : 'tab'}
              aria-current={view === 'judges' ? 'page' : undefined}
              aria-keyshortcuts="G"
              title="Judges (G)"
              onClick={() => showView('judges')}
              data-testid="nav-judges"
            >
              Judges <kbd className="tab-key">G</kbd>
            </button>
            <button
              type="button"
              className={view === 'analysis' ? 'tab is-active' : 'tab'}
              aria-current={view === 'analysis' ? 'page' : undefined}
              aria-keyshortcuts="A"
              title="Analysis: the judge audit (A)"
              onClick={() => showView('analysis')}
              data-testid="nav-analysis"
            >
              Analysis <kbd className="tab-key">A</kbd>
            </button>
            <button
              type="button"
              className={view === 'review' ? 'tab is-active' : 'tab'}
              aria-current={view === 'review' ? 'page' : undefined}
              aria-keyshortcuts="V"
              title="Review: adjudicate suspicious summaries and disagreements (V)"
              onClick={() => showView('review')}
              data-testid="nav-review"
            >
              Review <kbd className="tab-key">V</kbd>
            </button>
          </nav>
        </>
      )}
      <span className="spacer" />
      {progress && annotator && (
        <div
          className="header-progress"
          data-testid="progress"
          data-units-done={progress.unitsDone}
          data-units-total={progress.unitsTotal}
          data-summaries-done={progress.summariesDone}
          data-summaries-total={progress.summariesTotal}
        >
          <ProgressBar label="Sentences" done={progress.unitsDone} total={progress.unitsTotal} />
          <ProgressBar label="Summaries" done={progress.summariesDone} total={progress.summariesTotal} />
        </div>
      )}
      {annotator && (
        <span className="annotator" data-testid="annotator">
          {annotator}{' '}
          <button type="button" className="link-button" onClick={forgetAnnotator}>
            change
          </button>
        </span>
      )}
    </header>
  );
}
