// @vitest-environment happy-dom
/**
 * The systems list in the Judges view: on the desktop (app.info.keychain) a
 * typed key goes with systems.add and the list says where the key comes from; in the browser
 * (no keychain) there is no key field and only the environment variable's name crosses the API.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { App } from '../../../renderer/App';
import { resetRendererState } from '../../../renderer/testing/transport';
import { createRendererCore, type RendererCore } from '../../helpers/renderer-core';

let core: RendererCore;
beforeEach(() => resetRendererState());
afterEach(() => cleanup());

async function openSystems(keychain: boolean) {
  // `loupe serve` lets a system name only the variables it was started with (--allow-key-env).
  core = await createRendererCore(
    [{ docId: 'd1', document: 'Rain flooded the valley.', sentences: ['Rain flooded the valley.'] }],
    { keychain, host: keychain ? 'electron' : 'web' },
    { allowedKeyEnv: keychain ? undefined : ['SYS_KEY'] },
  );
  render(<App bridge={core.bridge} />);
  fireEvent.click(await screen.findByTestId('nav-judges'));
  return within(await screen.findByTestId('accuracy-systems'));
}

function fill(systems: ReturnType<typeof within>, name: string, keyEnv = '') {
  fireEvent.change(systems.getByTestId('system-name'), { target: { value: name } });
  fireEvent.change(systems.getByTestId('system-model'), { target: { value: 'gpt-4o-mini' } });
  fireEvent.change(systems.getByTestId('system-key-env'), { target: { value: keyEnv } });
}

describe('systems’ keys in the Judges view', () => {
  it('desktop: a typed key goes to systems.add (keychain) and the list says where each key comes from', async () => {
    const systems = await openSystems(true);
    fill(systems, 'typed');
    fireEvent.change(systems.getByTestId('system-api-key'), { target: { value: 'sk-typed-1234' } });
    fireEvent.click(systems.getByTestId('system-add'));
    await systems.findByTestId('system-row');
    expect(core.callsTo('systems.add')[0]).toMatchObject({ name: 'typed', apiKey: 'sk-typed-1234' });
    // The field is emptied: the key is never shown back.
    expect((systems.getByTestId('system-api-key') as HTMLInputElement).value).toBe('');

    // Systems are listed by name: this one after "typed".
    fill(systems, 'via-env', 'OPENAI_API_KEY');
    fireEvent.click(systems.getByTestId('system-add'));
    await screen.findByText('from $OPENAI_API_KEY');
    expect(core.callsTo('systems.add')[1]).not.toHaveProperty('apiKey');
    const sources = systems
      .getAllByTestId('system-key-source')
      .map((cell) => [cell.getAttribute('data-key-source'), cell.textContent]);
    expect(sources).toEqual([
      ['stored', 'stored in the OS keychain'],
      ['env', 'from $OPENAI_API_KEY'],
    ]);
    expect(document.body.textContent).not.toContain('sk-typed-1234');
  });

  it('browser: no key field; only the environment variable’s name is sent', async () => {
    const systems = await openSystems(false);
    expect(systems.queryByTestId('system-api-key')).toBeNull();
    fill(systems, 'served', 'SYS_KEY');
    fireEvent.click(systems.getByTestId('system-add'));
    await systems.findByTestId('system-row');
    expect(core.callsTo('systems.add')[0]).not.toHaveProperty('apiKey');
    expect(systems.getByTestId('system-key-source').textContent).toBe('from $SYS_KEY');
  });
});
