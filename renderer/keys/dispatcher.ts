/**
 * The one keyboard dispatcher (docs/architecture.md, "One keyboard dispatcher"): a single
 * `keydown` listener on the window and a stack of layers. The top layer gets a key first; a
 * view or mode layer may pass it down, a modal layer (picker, editor, dialog) never does, so no
 * key reaches a lower layer while one is open.
 *
 * A layer a key opens is on top before the next key: the command handler opens it synchronously
 * (`openLayer`), even when what it shows is not ready yet (an overlay waits for the label writes
 * pressed before it). Until it gets its handler (`attach`) the layer holds the keys pressed; it
 * then gets them in order. Closed without a handler (nothing to show after all), it hands them to
 * the layers below, in order, as if they had been pressed then. VS Code's keybinding service,
 * with its `when` contexts, is the model: a layer's `when` says whether it is active now.
 */
import { isActivatable, isTypingTarget } from '../keyboard';

/** app: the keys of every view (S G A V L); view: a view's keys; mode: the keys of what a view labels now. */
export type LayerKind = 'app' | 'view' | 'mode' | 'picker' | 'editor' | 'dialog';

const RANK: Record<LayerKind, number> = { app: 0, view: 1, mode: 2, picker: 3, editor: 3, dialog: 3 };
const MODAL_RANK = 3;

/** One key press as the layers see it, taken from the DOM event when it arrived. */
export interface KeyPress {
  /** `KeyboardEvent.key` ("f", "F", "Enter", "Escape", " "…). */
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  repeat: boolean;
  target: EventTarget | null;
  /** The focus is in a text field: single-letter shortcuts must not fire. */
  typing: boolean;
  /** The focus is on a button or link: Enter and Space press it. */
  activatable: boolean;
  /** performance.now() when the key arrived (a label's time spent ends there). */
  at: number;
}

/**
 * handled: the layer acted on the key (its default action is prevented); native: the key keeps
 * its default action (typing, a focused button's Enter) and goes no further; pass: a layer below
 * may take it (modal layers cannot pass: a pass there is native).
 */
export type KeyOutcome = 'handled' | 'native' | 'pass';
export type KeyHandler = (press: KeyPress) => KeyOutcome;

export interface Layer {
  readonly kind: LayerKind;
  readonly name: string;
  /** Gives the layer its handler; the keys it held since it opened reach it now, in order. */
  attach(handler: KeyHandler): void;
  /** Takes the handler back (a component unmounting before the layer closes): keys are held again. */
  detach(handler: KeyHandler): void;
  /** Closes the layer; keys it held without a handler go to the layers below, in order. */
  close(): void;
  readonly closed: boolean;
}

interface Entry {
  layer: Layer;
  rank: number;
  when: (() => boolean) | undefined;
  handler: KeyHandler | null;
  held: KeyPress[];
}

let stack: Entry[] = [];

/**
 * Opens a layer on top of those of its rank (modal layers above modes above views). Without a
 * handler it holds the keys until `attach`. `when`: the layer is skipped while it returns false
 * (a view's layer, while another view is showing).
 */
export function openLayer(
  kind: LayerKind,
  name: string,
  options: { handler?: KeyHandler; when?: () => boolean } = {},
): Layer {
  let closed = false;
  const entry: Entry = {
    rank: RANK[kind],
    when: options.when,
    handler: options.handler ?? null,
    held: [],
    layer: {
      kind,
      name,
      attach(handler) {
        if (closed) return;
        entry.handler = handler;
        const held = entry.held;
        entry.held = [];
        for (const press of held) dispatchKey(press);
      },
      detach(handler) {
        if (!closed && entry.handler === handler) entry.handler = null;
      },
      close() {
        if (closed) return;
        closed = true;
        stack = stack.filter((e) => e !== entry);
        const held = entry.held;
        entry.held = [];
        for (const press of held) dispatchKey(press);
      },
      get closed() {
        return closed;
      },
    },
  };
  const at = stack.findIndex((e) => e.rank > entry.rank);
  stack = at === -1 ? [...stack, entry] : [...stack.slice(0, at), entry, ...stack.slice(at)];
  return entry.layer;
}

/** Gives `press` to the layers, top first; what the key's default action should be. */
export function dispatchKey(press: KeyPress): KeyOutcome {
  for (let i = stack.length - 1; i >= 0; i -= 1) {
    const entry = stack[i]!;
    if (entry.when && !entry.when()) continue;
    if (entry.handler === null) {
      // Opened by a key, not ready yet: it keeps this key for when it is.
      entry.held.push(press);
      return 'handled';
    }
    const outcome = entry.handler(press);
    if (outcome !== 'pass') return outcome;
    if (entry.rank >= MODAL_RANK) return 'native';
  }
  return 'pass';
}

export function keyPressOf(event: KeyboardEvent): KeyPress {
  return {
    key: event.key,
    ctrlKey: event.ctrlKey,
    metaKey: event.metaKey,
    altKey: event.altKey,
    shiftKey: event.shiftKey,
    repeat: event.repeat,
    target: event.target,
    typing: isTypingTarget(event.target),
    activatable: isActivatable(event.target),
    at: performance.now(),
  };
}

function onKeyDown(event: KeyboardEvent): void {
  // A component's own handler (React's, which runs before the window's) already acted on it.
  if (event.defaultPrevented) return;
  if (dispatchKey(keyPressOf(event)) === 'handled') event.preventDefault();
}

let installs = 0;

/** The window's one keydown listener, while anything needs it (the app shell mounts it). */
export function installKeyboard(): () => void {
  if (installs === 0) window.addEventListener('keydown', onKeyDown);
  installs += 1;
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    installs -= 1;
    if (installs === 0) window.removeEventListener('keydown', onKeyDown);
  };
}

/** The open layers, bottom first, as "kind:name" (for tests and debugging). */
export function openLayers(): string[] {
  return stack.map((e) => `${e.layer.kind}:${e.layer.name}${e.handler === null ? ' (holding)' : ''}`);
}

/** Plain keys only: no Ctrl, Cmd or Alt (those are the browser's and the OS's, or undo/redo). */
export function isPlain(press: KeyPress): boolean {
  return !press.ctrlKey && !press.metaKey && !press.altKey;
}
