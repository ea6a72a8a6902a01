/**
 * What Annotate's keys label now: sentences, their claims, the document's key facts for this
 * summary, or its scaffold. T switches in the key's own event, so the keys after it go to the new
 * mode however late its items load (each mode's store loads them in the command lane). A reload
 * comes back to the mode it was in (state/place.ts).
 */
import { create } from 'zustand';
import { useAnnotation } from './annotation';
import { restorePlace, UNIT_MODES, type UnitMode } from './place';

export { UNIT_MODES, type UnitMode };

export const UNIT_MODE_NAME: Record<UnitMode, string> = {
  sentences: 'Sentences',
  claims: 'Claims',
  keyfacts: 'Key facts',
  scaffold: 'Scaffold',
};

export const useUnitMode = create<{ mode: UnitMode }>(() => ({ mode: 'sentences' }));

export function setUnitMode(mode: UnitMode): void {
  if (useUnitMode.getState().mode !== mode) useUnitMode.setState({ mode });
}

/** T: sentences → claims → key facts → scaffold → sentences. */
export function nextUnitMode(): void {
  const { mode } = useUnitMode.getState();
  setUnitMode(UNIT_MODES[(UNIT_MODES.indexOf(mode) + 1) % UNIT_MODES.length]!);
}

// Another session: the mode this tab was in for it before a reload, else sentences.
useAnnotation.subscribe((state, previous) => {
  if (state.owner !== previous.owner) setUnitMode(restorePlace(state.owner)?.mode ?? 'sentences');
});
