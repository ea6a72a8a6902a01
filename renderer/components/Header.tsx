/** Top bar: project, views, who is annotating (always in sight) and the annotation progress. */
import type { MouseEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAnnotation } from '../state/annotation';
import { openView } from '../state/reveal';
import { canOpen, switchAnnotator, useSession, type View } from '../state/session';
import { VIEW_TABS } from '../viewKeys';
import { ProgressBar } from './ProgressBar';

export function Header() {
  const { info, annotator, view, switching } = useSession(
    useShallow((state) => ({
      info: state.info,
      annotator: state.annotator,
      view: state.view,
      switching: state.switching,
    })),
  );
  const project = info?.project ?? null;
  const link = info?.role === 'annotator';
  const tabs = VIEW_TABS.filter((tab) => canOpen(tab.view, { info }));

  function onTab(event: MouseEvent<HTMLButtonElement>, target: View) {
    // The view takes the keyboard: a focused tab would take Enter and Space for itself.
    event.currentTarget.blur();
    document.querySelector<HTMLElement>('.app-main')?.focus({ preventScroll: true });
    void openView(target);
  }

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
            {tabs.map((tab) => (
              <button
                key={tab.view}
                type="button"
                className={view === tab.view ? 'tab is-active' : 'tab'}
                aria-current={view === tab.view ? 'page' : undefined}
                aria-keyshortcuts={link ? undefined : tab.key}
                title={link ? tab.label : `${tab.title} (${tab.key})`}
                onClick={(event) => onTab(event, tab.view)}
                data-testid={`nav-${tab.view}`}
              >
                {tab.label} {!link && <kbd className="tab-key">{tab.key}</kbd>}
              </button>
            ))}
          </nav>
        </>
      )}
      <span className="spacer" />
      {annotator && <HeaderProgress />}
      {project && (
        <span
          className="annotator"
          data-testid="annotator"
          data-annotator={annotator ?? ''}
          title={link ? 'This link is for this annotator only' : 'Whose labels this tab records'}
        >
          {annotator ? (
            <>
              <span className="muted">{link ? 'Annotator (this link):' : 'Annotator:'}</span>{' '}
              <strong data-testid="annotator-current">{annotator}</strong>
            </>
          ) : (
            <span className="muted" data-testid="annotator-none">
              no annotator chosen
            </span>
          )}{' '}
          {!link && (annotator !== null || !switching) && (
            <button type="button" className="link-button" onClick={switchAnnotator} data-testid="annotator-switch">
              {annotator ? 'switch' : 'choose'}
            </button>
          )}
        </span>
      )}
    </header>
  );
}

/**
 * The annotation progress, subscribed on its own: every label moves it, and only these bars (not
 * the tabs and the annotator) render again for it.
 */
function HeaderProgress() {
  const progress = useAnnotation((state) => state.progress);
  if (!progress) return null;
  return (
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
  );
}
