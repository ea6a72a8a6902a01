/** Top bar: project, views, annotator and the annotation progress, always in sight. */
import { useShallow } from 'zustand/react/shallow';
import { useAnnotation } from '../state/annotation';
import { forgetAnnotator, showView, useSession, type View } from '../state/session';
import { ProgressBar } from './ProgressBar';

/** The views a user switches between, with the key that opens each (shown on the tab). */
const TABS: ReadonlyArray<{ view: View; label: string; key?: string; title?: string }> = [
  { view: 'project', label: 'Project' },
  { view: 'annotate', label: 'Annotate' },
  { view: 'judges', label: 'Judges', key: 'G', title: 'Judges (G)' },
  { view: 'analysis', label: 'Analysis', key: 'A', title: 'Analysis: the judge audit (A)' },
  { view: 'review', label: 'Review', key: 'V', title: 'Review: adjudicate suspicious summaries and disagreements (V)' },
];

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
            {TABS.map((tab) => (
              <button
                key={tab.view}
                type="button"
                className={view === tab.view ? 'tab is-active' : 'tab'}
                aria-current={view === tab.view ? 'page' : undefined}
                aria-keyshortcuts={tab.key}
                title={tab.title}
                onClick={() => showView(tab.view)}
                data-testid={`nav-${tab.view}`}
              >
                {tab.label} {tab.key && <kbd className="tab-key">{tab.key}</kbd>}
              </button>
            ))}
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
