/**
 * The overlay a key opened in Annotate (a picker, an editor, the help), whatever the unit mode.
 * Each mode opens its own: its layer is on top in the key's event, and what it shows is decided
 * after the commands queued before it (keys/overlaySlot.ts), from a snapshot of that moment.
 */
import type { ReactNode } from 'react';
import { NoteEditor } from '../../components/annotate/NoteEditor';
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

/** What / or M writes a note on: the unit as the editor shows it, its current note, and how the note is saved. */
export interface NoteEditorTarget {
  unit: { index: number; text: string };
  /** What the note is on; "Note on sentence N" when not given. */
  heading?: string;
  note: string | null;
  save: (text: string) => void;
}

/** / or M in any unit mode: the note editor on what `resolve` names after the queued commands (null: it said why). */
export function openNoteEditor(resolve: () => NoteEditorTarget | null): void {
  openAfterQueued('editor', 'note', () => {
    const target = resolve();
    if (!target) return null;
    return (layer, close) => (
      <NoteEditor
        layer={layer}
        unit={target.unit}
        heading={target.heading}
        initial={target.note ?? ''}
        onSave={(text) => {
          close();
          target.save(text);
        }}
        onCancel={close}
      />
    );
  });
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
