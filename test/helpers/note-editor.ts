/** Types a note into Annotate's open note editor and saves it with Ctrl+Enter, waiting for the editor to close. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

export async function writeNote(text: string): Promise<void> {
  const area = (await screen.findByTestId('note-text')) as HTMLTextAreaElement;
  fireEvent.change(area, { target: { value: text } });
  fireEvent.keyDown(area, { key: 'Enter', ctrlKey: true });
  await waitFor(() => expect(screen.queryByTestId('note-editor')).toBeNull());
}
