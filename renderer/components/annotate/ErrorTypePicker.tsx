/** E on an unfaithful unit: 1–8 pick an error type, 0 removes it, Esc closes. */
import type { AnnotationUnit } from '../../../shared/api';
import { ERROR_TYPES, ERROR_TYPE_NAMES, type ErrorType } from '../../../shared/domain';
import type { Layer } from '../../keys/dispatcher';
import { ChoicePicker } from '../ChoicePicker';

interface ErrorTypePickerProps {
  layer: Layer;
  /** The unfaithful unit being described (shown, since it may be the one just left). */
  unit: AnnotationUnit;
  current: ErrorType | null;
  onChoose: (errorType: ErrorType | null) => void;
  onClose: () => void;
}

function errorTypeLabel(type: ErrorType) {
  return ERROR_TYPE_NAMES[type];
}

export function ErrorTypePicker({ layer, unit, current, onChoose, onClose }: ErrorTypePickerProps) {
  return (
    <ChoicePicker
      layer={layer}
      types={ERROR_TYPES}
      label={errorTypeLabel}
      current={current}
      onChoose={onChoose}
      onClose={onClose}
      title="Error type"
      ariaLabel="Error type"
      testId="error-type-picker"
      optionTestIdPrefix="error-type"
    >
      <span className="muted">Sentence {unit.index + 1}: </span>
      {unit.text}
    </ChoicePicker>
  );
}
