import { useEffect } from 'react';

/**
 * A keyboard-first view takes the keyboard when it opens: the nav button that brought us here
 * keeps focus after its click, and Enter or Space would press it again.
 */
export function useReleaseFocus(): void {
  useEffect(() => {
    if (document.activeElement instanceof HTMLElement && document.activeElement !== document.body)
      document.activeElement.blur();
  }, []);
}
