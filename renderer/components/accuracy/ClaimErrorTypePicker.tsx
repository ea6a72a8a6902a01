/** E on an Unsupported claim: 1–5 pick the card's error type, 0 removes it, Esc closes. */
import { CLAIM_ERROR_TYPES, type ClaimErrorType } from '../../../shared/accuracy/domain';
import type { Layer } from '../../keys/dispatcher';
import { ChoicePicker } from '../ChoicePicker';
import { claimErrorName } from './ClaimsPane';

interface ClaimErrorTypePickerProps {
  layer: Layer;
  claimText: string;
  current: ClaimErrorType | null;
  onChoose: (errorType: ClaimErrorType | null) => void;
  onClose: () => void;
}

function claimErrorLabel(type: ClaimErrorType) {
  return (
    <>
      {claimErrorName(type)} <code className="muted">{type}</code>
    </>
  );
}

export function ClaimErrorTypePicker({ layer, claimText, current, onChoose, onClose }: ClaimErrorTypePickerProps) {
  return (
    <ChoicePicker
      layer={layer}
      types={CLAIM_ERROR_TYPES}
      label={claimErrorLabel}
      current={current}
      onChoose={onChoose}
      onClose={onClose}
      title="Error type of the unsupported claim"
      ariaLabel="Claim error type"
      testId="claim-error-type-picker"
      optionTestIdPrefix="claim-error"
    >
      {claimText}
    </ChoicePicker>
  );
}
