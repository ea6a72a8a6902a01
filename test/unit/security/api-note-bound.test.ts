/**
 * A sentence label's note is bounded like every other note at the contract (10,000 characters):
 * a longer one is refused with the field named, and nothing is stored.
 */
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../electron/core/dispatch';
import { useEmptyProject } from '../../helpers/empty-project';

const project = useEmptyProject();

describe('annotation.record notes', () => {
  it('refuses a note over 10,000 characters, naming the field, and stores nothing', async () => {
    const input = {
      unitId: 1,
      annotator: 'alice',
      state: { label: 'faithful', errorType: null, note: 'x'.repeat(10_001) },
      timeSpentMs: null,
      cause: 'note',
    };
    const answer = await dispatch(project.core.handlers, 'annotation.record', input);
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe('invalid_input');
    expect(answer.error.message).toContain('note');
    expect(project.rows('annotators')).toBe(0);
  });
});
