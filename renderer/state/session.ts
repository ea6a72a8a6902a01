/**
 * Who and where: the bridge to the core, the host's facts, the open project, the annotator and
 * the current view. Everything else reads the bridge from here.
 */
import { create } from 'zustand';
import type { HostInfo, LoupeBridge } from '../../shared/api';
import { errorMessage } from '../api/errors';

export type View = 'start' | 'project' | 'annotate' | 'judges' | 'analysis' | 'review';

const ANNOTATOR_KEY = 'loupe.annotator';

interface SessionState {
  bridge: LoupeBridge | null;
  info: HostInfo | null;
  annotator: string | null;
  view: View;
  booting: boolean;
  /** A failure outside the annotation flow (boot, project switch), shown in the banner. */
  error: string | null;
}

export const useSession = create<SessionState>(() => ({
  bridge: null,
  info: null,
  annotator: null,
  view: 'start',
  booting: true,
  error: null,
}));

export function bridge(): LoupeBridge {
  const current = useSession.getState().bridge;
  if (!current) throw new Error('Loupe is not connected to its core yet.');
  return current;
}

export function rememberedAnnotator(): string | null {
  try {
    return window.localStorage.getItem(ANNOTATOR_KEY);
  } catch {
    return null;
  }
}

/**
 * Connects to the core and decides the first view. An annotator named by the host
 * (`loupe serve --annotator`) wins over the one remembered in this browser.
 */
export async function boot(connection: LoupeBridge): Promise<void> {
  useSession.setState({ bridge: connection, booting: true, error: null });
  try {
    const info = await connection.call('app.info', {});
    const annotator = info.annotator ?? rememberedAnnotator();
    useSession.setState({ info, view: info.project ? 'annotate' : 'start' });
    // Registered before anything asks for this annotator's queue.
    if (info.project && annotator) await chooseAnnotator(annotator);
    useSession.setState({ booting: false });
  } catch (err) {
    useSession.setState({ booting: false, error: errorMessage(err) });
  }
}

/** Registers the name with the core (idempotent) and remembers it in this browser. */
export async function chooseAnnotator(name: string): Promise<void> {
  const trimmed = name.trim();
  if (!trimmed) return;
  try {
    const annotator = await bridge().call('annotators.ensure', { name: trimmed });
    try {
      window.localStorage.setItem(ANNOTATOR_KEY, annotator.name);
    } catch {
      // Private windows may refuse storage; the choice still holds for this session.
    }
    useSession.setState({ annotator: annotator.name, error: null });
  } catch (err) {
    useSession.setState({ error: errorMessage(err) });
  }
}

export function forgetAnnotator(): void {
  useSession.setState({ annotator: null });
}

export function showView(view: View): void {
  if (view !== 'start' && !useSession.getState().info?.project) return;
  useSession.setState({ view });
}

/** After the core opened another project: refresh the host facts and start over in it. */
export async function projectOpened(): Promise<void> {
  try {
    const info = await bridge().call('app.info', {});
    useSession.setState({ info, view: info.project ? 'project' : 'start', error: null });
    const annotator = useSession.getState().annotator ?? info.annotator ?? rememberedAnnotator();
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
