/** A claim's or key fact's label as a letter on the colour of the sentence label it shares a key with. */
import type { ClaimLabel, KeyFactLabel } from '../../../shared/accuracy/domain';
import { CLAIM_LABEL_NAME, FACT_LABEL_NAME } from '../../state/claimsAndKeyFacts';

const COLOUR: Record<ClaimLabel | KeyFactLabel, string> = {
  supported: 'faithful',
  unsupported: 'unfaithful',
  unclear: 'unclear',
  covered: 'faithful',
  not_covered: 'unfaithful',
};
/** Key facts get marks, not letters: a "C" for Covered read as the C key, which means Unclear elsewhere. */
const LETTER: Record<ClaimLabel | KeyFactLabel, string> = {
  supported: 'S',
  unsupported: 'U',
  unclear: '?',
  covered: '✓',
  not_covered: '✗',
};

export function itemLabelName(label: ClaimLabel | KeyFactLabel): string {
  return label in CLAIM_LABEL_NAME ? CLAIM_LABEL_NAME[label as ClaimLabel] : FACT_LABEL_NAME[label as KeyFactLabel];
}

export function ItemBadge({ label, testId }: { label: ClaimLabel | KeyFactLabel | null; testId?: string }) {
  const name = label ? itemLabelName(label) : 'Not labeled';
  return (
    <span
      className={`badge badge-${label ? COLOUR[label] : 'none'}`}
      data-testid={testId}
      data-label={label ?? ''}
      title={name}
      aria-label={name}
    >
      {label ? LETTER[label] : '·'}
    </span>
  );
}
