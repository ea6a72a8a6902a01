/** Focus inside a dialog: Tab and Shift+Tab cycle through its controls and never leave it. */
import type { KeyOutcome, KeyPress } from './dispatcher';

const FOCUSABLE =
  'button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

export function focusableIn(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[inert]'));
}

/** Tab inside `container`: the next (Shift: previous) control, wrapping around; other keys are not its business. */
export function cycleFocus(container: HTMLElement | null, press: KeyPress): KeyOutcome {
  if (press.key !== 'Tab' || press.ctrlKey || press.metaKey || press.altKey || !container) return 'pass';
  const controls = focusableIn(container);
  if (controls.length === 0) return 'handled';
  const at = controls.indexOf(document.activeElement as HTMLElement);
  const next =
    at === -1
      ? press.shiftKey
        ? controls.length - 1
        : 0
      : (at + (press.shiftKey ? -1 : 1) + controls.length) % controls.length;
  controls[next]!.focus();
  return 'handled';
}

/**
 * An overlay closes: the focus leaves it in the same event, so the next key goes to the page, not
 * to a field React has not removed yet.
 */
export function releaseFocusFromOverlays(): void {
  const active = typeof document === 'undefined' ? null : document.activeElement;
  if (active instanceof HTMLElement && active.closest('[role="dialog"], [role="alertdialog"]')) active.blur();
}
