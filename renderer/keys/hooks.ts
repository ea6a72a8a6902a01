/**
 * React's side of the dispatcher (dispatcher.ts): a component's own layer for as long as it is
 * mounted, a handler for a layer a key opened before the component existed, and state that a
 * handler reads back at once (keys held while an overlay was not ready arrive back to back,
 * faster than React renders).
 */
import { useCallback, useLayoutEffect, useReducer, useRef } from 'react';
import { installKeyboard, openLayer, type KeyHandler, type KeyPress, type Layer, type LayerKind } from './dispatcher';

/** The window's keydown listener for as long as the app shell is mounted. */
export function useKeyboard(): void {
  useLayoutEffect(() => installKeyboard(), []);
}

/**
 * A layer for this component's lifetime, opened in the same commit as its DOM. The handler
 * always sees the latest render's values; `when` is read at each key.
 */
export function useKeyLayer(kind: LayerKind, name: string, handler: KeyHandler, when?: () => boolean): void {
  const latest = useLatest(handler);
  const active = useLatest(when);
  useLayoutEffect(() => {
    const layer = openLayer(kind, name, {
      handler: (press) => latest.current(press),
      when: () => active.current?.() ?? true,
    });
    return () => layer.close();
  }, [kind, name, latest, active]);
}

/** Attaches this component's handler to `layer` (opened by the key that showed it) from its first commit. */
export function useLayerKeys(layer: Layer, handler: KeyHandler): void {
  const latest = useLatest(handler);
  useLayoutEffect(() => {
    const attached = (press: KeyPress) => latest.current(press);
    layer.attach(attached);
    return () => layer.detach(attached);
  }, [layer, latest]);
}

/** The latest value, readable from handlers and effects. */
export function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  // Before the effects that read it (declared after it), in every commit.
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}

/**
 * State that a key handler can read back right after setting it: `get()` is the newest value
 * even before React rendered it (held keys are replayed one after another in one go).
 */
export function useSyncState<T>(initial: T | (() => T)): [T, (next: T | ((current: T) => T)) => void, () => T] {
  const ref = useRef<{ value: T } | null>(null);
  if (ref.current === null) ref.current = { value: typeof initial === 'function' ? (initial as () => T)() : initial };
  const [, render] = useReducer((n: number) => n + 1, 0);
  const set = useCallback((next: T | ((current: T) => T)) => {
    const box = ref.current!;
    box.value = typeof next === 'function' ? (next as (current: T) => T)(box.value) : next;
    render();
  }, []);
  const get = useCallback(() => ref.current!.value, []);
  return [ref.current.value, set, get];
}
