/**
 * The overlay a key opened in Annotate (a picker, an editor, the help), whatever the unit mode.
 * Each mode opens its own: its layer is on top in the key's event, and what it shows is decided
 * after the commands queued before it (keys/overlaySlot.ts), from a snapshot of that moment.
 */
import type { ReactNode } from 'react';
import type { Layer } from '../../keys/dispatcher';
import { createOverlaySlot } from '../../keys/overlaySlot';
import { afterQueued } from '../../state/annotateLanes';

/** What an overlay shows: its component, given the layer its keys go to and how to close it. */
export type OverlayContent = (layer: Layer, close: () => void) => ReactNode;

const slot = createOverlaySlot<OverlayContent>();

/** Opens an overlay now; after the queued commands, `resolve` gives its content, or null (it says why). */
export function openAfterQueued(kind: 'picker' | 'editor', name: string, resolve: () => OverlayContent | null): void {
  slot.open(kind, name, afterQueued, resolve);
}

/** Opens an overlay that needs nothing queued before it (the help). */
export function openNow(kind: 'picker' | 'editor' | 'dialog', name: string, content: OverlayContent): void {
  slot.show(kind, name, content);
}

/** Annotate closed, or another session: whatever a key opened goes. */
export function closeAnnotateOverlays(): void {
  slot.closeAll();
}

export function AnnotateOverlay() {
  const overlay = slot.use();
  if (!overlay) return null;
  return <>{overlay.data(overlay.layer, () => slot.close(overlay))}</>;
}
