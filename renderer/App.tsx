/** The shell: boot, menu actions, file drops, and which view is showing. */
import { lazy, Suspense, useEffect } from 'react';
import type { LoupeBridge, MenuAction } from '../shared/api';
import { isPlain } from './keys/dispatcher';
import { useKeyboard, useKeyLayer } from './keys/hooks';
import { VIEW_KEYS } from './viewKeys';
import { writesInFlight } from './state/annotateLanes';
import { importFile, importWithDialog } from './state/imports';
import { refreshProject } from './state/project';
import { openView } from './state/reveal';
import {
  boot,
  createProjectWithDialog,
  openDemoProject,
  openProjectWithDialog,
  projectOpened,
  setSessionError,
  showView,
  useSession,
} from './state/session';
import { ErrorBanner } from './components/ErrorBanner';
import { Header } from './components/Header';
import { RevealDialog } from './components/RevealDialog';
import { AnnotateView } from './views/AnnotateView';
import { AnnotatorPicker } from './views/AnnotatorPicker';
import { JudgesView } from './views/JudgesView';
import { ProjectView } from './views/ProjectView';
import { StartView } from './views/StartView';

// The judge audit is a large view most annotation sessions never open: its own chunk.
const AnalysisView = lazy(() => import('./views/AnalysisView').then((module) => ({ default: module.AnalysisView })));
// Adjudication likewise.
const ReviewView = lazy(() => import('./views/ReviewView').then((module) => ({ default: module.ReviewView })));

export function App({ bridge }: { bridge: LoupeBridge }) {
  const booting = useSession((state) => state.booting);
  const error = useSession((state) => state.error);
  const view = useSession((state) => state.view);
  const annotator = useSession((state) => state.annotator);
  const switching = useSession((state) => state.switching);
  const lead = useSession((state) => state.info?.role !== 'annotator');
  const projectPath = useSession((state) => state.info?.project?.path ?? null);

  useEffect(() => {
    void boot(bridge);
    return bridge.onMenu(onMenuAction);
  }, [bridge]);

  useKeyboard();
  useFileDrop(bridge, projectPath !== null && lead);
  // An annotator link has no other view: S G A V do nothing there (the legend says so).
  useViewKeys(projectPath !== null && lead);
  useWarnBeforeClosingWithWrites();

  // Only the views that record under a name ask for one: Annotate, and Review, whose
  // cards show and store the reviewer's own decisions. Project, Judges and Analysis need none.
  const needsName = (view === 'annotate' || view === 'review') && (!annotator || switching);

  let body;
  if (booting) body = <p className="muted centered">Connecting…</p>;
  else if (!projectPath || view === 'start') body = <StartView />;
  else if (needsName) body = <AnnotatorPicker key={view} purpose={view === 'review' ? 'review' : 'annotate'} />;
  else if (view === 'project') body = <ProjectView />;
  else if (view === 'judges') body = <JudgesView />;
  else if (view === 'analysis')
    body = (
      <Suspense fallback={<p className="muted centered">Loading the analysis…</p>}>
        <AnalysisView />
      </Suspense>
    );
  else if (view === 'review')
    body = (
      <Suspense fallback={<p className="muted centered">Loading the review…</p>}>
        <ReviewView />
      </Suspense>
    );
  else body = <AnnotateView />;

  return (
    <div className="app">
      <Header />
      <ErrorBanner message={error} onDismiss={() => setSessionError(null)} />
      <main className="app-main" tabIndex={-1}>
        {body}
      </main>
      <RevealDialog />
    </div>
  );
}

function onMenuAction(action: MenuAction): void {
  switch (action) {
    case 'open-demo':
      return void openDemoProject();
    case 'new-project':
      return void createProjectWithDialog();
    case 'open-project':
      return void openProjectWithDialog();
    case 'project-opened':
      return void projectOpened();
    case 'import':
      if (!lead()) return;
      showView('project');
      return void importWithDialog(() => void refreshProject());
    case 'export':
      if (!lead()) return;
      showView('project');
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="export-build"]')?.focus());
      return;
  }
}

function lead(): boolean {
  return useSession.getState().info?.role !== 'annotator';
}

/**
 * S Project, L Annotate, G Judges, A Analysis, V Review, from every view (viewKeys.ts); Analysis
 * and Review through the reveal gate. The bottom layer of the keyboard (keys/dispatcher.ts): a
 * view's, a picker's or a dialog's layer above it takes its keys first; typing is left alone.
 */
function useViewKeys(enabled: boolean): void {
  useKeyLayer('app', 'view-keys', (press) => {
    if (!enabled || press.repeat || !isPlain(press) || press.typing) return 'pass';
    const view = VIEW_KEYS[press.key.toLowerCase()];
    if (!view) return 'pass';
    void openView(view);
    return 'handled';
  });
}

/** Labels still being written when the page closes would be lost: the browser asks first. */
function useWarnBeforeClosingWithWrites(): void {
  useEffect(() => {
    function onBeforeUnload(event: BeforeUnloadEvent) {
      if (writesInFlight() === 0) return;
      event.preventDefault();
      event.returnValue = '';
    }
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);
}

/** A file dropped anywhere on the window is imported (shown in the Project view). */
function useFileDrop(bridge: LoupeBridge, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    function onDragOver(event: DragEvent) {
      if (event.dataTransfer?.types.includes('Files')) {
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }
    }
    function onDrop(event: DragEvent) {
      const file = event.dataTransfer?.files[0];
      if (!file) return;
      // Without this the browser would navigate to the file.
      event.preventDefault();
      showView('project');
      void importFile(
        file,
        (f) => bridge.pathForFile(f),
        () => void refreshProject(),
      );
    }
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('drop', onDrop);
    };
  }, [bridge, enabled]);
}
