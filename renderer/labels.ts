/** How labels look: a letter and a name for each, so colour is never the only signal. */
import type { HumanLabel } from '../shared/domain';

export const LABEL_LETTER: Record<HumanLabel, string> = { faithful: 'F', unfaithful: 'U', unclear: 'C' };
export const LABEL_NAME: Record<HumanLabel, string> = {
  faithful: 'Faithful',
  unfaithful: 'Unfaithful',
  unclear: 'Unclear / fragment',
};
