/** Keeps this tab's place in Annotate (state/place.ts) as it moves: mode, summary, sentence, item. */
import { useEffect } from 'react';
import { useAnnotation } from '../../state/annotation';
import { claimRows, useClaimsAndKeyFacts } from '../../state/claimsAndKeyFacts';
import { savePlace, type Place } from '../../state/place';
import { useScaffold } from '../../state/scaffold';
import { useUnitMode } from '../../state/unitMode';

/** The place on screen now, or null before a summary is. */
function placeNow(): Place | null {
  const { summary, unitPosition } = useAnnotation.getState();
  if (!summary) return null;
  const { mode } = useUnitMode.getState();
  const items = useClaimsAndKeyFacts.getState();
  const scaffold = useScaffold.getState();
  const item =
    mode === 'claims' && items.claims?.key === summary.key
      ? (claimRows(items.claims)[items.claimPosition]?.claim.id ?? null)
      : mode === 'keyfacts' && items.facts?.key === summary.key
        ? (items.facts.facts[items.factPosition]?.id ?? null)
        : mode === 'scaffold' && scaffold.scaffold?.key === summary.key
          ? (scaffold.scaffold.items[scaffold.position]?.id ?? null)
          : null;
  return { mode, key: summary.key, unitId: summary.units[unitPosition]?.id ?? null, item };
}

export function useRememberPlace(): void {
  useEffect(() => {
    let last = '';
    const save = () => {
      const owner = useAnnotation.getState().owner;
      const place = placeNow();
      if (!owner || !place) return;
      const text = JSON.stringify(place);
      if (text === last) return;
      last = text;
      savePlace(owner, place);
    };
    const stops = [
      useAnnotation.subscribe(save),
      useUnitMode.subscribe(save),
      useClaimsAndKeyFacts.subscribe(save),
      useScaffold.subscribe(save),
    ];
    return () => stops.forEach((stop) => stop());
  }, []);
}
