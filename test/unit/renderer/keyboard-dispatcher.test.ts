// @vitest-environment happy-dom
/**
 * The one keyboard dispatcher (renderer/keys/dispatcher.ts) on its own: the top layer gets a key
 * first, modal layers never let one through, a layer opened by a key holds the keys pressed
 * before it is ready and gets them in order, a layer closed unready hands them to the layers
 * below in order, `when` contexts skip inactive layers, and the window has one listener whose
 * default action follows the layers' outcome. Keys are dispatched back to back, synchronously.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  dispatchKey,
  installKeyboard,
  openLayer,
  openLayers,
  type KeyOutcome,
  type KeyPress,
  type Layer,
} from '../../../renderer/keys/dispatcher';

const press = (key: string, extra: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  repeat: false,
  target: document.body,
  typing: false,
  activatable: false,
  at: 0,
  ...extra,
});

/** A layer that records what it got and answers `outcome` (per key, or one for all). */
function recorder(
  kind: Parameters<typeof openLayer>[0],
  name: string,
  outcome: KeyOutcome | ((key: string) => KeyOutcome),
  when?: () => boolean,
) {
  const got: string[] = [];
  const layer = openLayer(kind, name, {
    handler: (p) => {
      got.push(p.key);
      return typeof outcome === 'function' ? outcome(p.key) : outcome;
    },
    when,
  });
  return { got, layer };
}

let opened: Layer[] = [];
const track = <T extends { layer: Layer }>(x: T): T => (opened.push(x.layer), x);

beforeEach(() => {
  opened = [];
});
afterEach(() => {
  for (const layer of opened) layer.close();
  expect(openLayers()).toEqual([]);
});

describe('the layer stack', () => {
  it('gives a key to the top layer first; view and mode layers pass what they do not take', () => {
    const app = track(recorder('app', 'app', 'handled'));
    const view = track(recorder('view', 'view', (k) => (k === 'n' ? 'handled' : 'pass')));
    const mode = track(recorder('mode', 'mode', (k) => (k === 'f' ? 'handled' : 'pass')));
    expect(dispatchKey(press('f'))).toBe('handled');
    expect(dispatchKey(press('n'))).toBe('handled');
    expect(dispatchKey(press('s'))).toBe('handled');
    expect(mode.got).toEqual(['f', 'n', 's']);
    expect(view.got).toEqual(['n', 's']);
    expect(app.got).toEqual(['s']);
  });

  it('orders by kind, whatever the opening order: a view opened after a picker stays below it', () => {
    const picker = track(recorder('picker', 'picker', 'pass'));
    const view = track(recorder('view', 'late view', 'handled'));
    // A modal layer's pass is the key's default action, never a lower layer.
    expect(dispatchKey(press('f'))).toBe('native');
    expect(picker.got).toEqual(['f']);
    expect(view.got).toEqual([]);
    expect(openLayers()).toEqual(['view:late view', 'picker:picker']);
  });

  it('skips a layer whose `when` is false (a view that is not showing)', () => {
    let showing = false;
    const hidden = track(recorder('view', 'judges', 'handled', () => showing));
    const app = track(recorder('app', 'app', 'handled'));
    dispatchKey(press('r'));
    showing = true;
    dispatchKey(press('r'));
    expect(hidden.got).toEqual(['r']);
    expect(app.got).toEqual(['r']);
  });

  it('nothing reaches a lower layer while a modal one is open, and everything does once it closes', () => {
    const view = track(recorder('view', 'view', 'handled'));
    const dialog = recorder('dialog', 'dialog', 'handled');
    for (const key of ['f', 'u', '3', 'Enter']) dispatchKey(press(key));
    dialog.layer.close();
    dispatchKey(press('j'));
    expect(dialog.got).toEqual(['f', 'u', '3', 'Enter']);
    expect(view.got).toEqual(['j']);
  });
});

describe('a layer opened by a key, before its content is ready', () => {
  it('holds the keys pressed meanwhile and gets them in order once its handler attaches', () => {
    const view = track(recorder('view', 'view', 'handled'));
    const picker = track({ layer: openLayer('picker', 'error-type') });
    for (const key of ['3', 'j', 'k']) expect(dispatchKey(press(key))).toBe('handled');
    expect(openLayers()).toEqual(['view:view', 'picker:error-type (holding)']);
    const got: string[] = [];
    picker.layer.attach((p) => {
      got.push(p.key);
      // The first held key chooses and closes the picker: the rest go to the view, in order.
      if (p.key === '3') picker.layer.close();
      return 'handled';
    });
    expect(got).toEqual(['3']);
    expect(view.got).toEqual(['j', 'k']);
  });

  it('closed without content (nothing to open), hands its keys to the layers below in order', () => {
    const view = track(recorder('view', 'view', 'handled'));
    const picker = openLayer('picker', 'error-type');
    dispatchKey(press('3'));
    dispatchKey(press('f'));
    picker.close();
    expect(view.got).toEqual(['3', 'f']);
  });

  it('a held key that opens another layer makes the keys after it wait for that one (E E in a row)', () => {
    const opened: Layer[] = [];
    const view = track(
      recorder('view', 'view', (k) => {
        if (k === 'e') opened.push(openLayer('picker', `picker ${opened.length + 1}`));
        return 'handled';
      }),
    );
    dispatchKey(press('e'));
    dispatchKey(press('x'));
    dispatchKey(press('e'));
    dispatchKey(press('y'));
    expect(opened).toHaveLength(1);
    // The first picker had nothing to show: x and e go down; e opens the second, which holds y.
    opened[0]!.close();
    expect(view.got).toEqual(['e', 'x', 'e']);
    const got: string[] = [];
    opened[1]!.attach((p) => (got.push(p.key), 'handled'));
    expect(got).toEqual(['y']);
    opened[1]!.close();
  });

  it('a handler taken back (its component unmounted) makes the layer hold keys again until it closes', () => {
    const view = track(recorder('view', 'view', 'handled'));
    const layer = openLayer('editor', 'editor');
    const handler = () => 'handled' as const;
    layer.attach(handler);
    layer.detach(handler);
    dispatchKey(press('q'));
    layer.close();
    expect(view.got).toEqual(['q']);
  });
});

describe('the window listener', () => {
  it('is one listener; the default action is prevented only for handled keys, and keys a component already took are skipped', () => {
    const uninstall = installKeyboard();
    const again = installKeyboard();
    const view = track(recorder('view', 'view', (k) => (k === 'f' ? 'handled' : 'pass')));
    const fire = (key: string, prevented = false) => {
      const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      if (prevented) event.preventDefault();
      document.body.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(fire('f')).toBe(true);
    expect(fire('q')).toBe(false);
    fire('f', true);
    // Installed twice, still one listener: each key reached the layer once.
    expect(view.got).toEqual(['f', 'q']);
    again();
    uninstall();
    fire('f');
    expect(view.got).toEqual(['f', 'q']);
  });
});
