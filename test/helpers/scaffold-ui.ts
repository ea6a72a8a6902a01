/** The one-summary camera fixture of the Annotate scaffold-mode tests on the real core, and how they reach the mode. */
import { fireEvent, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { App } from '../../renderer/App';
import type { ScaffoldContent } from '../../shared/scaffold/domain';
import { createRendererCore, type HostSeed, type RendererCore, type SummarySeed } from './renderer-core';

export const CAMERA_SPECS: SummarySeed[] = [
  {
    docId: 'camera',
    document: 'Camera settings. Choose which apps can access your camera. Windows Hello is not affected.',
    sentences: ['The page lets users choose which apps use the camera.', 'Windows Hello is blocked too.'],
  },
];

export const CAMERA_SCAFFOLD: ScaffoldContent = {
  facts: [
    { id: 'M1', text: 'Users choose which apps can access the camera.', tier: 'main' },
    { id: 'S1', text: 'Windows Hello is not affected.', tier: 'supporting' },
  ],
  questions: [{ id: 'Q1', text: 'What does the page control?', answer: 'Camera access.', tier: 'main' }],
  entities: [{ name: 'Windows Hello', attributes: [{ id: 'hello1', text: 'not affected by the setting' }] }],
};

export const press = (key: string, init: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(document.body, { key, ...init });

/** The real core holding the camera scaffold, `annotator` a person of the project. */
export function scaffoldRendererCore(
  scaffold: ScaffoldContent = CAMERA_SCAFFOLD,
  info: HostSeed = {},
  annotator = 'ann',
): Promise<RendererCore> {
  return createRendererCore(CAMERA_SPECS, info, {
    people: annotator === 'ann' ? [] : [annotator],
    scaffolds: { camera: scaffold },
  });
}

/** Renders the app on that core and waits for Annotate. */
export async function renderAnnotate(core: RendererCore): Promise<void> {
  render(createElement(App, { bridge: core.bridge }));
  await screen.findByTestId('unit-current');
}

/** T three times: sentences → claims → key facts → scaffold. */
export async function toScaffold(): Promise<void> {
  press('t');
  press('t');
  press('t');
  await screen.findByTestId('scaffold-pane');
}
