/** Who an annotator is (schema 7): a person of the project, or a label set an import brought. */
import { ApiError } from '../shared/errors';

export type AnnotatorKind = 'person' | 'imported';

/**
 * Acting as an imported label set (annotating, reviewing, sampling for it, a link for it): refused
 * with the contract's invalid_input, whichever call tried.
 */
export class AnnotatorKindError extends ApiError {
  constructor(readonly annotator: string) {
    super({
      code: 'invalid_input',
      message: `"${annotator}" is an imported label set (read-only): it cannot be annotated, reviewed or sampled as. Choose a person's name.`,
    });
    this.name = 'AnnotatorKindError';
  }
}
