/** Keeps the list's current row (aria-current="true") in view as the position moves. */
import { useEffect, useRef, type RefObject } from 'react';

/** `deps`: what moves the current row (the position, the list's contents). */
export function useScrollCurrentIntoView<T extends HTMLElement>(deps: readonly unknown[]): RefObject<T | null> {
  const list = useRef<T>(null);
  useEffect(() => {
    // In the next frame, not in the keypress's task: scrolling forces a layout, which would delay
    // the paint of the new current row.
    const frame = requestAnimationFrame(() =>
      list.current?.querySelector<HTMLElement>('[aria-current="true"]')?.scrollIntoView?.({ block: 'nearest' }),
    );
    return () => cancelAnimationFrame(frame);
    // The caller names what moves the row.
  }, deps);
  return list;
}
