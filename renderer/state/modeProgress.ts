/**
 * Progress per unit mode: for claims, key facts and the scaffold, how many of a summary's items
 * this annotator has labeled, for every summary whose items were on screen in this session (the
 * summary on screen always is). Sentences keep the queue's own counts (annotation.queue).
 */
import { create } from 'zustand';
import { useAnnotation } from './annotation';
import { claimRows, useClaimsAndKeyFacts } from './claimsAndKeyFacts';
import { useScaffold } from './scaffold';
import type { UnitMode } from './unitMode';

export type ItemCountMode = Exclude<UnitMode, 'sentences'>;

export interface ItemCounts {
  done: number;
  total: number;
}

type Counts = Record<ItemCountMode, ReadonlyMap<number, ItemCounts>>;

const empty = (): Counts => ({ claims: new Map(), keyfacts: new Map(), scaffold: new Map() });

export const useModeProgress = create<Counts>(empty);

function note(mode: ItemCountMode, key: number, counts: ItemCounts): void {
  const known = useModeProgress.getState()[mode].get(key);
  if (known && known.done === counts.done && known.total === counts.total) return;
  useModeProgress.setState({ [mode]: new Map(useModeProgress.getState()[mode]).set(key, counts) });
}

useClaimsAndKeyFacts.subscribe((state, previous) => {
  if (state.claims && state.claims !== previous.claims && state.claims.version !== null) {
    const rows = claimRows(state.claims);
    note('claims', state.claims.key, {
      done: rows.filter((r) => r.claim.state.label !== null).length,
      total: rows.length,
    });
  }
  if (state.facts && state.facts !== previous.facts && state.facts.version !== null) {
    note('keyfacts', state.facts.key, {
      done: state.facts.facts.filter((f) => f.state.label !== null).length,
      total: state.facts.facts.length,
    });
  }
});

useScaffold.subscribe((state, previous) => {
  if (state.scaffold && state.scaffold !== previous.scaffold && state.scaffold.version !== null) {
    note('scaffold', state.scaffold.key, {
      done: state.scaffold.items.filter((i) => i.state.value !== null).length,
      total: state.scaffold.items.length,
    });
  }
});

// Another session: nothing known yet.
useAnnotation.subscribe((state, previous) => {
  if (state.owner !== previous.owner) useModeProgress.setState(empty());
});
