/**
 * Who and where: the bridge to the core, the host's facts (the role of this connection), the
 * open project, the current annotator and the current view. Everything else reads the bridge
 * from here.
 *
 * Identity: the current annotator belongs to this tab or window (sessionStorage, like
 * the serve token): a new tab asks, a reload keeps the tab's own, and another tab switching to
 * someone else changes nothing here. An annotator link's identity is the host's and fixed.
 */
import { create } from 'zustand';
import type { HostInfo, LoupeBridge } from '../../shared/api';
import { errorMessage } from '../api/errors';

export type View = 'start' | 'project' | 'annotate' | 'judges' | 'analysis' | 'review';

/** Views an annotator link may open: the rest are the lead's (their calls would be refused). */
export const ANNOTATOR_VIEWS: ReadonlySet<View> = new Set<View>(['start', 'annotate']);

const ANNOTATOR_KEY = 'loupe.annotator';

interface SessionState {
  bridge: LoupeBridge | null;
  info: HostInfo | null;
  annotator: string | null;
  /** The picker is open because the user asked to switch (the current name stays until a new one is chosen). */
  switching: boolean;
  view: View;
  booting: boolean;
  /** A failure outside the annotation flow (boot, project switch), shown in the banner. */
  error: string | null;
}

export const useSession = create<SessionState>(() => ({
  bridge: null,
  info: null,
  annotator: null,
  switching: false,
  view: 'start',
  booting: true,
  error: null,
}));

export function bridge(): LoupeBridge {
  const current = useSession.getState().bridge;
  if (!current) throw new Error('Loupe is not connected to its core yet.');
  return current;
}

/** True on an annotator link: only Annotate, and a fixed identity. */
export function isAnnotatorLink(state: Pick<SessionState, 'info'> = useSession.getState()): boolean {
  return state.info?.role === 'annotator';
}

/** The name this tab chose earlier (survives a reload of this tab only). */
export function rememberedAnnotator(): string | null {
  try {
    return window.sessionStorage.getItem(ANNOTATOR_KEY);
  } catch {
    return null;
  }
}

function rememberAnnotator(name: string): void {
  try {
    window.sessionStorage.setItem(ANNOTATOR_KEY, name);
  } catch {
    // Private windows may refuse storage; the choice still holds until this page is closed.
  }
}

/** Whom this tab starts as: an annotator link's own name, else this tab's choice, else the host's preset. */
function startingAnnotator(info: HostInfo): string | null {
  if (info.role === 'annotator') return info.annotator;
  return rememberedAnnotator() ?? info.annotator;
}

/**
 * Connects to the core and decides the first view. Nothing asks for a name here: only the
 * views that record under one (Annotate, Review's decisions) do.
 */
export async function boot(connection: LoupeBridge): Promise<void> {
  useSession.setState({ bridge: connection, booting: true, error: null });
  try {
    const info = await connection.call('app.info', {});
    useSession.setState({ info, view: info.project ? 'annotate' : 'start' });
    const annotator = startingAnnotator(info);
    // Registered before anything asks for this annotator's queue.
    if (info.project && annotator) await chooseAnnotator(annotator);
    useSession.setState({ booting: false });
  } catch (err) {
    useSession.setState({ booting: false, error: errorMessage(err) });
  }
}

/**
 * Makes `name` this tab's annotator. The lead registers it with the core (idempotent; the core
 * refuses an imported label set's name); an annotator link cannot change its name, and does not
 * call annotators.ensure (the lead's): its annotator exists, the host created the link for them.
 */
export async function chooseAnnotator(name: string): Promise<void> {
  const trimmed = name.trim();
  if (!trimmed) return;
  const { info } = useSession.getState();
  if (info?.role === 'annotator') {
    useSession.setState({ annotator: info.annotator, switching: false, error: null });
    return;
  }
  try {
    const annotator = await bridge().call('annotators.ensure', { name: trimmed });
    rememberAnnotator(annotator.name);
    useSession.setState({ annotator: annotator.name, switching: false, error: null });
  } catch (err) {
    useSession.setState({ error: errorMessage(err) });
  }
}

/** The explicit "switch": opens the picker; the current annotator stays until another is chosen. */
export function switchAnnotator(): void {
  if (isAnnotatorLink()) return;
  useSession.setState({ switching: true, view: viewNeedingName(useSession.getState().view) });
}

export function cancelSwitch(): void {
  useSession.setState({ switching: false });
}

/** The picker shows in a view that records under a name; elsewhere switching opens Annotate. */
function viewNeedingName(view: View): View {
  return view === 'review' ? 'review' : 'annotate';
}

/** Whether `view` may open here (an annotator link opens only Annotate). */
export function canOpen(view: View, state: Pick<SessionState, 'info'> = useSession.getState()): boolean {
  if (view !== 'start' && !state.info?.project) return false;
  return !isAnnotatorLink(state) || ANNOTATOR_VIEWS.has(view);
}

/** The view on screen now (a view's keys act only while it is: its layer's `when`). */
export function isShowing(view: View): boolean {
  return useSession.getState().view === view;
}

/** Shows `view` as is; views that reveal judge output go through state/reveal.ts openView. */
export function showView(view: View): void {
  if (!canOpen(view)) return;
  useSession.setState({ view });
}

/** After the core opened another project: refresh the host facts and start over in it. */
export async function projectOpened(): Promise<void> {
  try {
    const info = await bridge().call('app.info', {});
    useSession.setState({ info, view: info.project ? 'project' : 'start', error: null });
    const annotator =
      info.role === 'annotator' ? info.annotator : (useSession.getState().annotator ?? startingAnnotator(info));
    if (info.project && annotator) await chooseAnnotator(annotator);
  } catch (err) {
    useSession.setState({ error: errorMessage(err) });
  }
}

export function setSessionError(error: string | null): void {
  useSession.setState({ error });
}

// ---------------------------------------------------------------------------------------------
// Switching projects (desktop only: `app.info.canSwitchProjects`)

async function switchProject(open: () => Promise<unknown>): Promise<void> {
  try {
    await open();
    await projectOpened();
  } catch (err) {
    useSession.setState({ error: errorMessage(err) });
  }
}

export function openDemoProject(): Promise<void> {
  return switchProject(() => bridge().call('projects.openDemo', {}));
}

export function openProjectAt(path: string): Promise<void> {
  return switchProject(() => bridge().call('projects.open', { path }));
}

/** Native dialogs; a cancelled dialog changes nothing. */
export async function openProjectWithDialog(): Promise<void> {
  try {
    const { path } = await bridge().call('dialog.openProject', {});
    if (path) await openProjectAt(path);
  } catch (err) {
    useSession.setState({ error: errorMessage(err) });
  }
}

export async function createProjectWithDialog(): Promise<void> {
  try {
    const { path } = await bridge().call('dialog.createProject', {});
    if (path) await switchProject(() => bridge().call('projects.create', { path }));
  } catch (err) {
    useSession.setState({ error: errorMessage(err) });
  }
}
