/**
 * The reveal gate: Analysis and Review show judge verdicts, suspicious flags and
 * benchmark labels. While the current annotator still has unfinished summaries in their sample,
 * opening one of those views asks first, naming how many summaries it would reveal; on "reveal
 * for them" the core records the reveal (labels given on them afterwards are stored blind: false).
 * A reveal belongs to the person who looks: the question names that person and the consequence for
 * their labels, and the core refuses it for anyone annotating through their own link.
 * With no current annotator, or nothing new to reveal, the view opens directly.
 *
 * Judges is not gated: it shows configurations, counts and request previews, no verdict on a
 * summary.
 */
import { create } from 'zustand';
import { errorMessage } from '../api/errors';
import { openLayer, type Layer } from '../keys/dispatcher';
import { markRevealed } from './annotation';
import {
  bridge,
  canOpen,
  chooseAnnotator,
  isAnnotatorLink,
  setSessionError,
  showView,
  useSession,
  type View,
} from './session';

export type GatedView = 'analysis' | 'review';

const GATED: ReadonlySet<View> = new Set<View>(['analysis', 'review']);

export const VIEW_TITLE: Record<GatedView, string> = { analysis: 'Analysis', review: 'Review' };

export interface RevealQuestion {
  view: GatedView;
  annotator: string;
  /** Summaries this opening would reveal (unfinished and not revealed before). */
  count: number;
}

interface RevealState {
  asking: RevealQuestion | null;
  /** A check or a reveal is on its way (the keys that open views wait for it). */
  pending: boolean;
  /**
   * The question's keyboard layer, open from the key that asked to open the view: keys pressed
   * while the core is asked what it would reveal wait for the question instead of acting on the
   * view behind it.
   */
  layer: Layer | null;
}

export const useReveal = create<RevealState>(() => ({ asking: null, pending: false, layer: null }));

/** The question is answered or not needed: its layer closes (keys it held go to the view shown now). */
function closeQuestion(partial: Partial<RevealState> = {}): void {
  const { layer } = useReveal.getState();
  useReveal.setState({ ...partial, asking: null, layer: null });
  layer?.close();
}

/** Opens `view`, asking first when it would reveal judge output for unfinished work. */
export function openView(view: View): Promise<void> {
  if (useSession.getState().view === view) return Promise.resolve();
  return gate(view, 'stay');
}

/**
 * The picker inside a view: the name is chosen, and when that view reveals, the gate asks for the
 * new name before anything of the view loads (cancel: Annotate, which needs the name anyway).
 */
export async function chooseAnnotatorFor(view: 'annotate' | 'review', name: string): Promise<void> {
  const before = useSession.getState().annotator;
  await chooseAnnotator(name);
  const after = useSession.getState().annotator;
  if (after === null || after === before || !GATED.has(view)) return;
  useSession.setState({ view: 'annotate' });
  await gate(view, 'annotate');
}

/** Where a cancelled question leaves the user: where they were, or Annotate. */
let onCancel: 'stay' | 'annotate' = 'stay';

async function gate(view: View, cancelTo: 'stay' | 'annotate'): Promise<void> {
  const { annotator } = useSession.getState();
  if (!canOpen(view)) return;
  if (!GATED.has(view) || isAnnotatorLink() || annotator === null) {
    showView(view);
    return;
  }
  onCancel = cancelTo;
  if (useReveal.getState().pending || useReveal.getState().layer) return;
  useReveal.setState({ pending: true, layer: openLayer('dialog', 'reveal') });
  try {
    const status = await bridge().call('annotation.revealStatus', { annotator });
    const count = Math.max(0, status.unfinished - status.revealed);
    if (count === 0) {
      showView(view);
      closeQuestion();
    } else useReveal.setState({ asking: { view: view as GatedView, annotator, count } });
  } catch (err) {
    // Blind unless revealed: when the check fails, the view stays closed and says why.
    closeQuestion();
    setSessionError(`Could not check what ${VIEW_TITLE[view as GatedView]} would reveal: ${errorMessage(err)}`);
  } finally {
    useReveal.setState({ pending: false });
  }
}

/** "Reveal for …": the core records the reveal for that person, then the view opens. */
export async function confirmReveal(): Promise<void> {
  const { asking, pending } = useReveal.getState();
  if (!asking || pending) return;
  useReveal.setState({ pending: true });
  try {
    // The question named the person and what it does to their labels: this is their confirmation.
    await bridge().call('annotation.reveal', {
      annotator: asking.annotator,
      view: asking.view,
      confirmFor: asking.annotator,
    });
    markRevealed();
    showView(asking.view);
    closeQuestion();
  } catch (err) {
    closeQuestion();
    setSessionError(`The reveal was not recorded, so ${VIEW_TITLE[asking.view]} stays closed: ${errorMessage(err)}`);
  } finally {
    useReveal.setState({ pending: false });
  }
}

export function cancelReveal(): void {
  if (onCancel === 'annotate') showView('annotate');
  closeQuestion();
}

export function resetReveal(): void {
  closeQuestion({ pending: false });
}
