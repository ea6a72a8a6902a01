/**
 * Where a view keeps the overlay a key opened (a picker, an editor, a dialog): one at a time.
 *
 * `open` puts the overlay's layer on top at once, in the key's own event, and decides what it
 * shows after the commands queued before it (`wait`): "U E 3" opens the error-type picker on the
 * sentence U labeled, and 3 reaches the picker however late the picker's data arrives. When there
 * is nothing to show (E on a sentence that is not Unfaithful), or the queued commands were dropped,
 * the layer closes and the keys it held go to the layers below, in order.
 */
import { create } from 'zustand';
import { openLayer, type Layer } from './dispatcher';
import { releaseFocusFromOverlays } from './focus';

export interface OpenOverlay<T> {
  data: T;
  layer: Layer;
}

type OverlayKind = 'picker' | 'editor' | 'dialog';

export interface OverlaySlot<T> {
  /** The overlay on screen (React). */
  use(): OpenOverlay<T> | null;
  current(): OpenOverlay<T> | null;
  /**
   * Opens a layer now; once `wait` runs its step, `resolve` gives what to show (null: nothing).
   * The overlay's component attaches its keys to the layer (useLayerKeys) when it mounts, so it
   * must render whenever its data is set: the data holds everything it shows.
   */
  open(kind: OverlayKind, name: string, wait: (step: () => void) => Promise<void>, resolve: () => T | null): void;
  /** Opens it at once (a click, or a key whose overlay needs nothing queued before it). */
  show(kind: OverlayKind, name: string, data: T): OpenOverlay<T>;
  /** Closes `overlay` if it is still the one open. */
  close(overlay: OpenOverlay<T>): void;
  /** Closes whatever is open or opening (the view closes, the session changes). */
  closeAll(): void;
}

export function createOverlaySlot<T>(): OverlaySlot<T> {
  const store = create<{ overlay: OpenOverlay<T> | null }>(() => ({ overlay: null }));
  const opening = new Set<Layer>();

  function showOn(layer: Layer, data: T): OpenOverlay<T> {
    store.getState().overlay?.layer.close();
    const overlay = { data, layer };
    store.setState({ overlay });
    return overlay;
  }

  return {
    use: () => store((state) => state.overlay),
    current: () => store.getState().overlay,
    open(kind, name, wait, resolve) {
      const layer = openLayer(kind, name);
      opening.add(layer);
      void wait(() => {
        if (layer.closed) return;
        const data = resolve();
        if (data !== null) showOn(layer, data);
      }).finally(() => {
        opening.delete(layer);
        if (store.getState().overlay?.layer !== layer) layer.close();
      });
    },
    show(kind, name, data) {
      return showOn(openLayer(kind, name), data);
    },
    close(overlay) {
      if (store.getState().overlay === overlay) releaseFocusFromOverlays();
      overlay.layer.close();
      if (store.getState().overlay === overlay) store.setState({ overlay: null });
    },
    closeAll() {
      for (const layer of opening) layer.close();
      opening.clear();
      store.getState().overlay?.layer.close();
      store.setState({ overlay: null });
    },
  };
}
